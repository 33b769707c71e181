import EventLog
import Synchronization
import WeatherDomain

/// Where the state slices decide their changes and queue them on the log writer: one lock over every slice's
/// projected state, so that the events one request commits to several slices are decided together and go out as
/// one append (one batch, one fsync).
///
/// A slice's decisions must be appended in the order they were decided, or its projected state would part from
/// the log. Each `StateActor` keeps that order for its own changes by deciding and appending in one step; a change
/// that spans slices (a fetch's audit for the cache and the search history's entry) decides each slice's share
/// and appends them all in one step under this lock (`append(_:)`), so no other change to any of those slices
/// comes between. The lock is held only to decide (pure, short) and to queue (`LogWriter.append` assigns seqs and
/// queues); nothing waits for the disk under it.
package final class SliceWriter: Sendable {
    /// The log writer every slice appends to.
    let writer: LogWriter
    private let lock = Mutex(())

    /// Creates the slices' side of `writer`.
    package init(writer: LogWriter) { self.writer = writer }

    /// Runs `body` holding the lock over every slice's projection.
    func locked<T: Sendable, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try lock.withLock { _ throws(E) -> T in try body() }
    }

    /// What a joint append came to: its ticket (nil when nothing was decided), and each part's decided events or
    /// the error its decision threw, in the order of the parts.
    struct Joint: Sendable {
        var ticket: AppendTicket?
        var decided: [Result<[DomainEvent], any Error>]
    }

    /// Decides every part on its slice's projected state and appends all their events as one, in the order of
    /// the parts; each slice's events go into its projection, to be applied to its committed state once durable.
    ///
    /// A decision that throws adds nothing, and the other parts are appended without it (its error is in
    /// `decided`). A decision sees the events of the parts before it for the same slice.
    ///
    /// - Throws: `StorageFailure` when the log refuses the append; then nothing of it is recorded anywhere.
    func append(_ parts: [SlicePart]) throws(StorageFailure) -> Joint {
        try locked { () throws(StorageFailure) -> Joint in
            var decided: [Result<[DomainEvent], any Error>] = []
            var events: [NewEvent] = []
            for part in parts {
                var earlier: [DomainEvent] = []
                for (before, result) in zip(parts, decided) where before.slice == part.slice {
                    if case .success(let new) = result { earlier += new }
                }
                let result = Result { try part.decide(earlier) }
                if case .success(let new) = result {
                    events += new.map { NewEvent($0, cause: part.cause, corr: part.corr) }
                }
                decided.append(result)
            }
            guard !events.isEmpty else { return Joint(ticket: nil, decided: decided) }
            let ticket = try writer.append(events)
            var seq = ticket.seqs.lowerBound
            for (part, result) in zip(parts, decided) {
                guard case .success(let new) = result, !new.isEmpty else { continue }
                part.record(new, seq, ticket)
                seq += Int64(new.count)
            }
            return Joint(ticket: ticket, decided: decided)
        }
    }
}

/// One slice's share of a joint append (`SliceWriter.append`): made by the slice's `StateActor` (`part`).
package struct SlicePart: Sendable {
    let cause: String
    let corr: String?
    /// The slice's actor, so that a decision sees the events of the same slice's earlier parts.
    let slice: ObjectIdentifier
    /// Decides the events, given those of the slice's earlier parts in the same append (under the lock).
    let decide: @Sendable ([DomainEvent]) throws -> [DomainEvent]
    /// Puts the appended events (the first at the seq given) in the slice's projection (under the lock).
    let record: @Sendable ([DomainEvent], Int64, AppendTicket) -> Void
}

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
