import WeatherDomain
import WeatherEngine

/// The engine's JSON-RPC methods that need no connection of their own (`connectionlessControllers`), called
/// in-process by the HTTP face: the same handlers, the same params and the
/// same errors as on the socket.
package struct HTTPMethods: Sendable {
    private let methods: [String: MethodHandler]
    private let logger: Logger

    package init(engine: Engine) {
        methods = methodTable(connectionlessControllers(engine))
        logger = engine.logger
    }

    /// The result of `method` with `params`, as JSON-RPC would answer it.
    ///
    /// - Throws: `RPCError`, as JSON-RPC would answer it (unknown params are refused as there).
    package func call(_ method: String, _ params: [String: JSONValue]) async throws(RPCError) -> JSONValue {
        guard let handler = methods[method] else { throw .methodNotFound(method) }
        do {
            let reader = try FieldReader(.object(params), path: "params")
            try reader.rejectUnknown(handler.params)
            let call = MethodCall(id: nil, params: reader, cause: "http/" + method, corr: nil)
            return try await handler.begin(call)()
        } catch {
            throw RPCError.wire(error, method: method, logger: logger)
        }
    }
}
