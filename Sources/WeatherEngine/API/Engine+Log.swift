import EventLog
import WeatherDomain

/// A page of committed events, each as its line in the log holds it.
package struct EventPage: Sendable, Equatable {
    /// Each event's JSON object, as the log records it.
    package var events: [JSONValue]
    /// The seq of the last committed event.
    package var lastSeq: Int64
    /// When more events may match: the seq of the last one scanned, to continue after.
    package var continueAfter: Int64?
}

extension Engine {
    /// One page of committed events matching `filter`, read from the log.
    package func queryEvents(_ filter: EventFilter) -> Completion<EventPage> {
        Completion { try filter.run(directory: self.dataDirectory.path, writer: self.writer, health: self.logHealth) }
    }
}

extension EventFilter {
    /// Reads the committed log from near `afterSeq` and collects one page of matching events.
    func run(directory: String, writer: LogWriter, health: LogHealth) throws -> EventPage {
        let (afterSeq, types, since, until, limit) = (afterSeq, types, since, until, limit)
        let committed = writer.status
        var events: [JSONValue] = []
        var bytes = 0
        var lastScanned = afterSeq
        var more = false
        _ = try health.readCommitted(
            directory: directory, start: writer.index.start(after: afterSeq), limit: committed.end
        ) {
            envelope, _ in
            guard envelope.seq > afterSeq else { return true }
            let matches =
                (types?.contains(envelope.type) ?? true) && (since.map { envelope.ts >= $0 } ?? true)
                && (until.map { envelope.ts < $0 } ?? true)
            if matches {
                let json = try envelope.json()
                let size = json.jsonBytes.count
                if events.count >= limit || (!events.isEmpty && bytes + size > PageRequest.byteBudget) {
                    more = true
                    return false
                }
                events.append(json)
                bytes += size
            }
            lastScanned = envelope.seq
            return true
        }
        return EventPage(events: events, lastSeq: committed.lastSeq, continueAfter: more ? lastScanned : nil)
    }
}
