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
/// output and a connection to the daemon.
///
/// Two dedicated threads do the blocking I/O, each with blocking writes so backpressure passes through: one
/// reads input lines and sends them to the daemon, one reads daemon lines and writes them to the output. The
/// relay keeps the ids of the requests it forwarded (see `RelayLines`) until their answers pass, so that:
///
/// - at end of input it half-closes the socket and keeps relaying until the daemon, having answered
///   everything, closes the connection, or until `deadline` has passed since the input ended;
/// - when the daemon closes (or dies, or `deadline` passes) with requests unanswered, the client gets one
///   `daemon_gone` error per request instead of silence.
///
/// Lines over `maxLineBytes` are answered locally, as the daemon would, and not sent.
package final class Relay: Sendable {
    /// How long to wait for the daemon after the input ends: 30 s of upstream deadline and a margin.
    package static let defaultDeadline: Duration = .seconds(35)

    private let socket: Int32
    private let input: Int32
    private let output: LockedWriter
    private let maxLineBytes: Int
    private let deadline: Duration
    private let logger: Logger
    /// A socket pair that wakes the daemon-side thread's `poll` (end of input, `stop`).
    private let wake: (signal: Int32, wait: Int32)
    private let state = Mutex(State())

    private struct State {
        var pending = PendingAnswers()
        /// When the input ended, on the runtime's monotonic clock (nanoseconds); nil while it lasts.
        var inputEnded: UInt64?
        /// Set once the relay has decided its outcome: nothing more is sent to the daemon.
        var finished = false
        var stopped = false
        /// Threads still using `socket` and `wake`; the last one closes them.
        var users = 2
    }

    /// Why the daemon-side thread stopped relaying.
    private enum Ending {
        case daemonClosed, deadlinePassed, stopped, outputClosed
    }

    /// A relay over `socket`, a connected stream socket it takes over (and closes when done).
    ///
    /// - Parameters:
    ///   - maxLineBytes: the longest input line sent on; the daemon's `--max-line-bytes`.
    ///   - deadline: how long to keep waiting for answers once the input has ended.
    ///   - logger: where the relay explains an unusual ending.
    /// - Throws: `SocketError` when its wake-up socket pair cannot be made.
    package init(
        socket: Int32, input: Int32 = 0, output: Int32 = 1, maxLineBytes: Int,
        deadline: Duration = Relay.defaultDeadline, logger: Logger
    ) throws(SocketError) {
        self.socket = socket
        self.input = input
        self.output = LockedWriter(fd: output)
        self.maxLineBytes = maxLineBytes
        self.deadline = deadline
        self.logger = logger
        wake = try UnixSocket.pair()
        UnixSocket.setNonBlocking(wake.wait, true)
        UnixSocket.preventSIGPIPE(socket)
    }

    /// Relays until the daemon closes the connection, the deadline passes after the end of input, the output
    /// closes or `stop` is called.
    ///
    /// - Returns: the exit code: 0 when every forwarded request was answered (and the daemon did not close
    ///   before the input ended), 1 otherwise.
    package func run() async -> Int32 {
        // The input side blocks on standard input, which nothing can interrupt: it is not waited for.
        startThread(named: "weatherd-relay-in") { [self] in
            forwardInput()
            release()
        }
        return await onOwnThread(named: "weatherd-relay-out") { [self] in
            let code = finish(forwardDaemonLines())
            release()
            return code
        }
    }

    /// Ends the relay at once (on SIGTERM): shuts the socket down, so the daemon cancels this connection's
    /// requests, and makes `run` return. Unanswered requests get no answer.
    package func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            guard state.users > 0 else { return }
            _ = shutdown(socket, Int32(SHUT_RDWR))
            signalWake()
        }
    }

    /// Wakes the daemon-side thread; call it holding the lock while `users > 0`.
    private func signalWake() {
        var byte: UInt8 = 1
        _ = UnixSocket.send(wake.signal, &byte, 1)
    }

    /// Drops one user of the descriptors, closing them after the last.
    private func release() {
        state.withLock { state in
            state.users -= 1
            guard state.users == 0 else { return }
            for fd in [socket, wake.signal, wake.wait] { UnixSocket.closeDescriptor(fd) }
        }
    }

    // MARK: Input to daemon

    /// Reads input lines and sends them to the daemon, each read's lines in one `send`; half-closes the
    /// socket at end of input.
    private func forwardInput() {
        var splitter = LineSplitter(maxLineBytes: maxLineBytes)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var lines = RelayInput(maxLineBytes: maxLineBytes)
        while true {
            let count = buffer.withUnsafeMutableBytes { Descriptor.read(input, into: $0) }
            if count <= 0 { break }
            buffer.withUnsafeBytes { raw in
                splitter.feed(UnsafeRawBufferPointer(rebasing: raw[..<count])) { lines.take($0) }
            }
            guard flush(&lines) else { return }
        }
        splitter.finish { lines.take($0) }
        guard flush(&lines) else { return }
        state.withLock { state in
            guard !state.finished, !state.stopped else { return }
            state.inputEnded = monotonicNanoseconds()
            _ = shutdown(socket, Int32(SHUT_WR))
            signalWake()
        }
    }

    /// Sends what the last read completed: writes the local answers to the output, then records the answers
    /// the lines will get and sends the lines to the daemon in one `send`; empties `lines`. False once the
    /// relay is over.
    private func flush(_ lines: inout RelayInput) -> Bool {
        if !lines.local.isEmpty {
            _ = lines.local.withUnsafeBytes { output.writeAll($0) }
            lines.local.removeAll(keepingCapacity: true)
        }
        guard !lines.outgoing.isEmpty else { return !state.withLock { $0.finished || $0.stopped } }
        let open = state.withLock { state -> Bool in
            guard !state.finished, !state.stopped else { return false }
            for answer in lines.expected { state.pending.add(answer) }
            for id in lines.silenced { state.pending.remove(id) }
            return true
        }
        lines.expected.removeAll(keepingCapacity: true)
        lines.silenced.removeAll()
        // A failed send means the daemon is gone; the other thread sees it too and answers what is pending.
        let sent = open && lines.outgoing.withUnsafeBytes { UnixSocket.sendAll(socket, $0) }
        lines.outgoing.removeAll(keepingCapacity: lines.outgoing.count <= 1 << 20)
        return sent
    }

    // MARK: Daemon to output

    /// Writes daemon lines to the output, whole lines at a time, until the relay ends; says why it ended.
    private func forwardDaemonLines() -> Ending {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var carry: [UInt8] = []
        var fds = [
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.wait, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let (stopped, ended) = state.withLock { ($0.stopped, $0.inputEnded) }
            if stopped { return .stopped }
            var timeout: Int32 = -1
            if let ended {
                let (seconds, attoseconds) = deadline.components
                let end = ended &+ UInt64(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                let now = monotonicNanoseconds()
                if now >= end { return .deadlinePassed }
                timeout = Int32(clamping: (end - now) / 1_000_000 + 1)
            }
            fds[0].revents = 0
            fds[1].revents = 0
            if poll(&fds, 2, timeout) < 0, errno != EINTR { return .daemonClosed }
            if fds[1].revents != 0 {
                // Drained to empty: the wake pipe is non-blocking, so this read never waits.
                while buffer.withUnsafeMutableBytes({ read(wake.wait, $0.baseAddress!, $0.count) }) > 0 {}
            }
            guard fds[0].revents != 0 else { continue }
            if state.withLock({ $0.stopped }) { return .stopped }
            let count = buffer.withUnsafeMutableBytes { Descriptor.read(socket, into: $0) }
            if count <= 0 {
                if !carry.isEmpty { logger.warning("the daemon's last line was cut off; it was dropped") }
                return .daemonClosed
            }
            let written = buffer.withUnsafeBytes { raw in
                relay(UnsafeRawBufferPointer(rebasing: raw[..<count]), carry: &carry)
            }
            if !written { return .outputClosed }
        }
    }

    /// Writes the whole lines of `chunk` (after the start of a line in `carry`) and settles the answers among
    /// them; keeps the rest in `carry`. False once the output is closed.
    private func relay(_ chunk: UnsafeRawBufferPointer, carry: inout [UInt8]) -> Bool {
        guard let last = chunk.lastIndex(of: UInt8(ascii: "\n")) else {
            carry.append(contentsOf: chunk)
            return true
        }
        let whole = UnsafeRawBufferPointer(rebasing: chunk[...last])
        let rest = UnsafeRawBufferPointer(rebasing: chunk[(last + 1)...])
        let written: Bool
        var answered: [JSONValue] = []
        if carry.isEmpty {
            answered = Self.answers(in: whole)
            written = output.writeAll(whole)
        } else {
            carry.append(contentsOf: whole)
            written = carry.withUnsafeBytes { lines in
                answered = Self.answers(in: lines)
                return output.writeAll(lines)
            }
            carry.removeAll(keepingCapacity: carry.count <= 1 << 20)
        }
        carry.append(contentsOf: rest)
        guard written else { return false }
        if !answered.isEmpty { state.withLock { state in for id in answered { state.pending.remove(id) } } }
        return true
    }

    /// The ids answered by the newline-terminated lines of `lines`.
    private static func answers(in lines: UnsafeRawBufferPointer) -> [JSONValue] {
        var ids: [JSONValue] = []
        var start = 0
        while let newline = lines[start...].firstIndex(of: UInt8(ascii: "\n")) {
            ids.append(contentsOf: RelayLines.answeredIDs(UnsafeRawBufferPointer(rebasing: lines[start..<newline])))
            start = newline + 1
        }
        return ids
    }

    // MARK: Ending

    /// Settles the outcome: answers what the daemon left unanswered and picks the exit code.
    private func finish(_ ending: Ending) -> Int32 {
        let (pending, inputEnded) = state.withLock { state in
            state.finished = true
            return (state.pending.takeAll(), state.inputEnded != nil)
        }
        if ending != .stopped { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        switch ending {
        case .daemonClosed where !pending.isEmpty, .deadlinePassed where !pending.isEmpty:
            let error = ending == .daemonClosed ? RPCError.daemonGone : RPCError.daemonSilent(after: deadline)
            var lines: [UInt8] = []
            for answer in pending {
                RPCLine.error(id: answer.id, idText: answer.idText, error, into: &lines)
                lines.append(UInt8(ascii: "\n"))
            }
            _ = lines.withUnsafeBytes { output.writeAll($0) }
            logger.error(
                ending == .daemonClosed
                    ? "the daemon closed the connection with \(pending.count) request(s) unanswered"
                    : "the daemon left \(pending.count) request(s) unanswered \(deadline) after the input ended")
            return 1
        case .daemonClosed where !inputEnded:
            logger.error("the daemon closed the connection before the input ended; run the command again")
            return 1
        case .outputClosed:
            logger.debug("standard output is closed; the relay stops")
            return pending.isEmpty ? 0 : 1
        default:
            return pending.isEmpty ? 0 : 1
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

/// Writes runs of whole lines to one descriptor from several threads, one run at a time, with blocking writes.
final class LockedWriter: Sendable {
    private let fd: Int32
    /// Set once a write has failed: the reader is gone and later writes are skipped.
    private let broken = Mutex(false)

    init(fd: Int32) { self.fd = fd }

    /// Writes all of `bytes`; false when the descriptor is closed at the other end.
    func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        broken.withLock { broken in
            guard !broken else { return false }
            // A non-blocking descriptor inherited from the client is waited on until it drains.
            guard Descriptor.writeAll(fd, bytes) == nil else {
                broken = true
                return false
            }
            return true
        }
    }
}
