import EventLog
import WeatherDomain

/// Follows the log: every committed event after a seq, each once and in order, whatever the follower's pace.
///
/// The bus carries committed events live, into a bounded buffer per subscriber; a follower that falls behind
/// it is cut off (`lagged`) rather than holding memory. The log is the source of truth, so the follower then
/// reads what it missed from the log, in chunks, and rejoins the bus live. Alert rules, event feeds, MCP
/// resource updates and every other follower go through here: none of them may skip an event.
package struct LogFollower: Sendable {
    let bus: EventBus
    let writer: LogWriter
    let logHealth: LogHealth
    let directory: String
    /// How many undelivered live events a follower's bus buffer holds before it must catch up from the log.
    let capacity: Int
    /// Events read from the log between two hand-overs to the follower.
    let chunk: Int

    /// The seq of the last event committed so far.
    package var lastSeq: Int64 { bus.lastSeq }

    /// Hands every committed event after `afterSeq` to `handle`, in seq order and each once: first from the
    /// log up to where the bus began, then `caughtUp`, then live, catching up from the log again whenever
    /// the follower fell behind the bus. Returns when the calling task is cancelled.
    ///
    /// - Parameters:
    ///   - room: returns once the follower can take more (a client that stops reading holds the feed here).
    ///   - caughtUp: called once, with the last seq handed over, when the first catch-up is done.
    /// - Throws: `EngineError.logDamaged` when the log cannot be read where the follower must read it, or
    ///   what `handle` throws.
    package func follow(
        after afterSeq: Int64, room: @Sendable () async -> Void = {}, caughtUp: @Sendable (Int64) -> Void = { _ in },
        _ handle: (EventEnvelope) async throws -> Void
    ) async throws {
        var last = afterSeq
        var announced = false
        while !Task.isCancelled {
            let (live, busSeq) = bus.subscribe(capacity: capacity)
            defer { live.cancel() }
            try await catchUp(from: &last, through: busSeq, room: room, handle)
            if Task.isCancelled { return }
            last = max(last, busSeq)
            if !announced {
                announced = true
                caughtUp(last)
            }
            while let message = await live.next() {
                guard case .event(let envelope) = message else { break }
                guard envelope.seq > last else { continue }
                await room()
                try await handle(envelope)
                last = envelope.seq
            }
        }
    }

    /// The committed event at `seq`, read from the log; nil when the log does not hold it (past its end, or
    /// dropped by audit retention).
    ///
    /// - Throws: `EngineError.logDamaged` when the log cannot be read there.
    package func envelope(at seq: Int64) throws -> EventEnvelope? {
        guard seq >= 1, seq <= writer.status.lastSeq else { return nil }
        var found: EventEnvelope?
        _ = try logHealth.readCommitted(
            directory: directory, start: writer.index.start(after: seq - 1), limit: writer.status.end
        ) { envelope, _ in
            if envelope.seq == seq { found = envelope }
            return envelope.seq < seq
        }
        return found
    }

    /// Hands over the events after `last` up to `end` from the log, a chunk at a time.
    private func catchUp(
        from last: inout Int64, through end: Int64, room: @Sendable () async -> Void,
        _ handle: (EventEnvelope) async throws -> Void
    ) async throws {
        while last < end, !Task.isCancelled {
            var batch: [EventEnvelope] = []
            let after = last
            _ = try logHealth.readCommitted(
                directory: directory, start: writer.index.start(after: after), limit: writer.status.end
            ) { envelope, _ in
                guard envelope.seq <= end, batch.count < chunk else { return false }
                if envelope.seq > after { batch.append(envelope) }
                return true
            }
            guard !batch.isEmpty else { return }
            for envelope in batch {
                if Task.isCancelled { return }
                try await handle(envelope)
                last = envelope.seq
            }
            // Between chunks, a follower that cannot take more holds the catch-up here.
            if batch.count == chunk { await room() }
        }
    }
}
