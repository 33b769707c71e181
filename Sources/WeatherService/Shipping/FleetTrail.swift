import EventLog
import WeatherDomain

/// The events of every log shipped to one JetStream stream, in the stream's order (`weatherd events --nats`):
/// a fleet's audit trail, each event labelled with its log id and its machine's name.
///
/// Messages are read one at a time by stream sequence (`STREAM.MSG.GET` with `next_by_subj`, as shipping and
/// restore read), on `<prefix>.*`, or on `<prefix>.<log id>` when one log is asked for; no consumer is made on
/// the server, so a reader leaves nothing behind and needs no rights beyond the stream's API. A machine's name is
/// the `host` of its log's latest `service.started` read so far (the first event of every log's run).
package struct FleetTrail: Sendable {
    /// One event of the trail.
    package struct Event: Sendable {
        /// The log it is from (the subject's last token).
        package var logID: String
        /// Its machine's name, if its log has told it yet.
        package var host: String?
        /// The log line's fields (`seq`, `ts`, `type`, `v`, `cause`, `corr`, `data`, `chain`, `crc`), as
        /// `events/query` gives them.
        package var envelope: JSONValue
    }

    /// What the next message of the stream is.
    package enum Entry: Sendable {
        case event(Event)
        /// A message on the trail's subjects that is not an intact log line: said, then skipped.
        case unreadable(String)
    }

    private let jetStream: JetStream
    private let stream: String
    private let subjectPrefix: String
    private let logIDs: Set<String>
    /// The subjects read: one log's, or every log's.
    private let filter: String
    private var hosts: [String: String] = [:]
    /// The stream sequence to read from next.
    private var next: Int64 = 1

    /// A reader of `stream` from its start, of the logs `logIDs` (every log when empty).
    ///
    /// - Throws: `NATSError` (`jetstream_no_stream` when there is no such stream).
    package init(jetStream: JetStream, stream: String, subjectPrefix: String, logIDs: [String])
        async throws(NATSError)
    {
        guard try await jetStream.streamSubjects(stream) != nil else { throw .noStream(stream) }
        self.jetStream = jetStream
        self.stream = stream
        self.subjectPrefix = subjectPrefix
        self.logIDs = Set(logIDs)
        filter = self.logIDs.count == 1 ? "\(subjectPrefix).\(logIDs[0])" : "\(subjectPrefix).*"
    }

    /// The next message of the trail, or nil when the stream holds no more for now.
    ///
    /// - Throws: `NATSError`.
    package mutating func next() async throws(NATSError) -> Entry? {
        while let message = try await jetStream.nextMessage(stream, subject: filter, from: next) {
            next = message.streamSeq + 1
            let logID = String(message.subject.dropFirst(subjectPrefix.count + 1))
            guard logIDs.isEmpty || logIDs.contains(logID) else { continue }
            return entry(message, logID: logID)
        }
        return nil
    }

    private mutating func entry(_ message: JetStream.StoredMessage, logID: String) -> Entry {
        let intact = message.data.withUnsafeBytes { EnvelopeCodec.isWellFormed($0) && EnvelopeCodec.hasValidCRC($0) }
        let envelope: JSONValue?
        do {
            envelope = intact ? try JSONValue.parse(message.data) : nil
        } catch {
            envelope = nil
        }
        guard let envelope, envelope["seq"]?.intValue != nil else {
            return .unreadable(
                "stream seq \(message.streamSeq) on \(message.subject) is not an intact log line (its crc does not "
                    + "hold); skipped")
        }
        if envelope["type"]?.stringValue == "service.started", let host = envelope["data"]?["host"]?.stringValue {
            hosts[logID] = host
        }
        return .event(Event(logID: logID, host: hosts[logID], envelope: envelope))
    }
}
