import EventLog
import WeatherDomain

extension StateActor {
    /// The shape of every change: decide and queue now, answer once durable.
    ///
    /// The answer is `CommandResult.of` the last event, the same function that rebuilds answers for
    /// repeated `commandId`s from the log; a command that changes nothing answers `unchanged`.
    func change(
        _ origin: Origin, decide: @escaping @Sendable (Slice) throws -> [DomainEvent],
        unchanged: @escaping @Sendable (Slice) -> JSONValue
    ) async throws -> Completion<JSONValue> {
        let submission = try submit(cause: origin.cause, corr: origin.corr, decide)
        // The answer waits only for durability, not for a hop onto this actor: the next read or decision
        // applies the committed events first (or drops them after a failure).
        if let ticket = submission.ticket, let last = submission.events.last, let result = CommandResult.of(last) {
            return Completion(DurableAnswer(ticket: ticket, result: result))
        }
        return Completion {
            if let ticket = submission.ticket { _ = try await ticket.committed() }
            return await self.read(unchanged)
        }
    }

    /// The shape of every read: see every change submitted before it, then read committed state.
    func query(_ body: @escaping @Sendable (Slice) throws -> JSONValue) async -> Completion<JSONValue> {
        let barrier = barrier()
        return Completion {
            await barrier?.settled()
            return try await self.read { slice in Result { try body(slice) } }.get()
        }
    }
}
