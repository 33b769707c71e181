import WeatherWire

extension RPCError {
    /// The HTTP status that answers this error on the HTTP face: the same kinds as JSON-RPC, each with the
    /// status a client of HTTP expects.
    package var httpStatus: HTTPStatus {
        switch kind {
        case "not_found", "no_location", "method_not_found": .notFound
        case "invalid_params", "invalid_request", "parse_error": .badRequest
        case "already_exists", "too_many_favorites": .conflict
        case "offline", "upstream_error", "bad_upstream_response", "unauthorized": .badGateway
        case "timeout": .gatewayTimeout
        case "rate_limited", "too_many_connections", "daemon_unavailable": .serviceUnavailable
        default: .internalServerError
        }
    }
}
