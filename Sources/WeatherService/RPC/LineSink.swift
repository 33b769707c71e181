import Synchronization
import WeatherEngine
import WeatherRuntime

/// Where protocol lines go: a connection's output in the service, a collector in tests.
package protocol LineSink: Sendable {
    /// Queues one whole line (without its newline).
    func send(_ line: [UInt8])

    /// Returns once the sink has room for more unrequested lines (at once for a sink without a bound).
    func room() async
}

extension LineSink {
    package func room() async {}
}

/// A connection's output of protocol lines: standard output, or a socket.
///
/// A line is written at once from the thread that sends it (the log writer's, after the sync that makes a change
/// durable; a task's, for a read) whenever the descriptor takes it, so an answer costs no hand-off to another
/// thread; what the descriptor does not take is queued on the channel and written by the event loop. Lines are
/// never interleaved: each is one write of its bytes and newline, in the order sent. A closed peer (EPIPE;
/// SIGPIPE is ignored) means the client is gone: `onClosed` is called once and further lines are dropped.
///
/// The queue is bounded by `limit` bytes through its producers rather than by dropping answers: while more than
/// `limit` bytes wait, the input stops being read (`hasRoom`) and subscriptions stop pushing (`room`), so a
/// client that stops reading holds weatherd's memory at about `limit` plus the answers of the requests already
/// read. With `overflow: .cut` (for one connection of many) a line that would take the queue past `limit` cuts
/// the connection instead, so a client that stops reading never holds up the others.
package final class LineOutput: LineSink {
    /// What a line that would take the queue past `limit` does.
    package enum Overflow: Sendable {
        /// It is queued; producers wait (`hasRoom`, `room`) until the queue drains below `limit`.
        case wait
        /// The connection is cut (`cut`); `room` never waits. A single line larger than `limit` still passes an
        /// empty queue.
        case cut
    }

    private let channel: Channel
    /// The queued bytes above which producers wait (or, with `.cut`, the connection is cut).
    package let limit: Int
    /// What happens past `limit`.
    package let overflow: Overflow
    private let closed = Atomic<Bool>(false)
    /// Tasks waiting for room.
    private let roomWaits = WaitQueue<Void>()
    private let onClosed: @Sendable () -> Void
    /// Told (on the loop's thread) when the queue drained below `limit` again: the input may be read again.
    private let roomListeners = Mutex<[@Sendable () -> Void]>([])

    /// Writes lines to `channel`, queueing at most about `limit` bytes.
    package init(
        channel: Channel, limit: Int = 16 << 20, overflow: Overflow = .wait,
        onClosed: @escaping @Sendable () -> Void
    ) {
        self.channel = channel
        self.limit = limit
        self.overflow = overflow
        self.onClosed = onClosed
        channel.onOutput { [weak self] event in
            switch event {
            case .room: self?.announceRoom()
            case .failed: self?.markClosed()
            }
        }
    }

    /// Whether more lines may be queued without passing the bound.
    package var hasRoom: Bool { overflow == .cut || closed.load(ordering: .relaxed) || channel.unwrittenBytes < limit }

    package func room() async { _ = await roomWaits.wait { hasRoom ? () : nil } }

    /// Calls `listener` (on the loop's thread) each time the queue drains below `limit`.
    package func onRoom(_ listener: @escaping @Sendable () -> Void) {
        roomListeners.withLock { $0.append(listener) }
    }

    private func announceRoom() {
        roomWaits.resumeAll(())
        for listener in roomListeners.withLock({ $0 }) { listener() }
    }

    package func send(_ line: [UInt8]) {
        guard !closed.load(ordering: .relaxed) else { return }
        var bytes = line
        bytes.append(UInt8(ascii: "\n"))
        if overflow == .cut {
            let queued = channel.unwrittenBytes
            if queued > 0, queued + bytes.count > limit { return cut() }
        }
        if !channel.write(bytes) { markClosed() }
    }

    /// Cuts the connection: shuts the socket down (its reader sees end of input, the peer end of file), drops
    /// what is queued and calls `onClosed` once. The descriptor stays open until its owner closes the channel.
    package func cut() {
        channel.shutdownBoth()
        markClosed()
    }

    /// Waits until everything queued so far is written (or the output is closed, or the waiting task is
    /// cancelled).
    package func flush() async { await channel.flush() }

    /// Waits until everything queued so far is written, or until one of `deadlines` is reached, and then cuts
    /// the connection (a peer that does not read holds no shutdown up).
    package func flush(cutShortBy deadlines: [ShutdownDeadline]) async {
        let flushed = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.flush()
                return true
            }
            for deadline in deadlines {
                group.addTask {
                    await deadline.reached()
                    return false
                }
            }
            let first = await group.next() ?? true
            group.cancelAll()
            return first
        }
        if !flushed { cut() }
    }

    private func markClosed() {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        announceRoom()
        onClosed()
    }
}
