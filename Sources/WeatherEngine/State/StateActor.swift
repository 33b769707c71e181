import EventLog
import WeatherDomain

/// The actor that owns one state slice: it decides changes, appends them, and applies them once durable.
///
/// Decisions run on the *projected* state (committed plus the changes still on their way to disk),
/// synchronously, before the first `await`, so concurrent commands to the same slice are decided in
/// arrival order and can still share one fsync. Reads see only the *committed* state: nothing is
/// visible before its event is durable. A failed append drops every projected change behind it.
///
/// The projected state lives under the `SliceWriter`'s lock rather than in the actor, so that a change
/// spanning slices can decide this slice's share together with the others' and append them as one
/// (`part`, `ChangeBatch`); this actor applies its share once durable, as it applies its own changes.
///
/// The favorites, history, settings, location, cache and alert actors are instances of this type.
package actor StateActor<Slice: StateSlice> {
    /// The state whose events are durable.
    private var committed: Slice
    /// The projected state and the pending events, under `slices`' lock.
    private let projection: Projection<Slice>
    /// The lock every slice decides under, and the log writer that makes events durable.
    private let slices: SliceWriter

    /// Creates the actor with the slice rebuilt from the log.
    package init(_ state: Slice, slices: SliceWriter) {
        committed = state
        projection = Projection(state)
        self.slices = slices
    }

    /// A change on its way to the log.
    package struct Submission: Sendable {
        /// The events decided (empty when the command changes nothing).
        package let events: [DomainEvent]
        let ticket: AppendTicket?
    }

    /// Decides a command against the projected state and queues its events.
    ///
    /// - Throws: the decision's `DomainError`, or `StorageFailure` when the log is read-only.
    package func submit(
        cause: String, corr: String?, _ decide: (Slice) throws -> [DomainEvent]
    ) throws -> Submission {
        settle()
        return try slices.locked { () throws -> Submission in
            let events = try decide(projection.state)
            guard !events.isEmpty else { return Submission(events: [], ticket: nil) }
            let ticket = try slices.writer.append(events.map { NewEvent($0, cause: cause, corr: corr) })
            projection.record(events, first: ticket.seqs.lowerBound, ticket: ticket)
            return Submission(events: events, ticket: ticket)
        }
    }

    /// This slice's share of a joint append: `decide` runs on the projected state when the append is made.
    package nonisolated func part(
        cause: String, corr: String?, _ decide: @escaping @Sendable (Slice) throws -> [DomainEvent]
    ) -> SlicePart {
        let projection = projection
        return SlicePart(
            cause: cause, corr: corr, slice: ObjectIdentifier(self),
            decide: { earlier in
                guard !earlier.isEmpty else { return try decide(projection.state) }
                var state = projection.state
                for event in earlier { state.apply(event) }
                return try decide(state)
            },
            record: { events, first, ticket in projection.record(events, first: first, ticket: ticket) })
    }

    /// This slice's share of a joint append: events already known (an upstream call's audit), which need no state.
    package nonisolated func part(cause: String, facts: [DomainEvent]) -> SlicePart {
        let projection = projection
        return SlicePart(
            cause: cause, corr: nil, slice: ObjectIdentifier(self), decide: { _ in facts },
            record: { events, first, ticket in projection.record(events, first: first, ticket: ticket) })
    }

    /// Waits until a submission is durable and applied.
    ///
    /// - Returns: the committed envelopes.
    /// - Throws: `StorageFailure` when the append failed (the change is then forgotten).
    package func commit(_ submission: Submission) async throws(StorageFailure) -> [EventEnvelope] {
        guard let ticket = submission.ticket else { return [] }
        do {
            let envelopes = try await ticket.committed()
            settle()
            return envelopes
        } catch {
            settle()
            throw error
        }
    }

    /// The newest pending append, for a read that must see every change submitted before it.
    package func barrier() -> AppendTicket? {
        guard let ticket = slices.locked({ projection.newestTicket }), !ticket.isResolved else { return nil }
        return ticket
    }

    /// Reads the committed state.
    package func read<T: Sendable>(_ body: (Slice) -> T) -> T {
        settle()
        return body(committed)
    }

    /// Moves every pending event the writer has committed into `committed`; after a failure, drops the rest.
    private func settle() {
        let writer = slices.writer
        let (events, dropped) = slices.locked { projection.takeCommitted { writer.status } }
        for event in events { committed.apply(event) }
        guard dropped else { return }
        let committed = committed
        slices.locked { projection.reset(to: committed) }
    }
}
