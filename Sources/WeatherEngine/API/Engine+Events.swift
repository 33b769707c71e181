import EventLog
import WeatherDomain

/// How an event feed ended.
package enum EventFeedEnd: Sendable, Equatable {
    /// The subscriber stopped it (or the connection ended).
    case cancelled
    /// The subscriber fell too far behind; it may resubscribe after `lastSeq`.
    case lagged(lastSeq: Int64)
    /// The log is damaged where the feed had to read; resubscribing would hit the same damage.
    case failed(EngineError, lastSeq: Int64)
}

extension Engine {
    /// Feeds every committed event after `afterSeq` (of `types`, or all) from the log, then calls
    /// `caughtUp`, then feeds live events in seq order, each once, until cancelled. A subscriber that falls
    /// behind is fed what it missed from the log (`LogFollower`), never cut off.
    ///
    /// - Parameters:
    ///   - room: returns once the subscriber can take more (a client that stops reading holds the feed
    ///     here; the bus then stops buffering for it, so nothing grows without bound).
    ///   - send: one event as its JSON object.
    package func feedEvents(
        afterSeq: Int64, types: Set<String>?, room: @Sendable () async -> Void,
        caughtUp: @Sendable (_ lastSeq: Int64) -> Void, send: @escaping @Sendable ([String: JSONValue]) -> Void
    ) async -> EventFeedEnd {
        var lastSent = afterSeq
        do {
            try await follower.follow(after: afterSeq, room: room, caughtUp: caughtUp) { envelope in
                lastSent = envelope.seq
                guard types?.contains(envelope.type) ?? true, case .object(let object) = try envelope.json() else {
                    return
                }
                send(object)
            }
            return .cancelled
        } catch let error as EngineError {
            logger.error("an event feed ended: \(error)")
            return .failed(error, lastSeq: lastSent)
        } catch {
            logger.error("an event feed ended: \(error)")
            return .lagged(lastSeq: lastSent)
        }
    }

    /// Calls `raised` with every alert raised from now on and the reader's units as they are when it is
    /// raised, each once, until cancelled.
    package func followAlerts(_ raised: @Sendable (RaisedAlert, UnitChoice) -> Void) async {
        do {
            try await follower.follow(after: follower.lastSeq) { envelope in
                guard envelope.type == "alert.raised" else { return }
                do {
                    if case .event(.alertRaised(let alert)) = try envelope.decodedEvent() {
                        raised(alert, await readerUnits())
                    }
                } catch {
                    logger.error("alerts cannot read seq \(envelope.seq): \(error)")
                }
            }
        } catch {
            logger.error("an alert feed ended: \(error)")
        }
    }
}
