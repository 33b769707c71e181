import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime

/// One MCP session over HTTP: a `Connection` of its own (its negotiated version, subscriptions and request ids),
/// whose answers go back to the POSTs that asked and whose notifications go to the session's `GET` stream.
final class MCPHTTPSession: Sendable {
    /// `Mcp-Session-Id`: 32 random hex digits, the session's only name.
    let id: String
    let connection: Connection
    private let sink: SessionSink

    init(engine: Engine, id: String, label: String) {
        self.id = id
        sink = SessionSink()
        connection = Connection(engine: engine, label: label, sink: sink, maxLineBytes: 1 << 20)
    }

    /// The answer line to the request `line` whose id is `id` (nil when the connection ended it unanswered).
    func call(_ line: [UInt8], id: JSONValue) async -> [UInt8]? {
        let answer = sink.expect(id)
        await connection.server.receive(.line(line))
        return await answer.waitUnlessCancelled() ?? nil
    }

    /// Hands a notification or a response to the connection; nothing is answered.
    func deliver(_ line: [UInt8]) async {
        await connection.server.receive(.line(line))
    }

    /// Ends the session: its requests in flight are cancelled, its subscriptions and stream end.
    func end() async {
        sink.close()
        await connection.finish(grace: .zero, cutShort: [])
    }

    /// Writes the session's notifications to `send` as they come, until cancelled; false when another stream
    /// is open already.
    func stream(_ send: @escaping @Sendable ([UInt8]) async -> Bool) async -> Bool {
        await sink.stream(send)
    }

    /// Whether a `GET` stream is open.
    var isStreaming: Bool { sink.isStreaming }
}

/// Where a session's connection writes: an answer goes to the POST waiting for its id, anything else (a
/// notification, a request of the server's) to the open `GET` stream, or nowhere when none is open.
private final class SessionSink: LineSink {
    private struct State {
        var waiting: [JSONValue: Promise<[UInt8]?>] = [:]
        var queued: [[UInt8]] = []
        var streaming = false
        var closed = false
    }

    /// The most notifications queued for a stream that is not taking them; past it the oldest are dropped.
    static let maxQueued = 1_000

    private let state = Mutex(State())
    private let arrivals = WaitQueue<Void>()

    var isStreaming: Bool { state.withLock { $0.streaming } }

    func expect(_ id: JSONValue) -> Promise<[UInt8]?> {
        let promise = Promise<[UInt8]?>()
        state.withLock { $0.waiting[id] = promise }
        return promise
    }

    func send(_ line: [UInt8]) {
        let message = try? JSONValue.parse(line)
        let isAnswer = message?["method"] == nil && (message?["result"] != nil || message?["error"] != nil)
        if isAnswer, let id = message?["id"], let waiter = state.withLock({ $0.waiting.removeValue(forKey: id) }) {
            waiter.fulfill(line)
            return
        }
        let queued = state.withLock { state -> Bool in
            guard state.streaming else { return false }
            state.queued.append(line)
            if state.queued.count > Self.maxQueued { state.queued.removeFirst() }
            return true
        }
        if queued { arrivals.resumeAll(()) }
    }

    func close() {
        let waiting = state.withLock { state -> [Promise<[UInt8]?>] in
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in waiting { waiter.fulfill(nil) }
        arrivals.resumeAll(())
    }

    func stream(_ send: @escaping @Sendable ([UInt8]) async -> Bool) async -> Bool {
        let opened = state.withLock { state -> Bool in
            guard !state.streaming, !state.closed else { return false }
            state.streaming = true
            return true
        }
        guard opened else { return false }
        defer {
            state.withLock {
                $0.streaming = false; $0.queued = []
            }
        }
        while !Task.isCancelled {
            let woke: Void? = await arrivals.wait {
                state.withLock { $0.closed || !$0.queued.isEmpty } ? () : nil
            }
            let lines: [[UInt8]]? = state.withLock { state in
                defer { state.queued = [] }
                return woke == nil || state.closed ? nil : state.queued
            }
            guard let lines, !lines.isEmpty else { return true }
            for line in lines where !(await send(line)) { return true }
        }
        return true
    }
}
