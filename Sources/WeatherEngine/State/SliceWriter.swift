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

    /// Runs `body` with a batch for the events the request commits, then appends what it staged as one and waits
    /// until that is durable, whether `body` returned or threw.
    ///
    /// - Returns: what `body` returned, once its events are durable.
    /// - Throws: `StorageFailure` when the log refused the batch; else whatever `body` threw.
    func committing<T: Sendable>(_ body: (ChangeBatch) async throws -> T) async throws -> T {
        let batch = ChangeBatch(slices: self)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(batch))
        } catch {
            result = .failure(error)
        }
        if let ticket = try batch.close() { _ = try await ticket.committed() }
        return try result.get()
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
