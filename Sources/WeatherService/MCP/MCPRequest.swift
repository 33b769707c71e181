import WeatherDomain
import WeatherEngine

/// One admitted MCP request: the version it is served in, and how its result is shaped for it.
struct MCPRequest: Sendable {
    var version: MCPVersion
    /// The JSON-RPC id (nil for a notification).
    var id: JSONValue?
    /// `params._meta.progressToken`, when the client wants progress notifications.
    var progressToken: JSONValue?
    /// `{name, version}` of this server.
    var serverInfo: JSONValue

    /// A result as the version sends it: in the stateless era with `resultType` and the server's
    /// identity in `_meta`.
    func result(_ members: [String: JSONValue]) -> JSONValue {
        guard version.isStateless else { return .object(members) }
        var members = members
        members["resultType"] = "complete"
        members["_meta"] = .object([MCPMeta.serverInfo: serverInfo])
        return .object(members)
    }

    /// A list or read result: in the stateless era also with `ttlMs` and `cacheScope`.
    func cacheable(_ members: [String: JSONValue], ttlMs: Int64, scope: String) -> JSONValue {
        guard version.isStateless else { return result(members) }
        var members = members
        members["ttlMs"] = .int(ttlMs)
        members["cacheScope"] = .string(scope)
        return result(members)
    }
}

/// The protocol errors of the MCP face.
enum MCPErrors {
    /// An MCP request before `initialize` on a connection that has not chosen the stateless era.
    static let notInitialized = RPCError(
        code: -32600, kind: "not_initialized",
        message: "Invalid request: the MCP session is not initialized; send initialize first, "
            + "or put io.modelcontextprotocol/protocolVersion 2026-07-28 in params._meta.")

    /// `initialize` on a connection already speaking the stateless era.
    static let statelessInitialize = RPCError(
        code: -32600, kind: "era_mismatch",
        message: "Invalid request: this connection speaks MCP 2026-07-28 (no handshake); "
            + "keep sending the version in params._meta.")

    /// A request carrying a version in `_meta` on a connection that negotiated one with `initialize`.
    static func eraMismatch(_ version: MCPVersion) -> RPCError {
        RPCError(
            code: -32600, kind: "era_mismatch",
            message: "Invalid request: this connection negotiated MCP \(version.rawValue) with initialize; "
                + "do not send io.modelcontextprotocol/protocolVersion in params._meta.")
    }

    /// `UnsupportedProtocolVersionError` (2026-07-28).
    static func unsupported(_ requested: String) -> RPCError {
        RPCError(
            code: -32022, kind: "unsupported_protocol_version",
            message: "Unsupported protocol version \(requested); per-request _meta needs 2026-07-28, "
                + "earlier versions are served after initialize.",
            details: ["supported": ["2026-07-28"], "requested": .string(requested)])
    }

    /// A resource URI weatherd does not serve.
    static func resourceNotFound(_ uri: String, version: MCPVersion) -> RPCError {
        RPCError(
            code: version.resourceNotFoundCode, kind: "resource_not_found",
            message: "Resource not found: \(uri). Read weather://favorites, weather://alerts, "
                + "weather://current/{place} or weather://forecast/{place}.",
            details: ["uri": .string(uri)])
    }

    /// A tool name weatherd does not have.
    static func unknownTool(_ name: String) -> RPCError {
        RPCError(
            code: -32602, kind: "unknown_tool", message: "Unknown tool: \(name). Call tools/list for the tools.")
    }
}
