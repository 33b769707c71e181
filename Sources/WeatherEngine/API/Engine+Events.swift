import EventLog
import WeatherDomain

/// How an event feed ended.
package enum EventFeedEnd: Sendable, Equatable {
    /// The subscriber stopped it (or the connection ended).
    case cancelled
    /// The subscriber fell too far behind; it may resubscribe after `lastSeq`.
    case lagged(lastSeq: Int64)
    /// The log is damaged where the feed had to read; resubscribing would hit the same damage.
    case failed(RPCError, lastSeq: Int64)
}

extension Engine {
    /// Events a catch-up sends between two waits for the subscriber's room.
    static let catchUpChunk = 1000

    /// Feeds every committed event after `afterSeq` (of `types`, or all) from the log, then calls
    /// `caughtUp`, then feeds live events from the bus in seq order, until cancelled or cut off.
    ///
    /// - Parameters:
    ///   - room: returns once the subscriber can take more (a client that stops reading holds the feed
    ///     here; the bus cuts it off once its buffer is full, so nothing grows without bound).
    ///   - send: one event as its JSON object.
    package func feedEvents(
        afterSeq: Int64, types: Set<String>?, room: @Sendable () async -> Void,
        caughtUp: @Sendable (_ lastSeq: Int64) -> Void, send: @escaping @Sendable ([String: JSONValue]) -> Void
    ) async -> EventFeedEnd {
        let (live, busSeq) = bus.subscribe(capacity: 10_000)
        defer { live.cancel() }
        var lastSent = afterSeq
        let deliver = { (envelope: EventEnvelope) in
            guard types?.contains(envelope.type) ?? true, case .object(let object) = try envelope.json() else { return }
            send(object)
        }
        do {
            // The catch-up reads the log in chunks and waits for room between them, so a subscriber that does
            // not read holds back a catch-up of any length, as it holds back live events.
            while lastSent < busSeq {
                var scanned = 0
                _ = try logHealth.readCommitted(
                    directory: dataDirectory.path, start: writer.index.start(after: lastSent),
                    limit: writer.status.end
                ) { envelope, _ in
                    guard envelope.seq <= busSeq, !Task.isCancelled, scanned < Self.catchUpChunk else { return false }
                    if envelope.seq > lastSent {
                        try deliver(envelope)
                        lastSent = envelope.seq
                        scanned += 1
                    }
                    return true
                }
                if Task.isCancelled { return .cancelled }
                guard scanned == Self.catchUpChunk else { break }
                await room()
            }
            if Task.isCancelled { return .cancelled }
            lastSent = max(lastSent, busSeq)
            caughtUp(lastSent)
            while let message = await live.next() {
                switch message {
                case .event(let envelope) where envelope.seq > lastSent:
                    await room()
                    try deliver(envelope)
                    lastSent = envelope.seq
                case .event:
                    continue
                case .lagged(let seq):
                    return .lagged(lastSeq: seq)
                }
            }
            return .cancelled
        } catch let error as RPCError where error.kind == "log_damaged" {
            logger.error("an event feed ended: \(error)")
            return .failed(error, lastSeq: lastSent)
        } catch {
            logger.error("an event feed ended: \(error)")
            return .lagged(lastSeq: lastSent)
        }
    }

    /// Calls `raised` with every alert raised from now on (live, from the bus), in the reader's units as they
    /// are when it is raised, until cancelled or cut off.
    package func followAlerts(_ raised: @Sendable (JSONValue) -> Void) async {
        while !Task.isCancelled {
            let (subscription, _) = bus.subscribe(capacity: 10_000)
            while let message = await subscription.next() {
                guard case .event(let envelope) = message else { break }
                guard envelope.type == "alert.raised" else { continue }
                do {
                    if case .event(.alertRaised(let alert)) = try envelope.decodedEvent() {
                        raised(alert.json(in: await readerUnits()))
                    }
                } catch {
                    logger.error("alerts cannot read seq \(envelope.seq): \(error)")
                }
            }
            subscription.cancel()
        }
    }
}
