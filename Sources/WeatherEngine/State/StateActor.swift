import EventLog
import WeatherDomain

/// The actor that owns one state slice: it decides changes, appends them, and applies them once durable.
///
/// Decisions run on the *projected* state (committed plus the changes still on their way to disk),
/// synchronously, before the first `await`, so concurrent commands to the same slice are decided in
/// arrival order and can still share one fsync. Reads see only the *committed* state: nothing is
/// visible before its event is durable. A failed append drops every projected change behind it.
///
/// The favorites, history, settings and location actors are instances of this type.
package actor StateActor<Slice: StateSlice> {
    /// The state whose events are durable.
    private var committed: Slice
    /// The committed state plus the pending events, which decisions see.
    private var projected: Slice
    /// Events appended but not yet applied to `committed`, in seq order.
    private var pending: [(seq: Int64, event: DomainEvent)] = []
    /// The ticket of the newest pending append, which a read waits for.
    private var newestTicket: AppendTicket?
    /// The log writer that makes events durable.
    private let writer: LogWriter

    /// Creates the actor with the slice rebuilt from the log.
    package init(_ state: Slice, writer: LogWriter) {
        committed = state
        projected = state
        self.writer = writer
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
        let events = try decide(projected)
        guard !events.isEmpty else { return Submission(events: [], ticket: nil) }
        let ticket = try writer.append(events.map { NewEvent($0, cause: cause, corr: corr) })
        for (offset, event) in events.enumerated() {
            projected.apply(event)
            pending.append((ticket.seqs.lowerBound + Int64(offset), event))
        }
        newestTicket = ticket
        return Submission(events: events, ticket: ticket)
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
        guard let ticket = newestTicket, !ticket.isResolved else { return nil }
        return ticket
    }

    /// Reads the committed state.
    package func read<T: Sendable>(_ body: (Slice) -> T) -> T {
        settle()
        return body(committed)
    }

    /// Moves every pending event the writer has committed into `committed`; after a failure, drops the rest.
    private func settle() {
        guard !pending.isEmpty else { return }
        let status = writer.status
        var applied = 0
        for (seq, event) in pending where seq <= status.lastSeq {
            committed.apply(event)
            applied += 1
        }
        pending.removeFirst(applied)
        if status.failure != nil, !pending.isEmpty {
            pending.removeAll()
            projected = committed
        }
    }
}
