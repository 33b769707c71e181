import Dispatch
import Foundation
import Synchronization
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where protocol lines go: standard output in the service, a collector in tests.
package protocol LineSink: Sendable {
    /// Queues one whole line (without its newline).
    func send(_ line: [UInt8])

    /// Returns once the sink has room for more unrequested lines (at once for a sink without a bound).
    func room() async
}

extension LineSink {
    package func room() async {}
}

/// The one writer of standard output.
///
/// Lines are queued whole, each its own array (a backed-up queue never reallocates one large buffer), and
/// written by a dedicated thread, which coalesces whatever is queued into writes of up to 256 KiB, so no line
/// is ever interleaved with another. A closed pipe (EPIPE; SIGPIPE is
/// ignored) means the client is gone: `onClosed` is called once and further lines are dropped.
///
/// The queue is bounded by `limit` bytes through its producers rather than by dropping answers: while
/// more than `limit` bytes wait, the input thread stops reading (`waitForRoom`) and subscriptions stop
/// pushing (`room`), so a client that stops reading holds weatherd's memory at about `limit` plus the
/// answers of the requests already read.
///
/// With `overflow: .cut` (for one connection of many) a line that would take the queue past `limit` cuts
/// the connection instead: the socket is shut down, queued and later lines are dropped and `onClosed` is
/// called once, so a client that stops reading never holds up the others. On a socket, lines are written
/// with `send` and `MSG_NOSIGNAL`, so a closed peer is an error, never a SIGPIPE.
package final class StandardOutput: LineSink {
    /// What a line that would take the queue past `limit` does.
    package enum Overflow: Sendable {
        /// It is queued; producers wait (`waitForRoom`, `room`) until the queue drains below `limit`.
        case wait
        /// The connection is cut (`cut`); `room` and `waitForRoom` never wait. A single line larger than `limit`
        /// still passes an empty queue.
        case cut
    }

    private struct State {
        var lines: [[UInt8]] = []
        /// Bytes queued or being written.
        var pending = 0
        var writing = false
        var closed = false
        var stopping = false
    }

    private let fd: Int32
    /// The queued bytes above which producers wait (or, with `.cut`, the connection is cut).
    package let limit: Int
    /// What happens past `limit`.
    package let overflow: Overflow
    /// Whether `fd` is a socket, written with `send` so a closed peer raises no SIGPIPE.
    private let isSocket: Bool
    private let state = Mutex(State())
    /// Tasks waiting for room (`room`) and for everything queued to be written (`flush`).
    private let roomWaits = WaitQueue<Void>()
    private let flushWaits = WaitQueue<Void>()
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled whenever the queue falls below `limit` (or closes), for the input thread.
    private let roomCondition = NSCondition()
    private let onClosed: @Sendable () -> Void

    /// Creates the writer for `fd` (1 by default); lines queue up until `run` starts writing them.
    package init(
        fd: Int32 = 1, limit: Int = 16 << 20, overflow: Overflow = .wait, onClosed: @escaping @Sendable () -> Void
    ) {
        self.fd = fd
        self.limit = limit
        self.overflow = overflow
        self.onClosed = onClosed
        isSocket = UnixSocket.isSocket(fd)
        if isSocket { UnixSocket.preventSIGPIPE(fd) }
    }

    /// Whether more lines may be queued without passing the bound.
    private func hasRoom(_ state: State) -> Bool { state.closed || overflow == .cut || state.pending < limit }

    /// Blocks the calling thread (never an async task) while the queue is over its bound.
    package func waitForRoom() {
        roomCondition.lock()
        defer { roomCondition.unlock() }
        while !state.withLock({ hasRoom($0) }) { roomCondition.wait() }
    }

    package func room() async { _ = await roomWaits.wait { state.withLock { hasRoom($0) } ? () : nil } }

    /// Wakes everything waiting for room, once there is room.
    private func announceRoom() {
        if state.withLock({ hasRoom($0) }) { roomWaits.resumeAll(()) }
        roomCondition.lock()
        roomCondition.broadcast()
        roomCondition.unlock()
    }

    /// Writes lines on a dedicated thread until `finish`; everything queued before it is written.
    package func run() async {
        await onOwnThread(named: "weatherd-stdout") { [self] in loop() }
    }

    /// Ends `run` once everything queued is written.
    package func finish() {
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    package func send(_ line: [UInt8]) {
        var overflowed = false
        let signal = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            if overflow == .cut, state.pending > 0, state.pending + line.count + 1 > limit {
                overflowed = true
                return false
            }
            state.lines.append(line)
            state.pending += line.count + 1
            return !state.writing
        }
        if overflowed { cut() }
        if signal { wake.signal() }
    }

    /// Cuts the connection: shuts the socket down (its reader sees end of input, the peer end of file),
    /// drops what is queued and calls `onClosed` once. The descriptor stays open until its owner closes it
    /// (after `run` returns).
    package func cut() {
        _ = shutdown(fd, Int32(SHUT_RDWR))
        close()
    }

    /// Waits until everything queued so far is written (or the pipe is closed).
    package func flush() async {
        let flushed = { self.state.withLock { $0.closed || ($0.lines.isEmpty && !$0.writing) } }
        guard !flushed() else { return }
        wake.signal()
        _ = await flushWaits.wait(ignoringCancellation: true) { flushed() ? () : nil }
    }

    /// The most bytes coalesced into one write (a longer line is written alone).
    private static let chunkBytes = 256 << 10

    private func loop() {
        var batch: [[UInt8]] = []
        var chunk: [UInt8] = []
        chunk.reserveCapacity(Self.chunkBytes)
        while true {
            wake.wait()
            var stop = false
            while true {
                let idle = state.withLock { state -> Bool in
                    if state.lines.isEmpty || state.closed {
                        state.writing = false
                        stop = state.stopping
                        return true
                    }
                    swap(&batch, &state.lines)
                    state.writing = true
                    return false
                }
                if idle {
                    flushWaits.resumeAll(())
                    break
                }
                writeLines(batch, through: &chunk)
                batch.removeAll(keepingCapacity: true)
            }
            if stop { return }
        }
    }

    /// Writes `lines` in chunks of up to `chunkBytes`, giving each chunk's room back as it is written; closes
    /// the queue once a write fails.
    private func writeLines(_ lines: [[UInt8]], through chunk: inout [UInt8]) {
        func writeChunk() -> Bool {
            let written = writeAll(chunk)
            if written { state.withLock { if !$0.closed { $0.pending -= chunk.count } } }
            chunk.removeAll(keepingCapacity: chunk.capacity <= 2 * Self.chunkBytes)
            announceRoom()
            return written
        }
        for line in lines {
            if !chunk.isEmpty, chunk.count + line.count + 1 > Self.chunkBytes, !writeChunk() { return close() }
            chunk.append(contentsOf: line)
            chunk.append(UInt8(ascii: "\n"))
        }
        if !chunk.isEmpty, !writeChunk() { close() }
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        Descriptor.writeAll(fd, bytes, using: isSocket ? .send(flags: UnixSocket.sendFlags) : .write) == nil
    }

    private func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            state.lines.removeAll()
            state.pending = 0
            return !state.closed
        }
        announceRoom()
        if first { onClosed() }
    }
}
