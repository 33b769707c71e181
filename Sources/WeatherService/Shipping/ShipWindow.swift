import Synchronization
import WeatherRuntime

/// The publishes in flight, oldest first, at most `capacity`: the shipper's sending side waits for room, its
/// acknowledging side for the oldest. It also knows the stream's last sequence on the subject whenever nothing
/// is in flight, for `Nats-Expected-Last-Subject-Sequence`.
final class ShipWindow: Sendable {
    /// One publish awaiting its acknowledgement.
    struct Entry: Sendable {
        let seq: Int64
        let reply: NATSReply
    }

    private struct State {
        var entries: [Entry] = []
        /// The stream sequence of the last message on the subject, while nothing is in flight.
        var lastStreamSeq: Int64?
    }

    private let capacity: Int
    private let state: Mutex<State>
    private let changed = WaitQueue<Void>()

    /// - Parameter lastStreamSeq: the stream sequence of the last message on the subject (0: none).
    init(capacity: Int, lastStreamSeq: Int64) {
        self.capacity = max(1, capacity)
        state = Mutex(State(lastStreamSeq: lastStreamSeq))
    }

    /// Returns once fewer than `capacity` publishes are in flight (or the task is cancelled).
    func room() async {
        _ = await changed.wait { state.withLock { $0.entries.count < capacity } ? () : nil }
    }

    /// Sends one publish through `send`, told the expected last stream sequence when it is known (nothing in
    /// flight), and adds it to the window; decided and sent under one lock so an acknowledgement in between
    /// cannot make the expectation stale.
    func publish(seq: Int64, _ send: (_ expected: Int64?) throws -> NATSReply) rethrows {
        try state.withLock { state in
            let reply = try send(state.entries.isEmpty ? state.lastStreamSeq : nil)
            state.lastStreamSeq = nil
            state.entries.append(Entry(seq: seq, reply: reply))
        }
        changed.resumeAll(())
    }

    /// The oldest publish in flight, once there is one; nil when the task is cancelled.
    func oldest() async -> Entry? {
        while true {
            guard await changed.wait(unless: { state.withLock { $0.entries.isEmpty ? nil : () } }) != nil else {
                return nil
            }
            if let first = state.withLock({ $0.entries.first }) { return first }
        }
    }

    /// Removes the oldest, acknowledged at `streamSeq`, making room.
    func acknowledged(streamSeq: Int64) {
        state.withLock { state in
            state.entries.removeFirst()
            if state.entries.isEmpty { state.lastStreamSeq = streamSeq }
        }
        changed.resumeAll(())
    }
}
