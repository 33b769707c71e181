import EventLog
import WeatherDomain

extension StateActor {
    /// The shape of every change: decide and queue now, answer once durable.
    ///
    /// The answer is `answer` of the last event: the payload the command ledger keeps for repeated
    /// `commandId`s, so a face that renders both alike answers a repeat as it answered the first; a command
    /// that changes nothing answers `unchanged`.
    func change<Answer: Sendable>(
        _ origin: Origin, decide: @escaping @Sendable (Slice) throws -> [DomainEvent],
        answer: @escaping @Sendable (DomainEvent) -> Answer?, unchanged: @escaping @Sendable (Slice) -> Answer
    ) async throws -> Completion<Answer> {
        let submission = try submit(cause: origin.cause, corr: origin.corr, decide)
        // The answer waits only for durability, not for a hop onto this actor: the next read or decision
        // applies the committed events first (or drops them after a failure).
        if let ticket = submission.ticket, let last = submission.events.last, let result = answer(last) {
            return Completion(DurableAnswer(ticket: ticket, result: result))
        }
        return Completion {
            if let ticket = submission.ticket { _ = try await ticket.committed() }
            return await self.read(unchanged)
        }
    }

    /// The shape of every read: see every change submitted before it, then read committed state.
    func query<Answer: Sendable>(_ body: @escaping @Sendable (Slice) throws -> Answer) async -> Completion<Answer> {
        let barrier = barrier()
        return Completion {
            await barrier?.settled()
            return try await self.read { slice in Result { try body(slice) } }.get()
        }
    }
}
