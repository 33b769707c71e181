import WeatherDomain
import WeatherEngine

/// How a call of a method begins, whichever face it came by: its params are checked against the method's, a
/// change's `commandId` is taken as its id (a repeat is answered from the first, one reused for something
/// else is refused), then the method's first phase runs. JSON-RPC (`RPCServer`) and the HTTP face
/// (`HTTPMethods`, whose `Idempotency-Key` is a `commandId`) share it, and with it the engine's one registry of
/// command ids.
package struct MethodDispatch: Sendable {
    private let methods: [String: MethodHandler]
    private let registry: CommandRegistry
    private let logger: Logger

    package init(methods: [String: MethodHandler], registry: CommandRegistry, logger: Logger) {
        self.methods = methods
        self.registry = registry
        self.logger = logger
    }

    /// Whether `method` is known and changes state (and so takes a `commandId`).
    package func changesState(_ method: String) -> Bool { methods[method]?.changesState ?? false }

    /// Begins `method` with `params` (an object, or absent): the first phase, in the caller's order; the
    /// `Completion` it gives finishes the call. `cause` is recorded on the events it writes.
    package func begin(_ method: String, params: JSONValue?, id: JSONValue?, cause: String) async -> Result<
        Completion<JSONValue>, RPCError
    > {
        guard let handler = methods[method] else { return .failure(.methodNotFound(method)) }
        let reader: FieldReader
        let corr: String?
        do {
            if case .array? = params { throw FieldError(path: "params", problem: "must be an object") }
            reader = try FieldReader(params, path: "params", allowAbsent: true)
            var allowed = handler.params.union(["_meta"])
            if handler.changesState { allowed.insert("commandId") }
            try reader.rejectUnknown(allowed)
            corr = handler.changesState ? try reader.nonEmptyString("commandId") : nil
        } catch let error as FieldError {
            return .failure(.invalidParams(error))
        } catch {
            return .failure(.internalError)
        }
        let call = MethodCall(id: id, params: reader, cause: cause, corr: corr)
        guard let corr else { return await begin(handler, call) }
        var repeated = params?.objectValue ?? [:]
        repeated["commandId"] = nil
        repeated["_meta"] = nil
        switch registry.start(corr, method: method, params: .object(repeated)) {
        case .conflict(let error): return .failure(RPCError(error))
        case .done(let result): return .success(Completion { result })
        case .wait(let outcome): return .success(Completion { try await outcome.value().get() })
        case .run:
            let begun = await begin(handler, call)
            guard case .success(let completion) = begun else {
                if case .failure(let error) = begun { registry.finish(corr, with: .failure(error)) }
                return begun
            }
            // The commandId's outcome is recorded before the answer goes out, so a repeat sent after it
            // finds it.
            let record: @Sendable (DurableAnswer<JSONValue>.Outcome) -> Void = { [registry] outcome in
                registry.finish(corr, with: outcome.mapError { self.wireError($0, method: "commandId \(corr)") })
            }
            if let durable = completion.durable { return .success(Completion(durable.before(record))) }
            return .success(
                Completion {
                    do {
                        let result = try await completion()
                        record(.success(result))
                        return result
                    } catch {
                        record(.failure(error))
                        throw error
                    }
                })
        }
    }

    /// The result of `completion`, its failure as the face answers it.
    package func complete(_ completion: Completion<JSONValue>, method: String) async -> Result<JSONValue, RPCError> {
        do {
            return .success(try await completion())
        } catch {
            return .failure(wireError(error, method: method))
        }
    }

    /// `error` as the face answers it (an unexpected one is logged and answered as an internal error).
    package func wireError(_ error: any Error, method: String) -> RPCError {
        RPCError.wire(error, method: method, logger: logger)
    }

    private func begin(_ handler: MethodHandler, _ call: MethodCall) async -> Result<Completion<JSONValue>, RPCError> {
        do {
            return .success(try await handler.begin(call))
        } catch {
            return .failure(wireError(error, method: call.cause))
        }
    }
}
