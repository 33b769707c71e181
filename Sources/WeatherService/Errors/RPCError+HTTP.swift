import WeatherWire

extension RPCError {
    /// The HTTP status that answers this error on the HTTP face: the same kinds as JSON-RPC, each with the
    /// status a client of HTTP expects. A malformed request or params (JSON-RPC's -32700, -32600, -32602) is a 400.
    package var httpStatus: HTTPStatus {
        switch kind {
        case "not_found", "no_location", "method_not_found": .notFound
        case "already_exists", "too_many_favorites", "command_conflict": .conflict
        case "offline", "upstream_error", "bad_upstream_response", "unauthorized": .badGateway
        case "timeout": .gatewayTimeout
        case "rate_limited", "too_many_connections", "daemon_unavailable", "storage_failure": .serviceUnavailable
        default: [-32700, -32600, -32602].contains(rpcCode) ? .badRequest : .internalServerError
        }
    }
}
