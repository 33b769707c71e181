import WeatherDomain
import WeatherEngine

/// The engine's JSON-RPC methods that need no connection of their own (`connectionlessControllers`), called
/// in-process by the HTTP face: the same handlers, the same params, the same `commandId` registry and the same
/// errors as on the socket.
package struct HTTPMethods: Sendable {
    private let dispatch: MethodDispatch

    package init(engine: Engine) {
        dispatch = MethodDispatch(
            methods: methodTable(connectionlessControllers(engine)), registry: engine.registry, logger: engine.logger)
    }

    /// The result of `method` with `params`, as JSON-RPC would answer it. A change is given `commandId` (an
    /// `Idempotency-Key`), so that a retried change is applied once; a method that changes nothing ignores it.
    ///
    /// - Throws: `RPCError`, as JSON-RPC would answer it (unknown params are refused as there).
    package func call(_ method: String, _ params: [String: JSONValue], commandId: String? = nil)
        async throws(RPCError) -> JSONValue
    {
        var params = params
        if let commandId, dispatch.changesState(method) { params["commandId"] = .string(commandId) }
        let begun = await dispatch.begin(method, params: .object(params), id: nil, cause: "http/" + method)
        switch begun {
        case .failure(let error): throw error
        case .success(let completion): return try await dispatch.complete(completion, method: method).get()
        }
    }
}
