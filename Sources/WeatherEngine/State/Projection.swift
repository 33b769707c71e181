import EventLog
import WeatherDomain

/// A slice's decided side: its projected state (committed plus what is on its way to disk) and the events appended
/// but not yet applied to its committed state, in seq order.
///
/// Every access holds the `SliceWriter`'s lock: that lock, not this type, makes it safe to share between the
/// slice's actor and the joint appends that reach it from other tasks.
final class Projection<Slice: StateSlice>: @unchecked Sendable {
    /// The committed state plus the pending events, which decisions see.
    var state: Slice
    /// Events appended but not yet applied to the committed state, in seq order.
    private(set) var pending: [(seq: Int64, event: DomainEvent)] = []
    /// The ticket of the newest append, which a read waits for.
    private(set) var newestTicket: AppendTicket?

    init(_ state: Slice) { self.state = state }

    /// Records events appended from seq `first` with `ticket`.
    func record(_ events: [DomainEvent], first: Int64, ticket: AppendTicket) {
        for (offset, event) in events.enumerated() {
            state.apply(event)
            pending.append((first + Int64(offset), event))
        }
        newestTicket = ticket
    }

    /// Takes out the pending events the writer has committed (seq at most `status.lastSeq`); after a failed
    /// append, drops the rest too, and says so (the caller then resets `state` to the committed state).
    func takeCommitted(_ status: () -> LogWriter.Status) -> (events: [DomainEvent], dropped: Bool) {
        guard !pending.isEmpty else { return ([], false) }
        let status = status()
        let count = pending.prefix { $0.seq <= status.lastSeq }.count
        let events = pending.prefix(count).map(\.event)
        pending.removeFirst(count)
        guard status.failure != nil, !pending.isEmpty else { return (events, false) }
        pending.removeAll()
        return (events, true)
    }

    /// Starts again from the committed state, once a failed append dropped what was pending (nothing is appended
    /// after a failure, so nothing is pending then).
    func reset(to committed: Slice) {
        guard pending.isEmpty else { return }
        state = committed
    }
}
