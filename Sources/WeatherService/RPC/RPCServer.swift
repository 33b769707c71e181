import Providers
import Synchronization
import WeatherDomain
import WeatherEngine

/// The JSON-RPC 2.0 front: parses lines, validates requests, dispatches them and answers.
///
/// `receive` is called once per input line, in arrival order, and returns as soon as the line's
/// requests have begun (params checked, changes decided and queued); their completions run
/// concurrently and answer out of order. Every request with an id is answered exactly once.
package final class RPCServer: Sendable {
    private let dispatch: MethodDispatch
    private let sink: any LineSink
    /// The longest accepted input line.
    package let maxLineBytes: Int
    private let inFlight = InFlight()
    private let onAnswered: @Sendable (JSONValue) -> Void
    /// The connection's name, the first part of every `cause` it records.
    private let label: String

    /// The deepest nesting accepted in a request.
    package static let maxDepth = 64

    package init(
        methods: [String: MethodHandler], sink: any LineSink, registry: CommandRegistry, logger: Logger,
        maxLineBytes: Int, label: String = "stdio", onAnswered: @escaping @Sendable (JSONValue) -> Void = { _ in }
    ) {
        self.label = label
        self.onAnswered = onAnswered
        dispatch = MethodDispatch(methods: methods, registry: registry, logger: logger)
        self.sink = sink
        self.maxLineBytes = maxLineBytes
    }

    /// Handles one input item; `done` is called once everything it started is answered.
    package func receive(_ item: LineSplitter.Item, done: @escaping @Sendable () -> Void = {}) async {
        inFlight.enter()
        let finish: @Sendable () -> Void = { [inFlight] in
            inFlight.leave()
            done()
        }
        switch item {
        case .tooLong:
            send(errorLine(id: .null, .lineTooLong(limit: maxLineBytes)))
            finish()
        case .line(let bytes):
            await receive(line: bytes, finish: finish)
        }
    }

    /// Waits until every request received so far is answered, or the waiting task is cancelled.
    package func drain() async { await inFlight.drain() }

    /// Waits until every request received so far is answered, even when the waiting task is cancelled.
    func drainIgnoringCancellation() async { await inFlight.drainIgnoringCancellation() }

    /// Whether every request received so far is answered.
    package var isIdle: Bool { inFlight.isIdle }

    /// Cancels every request in flight (at shutdown, after a grace period); each is answered `-32800`.
    package func cancelAll() { inFlight.cancelAll() }

    private func receive(line: [UInt8], finish: @escaping @Sendable () -> Void) async {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return finish() }
        let value: JSONValue
        do {
            value = try JSONValue.parse(line, maxDepth: Self.maxDepth)
        } catch {
            send(errorLine(id: .null, Self.error(for: error)))
            return finish()
        }
        switch value {
        case .array(let elements):
            guard !elements.isEmpty else {
                send(errorLine(id: .null, .invalidRequest("an empty batch")))
                return finish()
            }
            let batch = BatchAnswer(count: elements.count) { [sink, onAnswered] lines, ids in
                if !lines.isEmpty {
                    var out: [UInt8] = [UInt8(ascii: "[")]
                    for (index, line) in lines.enumerated() {
                        if index > 0 { out.append(UInt8(ascii: ",")) }
                        out.append(contentsOf: line)
                    }
                    out.append(UInt8(ascii: "]"))
                    sink.send(out)
                }
                for id in ids { onAnswered(id) }
                finish()
            }
            let idTexts =
                elements.contains { RPCRequest.mayBeRewritten($0["id"]) } ? JSONValue.memberTexts("id", in: line) : []
            for (index, element) in elements.enumerated() {
                let idText = index < idTexts.count ? idTexts[index] : nil
                await begin(element, idText: idText) { line, id in batch.set(index, line, id: id) }
            }
        default:
            let idText =
                RPCRequest.mayBeRewritten(value["id"]) ? JSONValue.memberTexts("id", in: line).first ?? nil : nil
            await begin(value, idText: idText) { [sink, onAnswered] line, id in
                if let line { sink.send(line) }
                if let id { onAnswered(id) }
                finish()
            }
        }
    }

    /// Begins one request and arranges for `deliver` to get its answer line (nil for a notification)
    /// and, for a successful answer, its id (so work that must follow the answer can start). A numeric id
    /// is echoed as `idText`, the client's own text of it.
    private func begin(
        _ value: JSONValue, idText: [UInt8]?, deliver: @escaping @Sendable ([UInt8]?, JSONValue?) -> Void
    ) async {
        let request: RPCRequest
        switch RPCRequest.validate(value, idText: idText) {
        case .failure(let rejection):
            return deliver(errorLine(id: rejection.id, idText: rejection.idText, rejection.error), nil)
        case .success(let valid): request = valid
        }
        let outcome = await start(request)
        let method = request.method
        let run: @Sendable () async -> Result<JSONValue, RPCError> = {
            switch outcome {
            case .failure(let error): return .failure(error)
            case .success(let completion):
                if Task.isCancelled { return .failure(.cancelled) }
                return await self.dispatch.complete(completion, method: method)
            }
        }
        guard let id = request.id else {
            if case .failure = outcome { return deliver(nil, nil) }
            Task {
                _ = await run()
                deliver(nil, nil)
            }
            return
        }
        let idText = request.idText
        if case .failure(let error) = outcome { return deliver(errorLine(id: id, idText: idText, error), nil) }
        let answer: @Sendable (Result<JSONValue, RPCError>) -> Void = { outcome in
            switch outcome {
            case .success(let result): deliver(self.resultLine(id: id, idText: idText, result), id)
            case .failure(let error): deliver(self.errorLine(id: id, idText: idText, error), nil)
            }
        }
        // A change whose answer is known is answered from where its sync completes (the log writer's thread),
        // with no task in between. Once decided it is written whatever happens, so it is not cancellable.
        if case .success(let completion) = outcome, let durable = completion.durable {
            durable.onDurable { answer($0.mapError { self.wireError($0, method: method) }) }
            return
        }
        inFlight.start(id: id) { silence in
            let outcome = await run()
            if silence.isSet { return deliver(nil, nil) }
            answer(outcome)
        }
    }

    /// The first phase: cancellation, else routing, params, `commandId`, and the method's `begin`.
    private func start(_ request: RPCRequest) async -> Result<Completion<JSONValue>, RPCError> {
        if request.method == "$/cancelRequest" { return cancel(request, idMember: "id", silently: false) }
        if request.method == "notifications/cancelled" { return cancel(request, idMember: "requestId", silently: true) }
        let cause = label + "/" + Self.cause(of: request.id, text: request.idText)
        return await dispatch.begin(request.method, params: request.params, id: request.id, cause: cause)
    }

    /// `$/cancelRequest` (`id`) and MCP's `notifications/cancelled` (`requestId`): cancels the running
    /// requests with that id and answers nothing of its own. The cancelled requests are answered -32800,
    /// or, `silently` (MCP's rule), not at all.
    private func cancel(_ request: RPCRequest, idMember: String, silently: Bool) -> Result<
        Completion<JSONValue>, RPCError
    > {
        guard case .object(let params)? = request.params, let id = params[idMember] else {
            return .failure(.invalidParams("params.\(idMember) is required"))
        }
        inFlight.cancel(id: id, silently: silently)
        return .success(Completion { .null })
    }

    private func wireError(_ error: any Error, method: String) -> RPCError { dispatch.wireError(error, method: method) }

    /// `rpc:<id>`: a string id as it is, a number as the client wrote it (`text`) or else in its canonical
    /// form, `rpc:null` for a null id and `rpc:-` for a notification.
    static func cause(of id: JSONValue?, text: [UInt8]? = nil) -> String {
        if let text { return "rpc:" + String(decoding: text, as: UTF8.self) }
        return switch id {
        case .string(let text)?: "rpc:\(text)"
        case .int(let number)?: "rpc:\(number)"
        case .double(let number)?: "rpc:\(number)"
        case .null?: "rpc:null"
        default: "rpc:-"
        }
    }

    static func error(for error: JSONParseError) -> RPCError {
        switch error.kind {
        case .tooDeep: .invalidRequest("nesting deeper than \(maxDepth) levels", kind: "too_deep")
        case .invalidUTF8: .parseError(error.message, kind: "invalid_utf8")
        case .byteOrderMark: .parseError("a byte order mark starts the line", kind: "byte_order_mark")
        default: .parseError(error.message)
        }
    }

    private func send(_ line: [UInt8]) { sink.send(line) }

    private func resultLine(id: JSONValue, idText: [UInt8]? = nil, _ result: JSONValue) -> [UInt8] {
        var line: [UInt8] = []
        RPCLine.result(id: id, idText: idText, result, into: &line)
        return line
    }

    private func errorLine(id: JSONValue, idText: [UInt8]? = nil, _ error: RPCError) -> [UInt8] {
        var line: [UInt8] = []
        RPCLine.error(id: id, idText: idText, error, into: &line)
        return line
    }
}

/// Collects the answers of a batch and sends them together once all are in.
private final class BatchAnswer: Sendable {
    private let state: Mutex<(lines: [[UInt8]?], ids: [JSONValue], remaining: Int)>
    private let complete: @Sendable ([[UInt8]], [JSONValue]) -> Void

    init(count: Int, complete: @escaping @Sendable ([[UInt8]], [JSONValue]) -> Void) {
        state = Mutex((Array(repeating: nil, count: count), [], count))
        self.complete = complete
    }

    func set(_ index: Int, _ line: [UInt8]?, id: JSONValue?) {
        let done = state.withLock { state -> ([[UInt8]], [JSONValue])? in
            state.lines[index] = line
            if let id { state.ids.append(id) }
            state.remaining -= 1
            return state.remaining == 0 ? (state.lines.compactMap { $0 }, state.ids) : nil
        }
        if let done { complete(done.0, done.1) }
    }
}
