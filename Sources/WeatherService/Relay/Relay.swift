import Foundation
import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The client side of the shared daemon: carries one client's JSON-RPC lines between its standard input and
/// output and a connection to the daemon, on an event loop (a relay's only thread is the one that runs it).
///
/// Backpressure passes through: while the daemon does not take what the client sent, the input is not read;
/// while the client does not read its output, the daemon's lines are not read. The relay keeps the ids of the
/// requests it forwarded (see `RelayLines`) until their answers pass, so that:
///
/// - at end of input it half-closes the socket and keeps relaying until the daemon, having answered
///   everything, closes the connection, or until `deadline` has passed on the clock since the input ended;
/// - when the daemon closes (or dies, or `deadline` passes) with requests unanswered, the client gets one
///   `daemon_gone` error per request instead of silence.
///
/// Lines over `maxLineBytes` are answered locally, as the daemon would, and not sent.
package final class Relay: Sendable {
    /// How long to wait for the daemon after the input ends: 30 s of upstream deadline and a margin.
    package static let defaultDeadline: Duration = .seconds(35)
    /// Bytes queued for one side above which the other side is not read.
    private static let highWater = 1 << 20

    private let socket: Channel
    private let input: Channel
    private let output: Channel
    private let maxLineBytes: Int
    private let deadline: Duration
    private let logger: Logger
    private let clock: any RuntimeClock
    private let state: Mutex<State>
    private let done = Promise<Int32>()

    private struct State {
        var pending = PendingAnswers()
        var splitter: LineSplitter
        var lines: RelayInput
        /// The start of a daemon line whose end has not come yet.
        var carry: [UInt8] = []
        var inputEnded = false
        var timer: LoopTimer?
        /// Set once the relay has decided its outcome: nothing more is relayed.
        var finished = false
        var onDone: (@Sendable (Int32) -> Void)?
        /// Told the daemon's `service/status`, asked before anything of the client's; nil once told.
        var statusCheck: (@Sendable (JSONValue?) -> Void)?
    }

    /// Why the relay ended.
    private enum Ending {
        case daemonClosed, deadlinePassed, stopped, outputClosed
    }

    /// A relay over `socket`, a connected stream socket it takes over (and closes when done).
    ///
    /// - Parameters:
    ///   - maxLineBytes: the longest input line sent on; the daemon's `--max-line-bytes`.
    ///   - deadline: how long to keep waiting for answers once the input has ended, on `runtime`'s clock.
    ///   - logger: where the relay explains an unusual ending.
    /// - Throws: `SystemError` when a descriptor cannot be served by the loop.
    package init(
        socket: Int32, input: Int32 = 0, output: Int32 = 1, maxLineBytes: Int,
        deadline: Duration = Relay.defaultDeadline, logger: Logger, clock: any RuntimeClock, loop: EventLoop
    ) throws(SystemError) {
        UnixSocket.preventSIGPIPE(socket)
        self.socket = try Channel(loop: loop, fd: socket, owned: true, lowWater: Self.highWater / 2)
        self.input = try Channel(loop: loop, fd: input, owned: false, direction: .read)
        self.output = try Channel(loop: loop, fd: output, owned: false, direction: .write, lowWater: Self.highWater / 2)
        self.maxLineBytes = maxLineBytes
        self.deadline = deadline
        self.logger = logger
        self.clock = clock
        state = Mutex(
            State(splitter: LineSplitter(maxLineBytes: maxLineBytes), lines: RelayInput(maxLineBytes: maxLineBytes)))
    }

    /// Starts relaying on the loop; `onDone` gets the exit code once the relay has ended and its last lines are
    /// written: 0 when every forwarded request was answered (and the daemon did not close before the input
    /// ended), 1 otherwise.
    ///
    /// With `statusCheck`, the relay first asks the daemon for its `service/status` (whose answer it keeps
    /// from the client) and tells `statusCheck` the result (nil when the daemon said nothing of it).
    package func start(
        statusCheck: (@Sendable (JSONValue?) -> Void)? = nil, onDone: @escaping @Sendable (Int32) -> Void
    ) {
        if let statusCheck {
            state.withLock { $0.statusCheck = statusCheck }
            socket.write(
                Array(#"{"jsonrpc":"2.0","id":"\#(DaemonSettings.checkID)","method":"service/status"}"#.utf8) + [0x0A])
        }
        socket.onOutput { [self] event in
            switch event {
            case .room: input.resumeReading()
            case .failed:
                // The daemon is gone or refused the connection, but what it sent before (a `peer_refused` or
                // `too_many_connections` line) may still wait to be read: the read side's end finishes the relay.
                break
            }
        }
        output.onOutput { [self] event in
            switch event {
            case .room: socket.resumeReading()
            case .failed: finish(.outputClosed)
            }
        }
        output.onHangup { [self] in finish(.outputClosed) }
        socket.startReading { [self] event in fromDaemon(event) }
        input.startReading { [self] event in fromClient(event) }
        state.withLock { $0.onDone = onDone }
    }

    /// Relays until the daemon closes the connection, the deadline passes after the end of input, the output
    /// closes or `stop` is called; returns the exit code (see `start`).
    package func run() async -> Int32 {
        start { _ in }
        return await done.wait()
    }

    /// Ends the relay at once (on SIGTERM): shuts the socket down, so the daemon cancels this connection's
    /// requests. Unanswered requests get no answer.
    package func stop() {
        socket.loop.executeSoon { [self] in finish(.stopped) }
    }

    // MARK: Client to daemon

    /// Input from the client (on the loop's thread): local answers to the output, whole lines to the daemon.
    private func fromClient(_ event: Channel.Input) {
        let (local, outgoing, ended) = state.withLock { state -> ([UInt8], [UInt8], Bool) in
            guard !state.finished else { return ([], [], false) }
            switch event {
            case .bytes(let bytes): state.splitter.feed(bytes) { state.lines.take($0) }
            case .end:
                state.splitter.finish { state.lines.take($0) }
                state.inputEnded = true
            }
            for answer in state.lines.expected { state.pending.add(answer) }
            for id in state.lines.silenced { state.pending.remove(id) }
            defer {
                state.lines.local.removeAll(keepingCapacity: true)
                state.lines.outgoing.removeAll(keepingCapacity: state.lines.outgoing.count <= 1 << 20)
                state.lines.expected.removeAll(keepingCapacity: true)
                state.lines.silenced.removeAll()
            }
            return (state.lines.local, state.lines.outgoing, state.inputEnded)
        }
        if !local.isEmpty { output.write(local) }
        if !outgoing.isEmpty {
            // A failed send means the daemon is gone: the socket's own report ends the relay.
            socket.write(outgoing)
            if socket.unwrittenBytes > Self.highWater { input.pauseReading() }
        }
        guard ended else { return }
        socket.shutdownOutputWhenFlushed()
        let timer = clock.schedule(at: clock.now.advanced(by: deadline), on: socket.loop) { [self] in
            finish(.deadlinePassed)
        }
        state.withLock { $0.timer = timer }
    }

    // MARK: Daemon to client

    /// Lines from the daemon (on the loop's thread): whole lines to the output, settling the answers among them.
    private func fromDaemon(_ event: Channel.Input) {
        guard case .bytes(let chunk) = event else {
            if !state.withLock({ $0.carry.isEmpty }) {
                logger.warning("the daemon's last line was cut off; it was dropped")
            }
            return finish(.daemonClosed)
        }
        let (whole, status) = state.withLock { state -> ([UInt8], (@Sendable (JSONValue?) -> Void, JSONValue?)?) in
            guard !state.finished else { return ([], nil) }
            guard let last = chunk.lastIndex(of: UInt8(ascii: "\n")) else {
                state.carry.append(contentsOf: chunk)
                return ([], nil)
            }
            var lines = state.carry
            lines.append(contentsOf: chunk[...last])
            state.carry = Array(chunk[(last + 1)...])
            let checking = state.statusCheck != nil
            var status: (@Sendable (JSONValue?) -> Void, JSONValue?)?
            var kept: [UInt8] = []
            lines.withUnsafeBytes { raw in
                var start = 0
                while let newline = raw[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = UnsafeRawBufferPointer(rebasing: raw[start..<newline])
                    var isStatus = false
                    for id in RelayLines.answeredIDs(line) {
                        if id == .string(DaemonSettings.checkID), let check = state.statusCheck {
                            // The status answer is the relay's own: the client does not get it.
                            state.statusCheck = nil
                            status = (check, Self.result(of: line))
                            isStatus = true
                        } else {
                            state.pending.remove(id)
                        }
                    }
                    if checking, !isStatus { kept.append(contentsOf: raw[start...newline]) }
                    start = newline + 1
                }
            }
            return (checking ? kept : lines, status)
        }
        if let (check, result) = status { check(result) }
        guard !whole.isEmpty else { return }
        output.write(whole)
        if output.unwrittenBytes > Self.highWater { socket.pauseReading() }
    }

    /// The `result` of an answer line.
    private static func result(of line: UnsafeRawBufferPointer) -> JSONValue? {
        (try? JSONValue.parseMembers(line, keeping: ["result"], maxDepth: 1024))?["result"]
    }

    // MARK: Ending

    /// Settles the outcome once (on the loop's thread): answers what the daemon left unanswered, picks the exit
    /// code, and reports it once the output is written.
    private func finish(_ ending: Ending) {
        let settled = state.withLock { state -> (pending: [RelayLines.Expected], inputEnded: Bool)? in
            guard !state.finished else { return nil }
            state.finished = true
            state.timer?.cancel()
            return (state.pending.takeAll(), state.inputEnded)
        }
        guard let (pending, inputEnded) = settled else { return }
        socket.shutdownBoth()
        socket.close()
        input.close()
        var code: Int32 = pending.isEmpty ? 0 : 1
        switch ending {
        case .daemonClosed where !pending.isEmpty, .deadlinePassed where !pending.isEmpty:
            let error = ending == .daemonClosed ? RPCError.daemonGone : RPCError.daemonSilent(after: deadline)
            var lines: [UInt8] = []
            for answer in pending {
                RPCLine.error(id: answer.id, idText: answer.idText, error, into: &lines)
                lines.append(UInt8(ascii: "\n"))
            }
            output.write(lines)
            logger.error(
                ending == .daemonClosed
                    ? "the daemon closed the connection with \(pending.count) request(s) unanswered"
                    : "the daemon left \(pending.count) request(s) unanswered \(deadline) after the input ended")
        case .daemonClosed where !inputEnded:
            logger.error("the daemon closed the connection before the input ended; run the command again")
            code = 1
        case .outputClosed:
            logger.debug("standard output is closed; the relay stops")
        default:
            break
        }
        let onDone = state.withLock { $0.onDone }
        output.whenFlushed { [output, done, code] in
            output.close()
            done.fulfill(code)
            onDone?(code)
        }
    }
}

extension RPCError {
    /// The answer the relay gives for a request the daemon stopped before answering.
    package static let daemonGone = RPCError(
        code: 1013, kind: "daemon_gone",
        message: "weatherd's daemon stopped before answering; the request may or may not have been carried out; "
            + "run the command again (a new daemon starts on its own)")

    /// The answer the relay gives for a request the daemon did not answer within `deadline` of the end of input.
    static func daemonSilent(after deadline: Duration) -> RPCError {
        RPCError(
            code: 1013, kind: "daemon_gone",
            message: "weatherd's daemon did not answer within \(deadline) of the end of input; the request may or "
                + "may not have been carried out; run the command again")
    }
}

/// The answers the daemon owes, by id, in the order their requests were sent.
struct PendingAnswers {
    /// For each id, the sequence numbers and texts of its outstanding requests (one id may be reused).
    private var byID: [JSONValue: [(sequence: Int, idText: [UInt8]?)]] = [:]
    private var sequence = 0
    /// How many answers are owed.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func add(_ answer: RelayLines.Expected) {
        byID[answer.id, default: []].append((sequence, answer.idText))
        sequence += 1
        count += 1
    }

    /// Settles the oldest outstanding request with `id`; an id not owed is ignored.
    mutating func remove(_ id: JSONValue) {
        guard var entries = byID[id], !entries.isEmpty else { return }
        entries.removeFirst()
        byID[id] = entries.isEmpty ? nil : entries
        count -= 1
    }

    /// Every answer owed, oldest first; empties the set.
    mutating func takeAll() -> [RelayLines.Expected] {
        let all = byID.flatMap { id, entries in entries.map { (id: id, sequence: $0.sequence, idText: $0.idText) } }
        byID = [:]
        count = 0
        return all.sorted { $0.sequence < $1.sequence }.map { RelayLines.Expected(id: $0.id, idText: $0.idText) }
    }
}
