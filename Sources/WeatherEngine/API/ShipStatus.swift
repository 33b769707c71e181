/// How far the log is shipped to NATS JetStream (`--nats`), as `service/status`, `weatherd status` and the
/// metrics show it.
package struct ShipStatus: Sendable, Equatable {
    /// The server (`nats://127.0.0.1:4222`).
    package var url: String
    package var stream: String
    /// The subject the log's events go to (`<prefix>.<log id>`).
    package var subject: String
    package var logID: String
    /// The seq of the last event the stream has acknowledged (0: none yet known).
    package var shippedSeq: Int64
    /// Events acknowledged by the stream since the daemon started.
    package var published: Int64
    /// Whether a connection is up and shipping.
    package var connected: Bool
    /// The last problem, in one line, until shipping works again; nil while it does.
    package var problem: String?

    package init(url: String, stream: String, subject: String, logID: String) {
        self.url = url
        self.stream = stream
        self.subject = subject
        self.logID = logID
        shippedSeq = 0
        published = 0
        connected = false
        problem = nil
    }

    /// Committed events not yet acknowledged by the stream.
    package func lag(lastSeq: Int64) -> Int64 { max(0, lastSeq - shippedSeq) }
}
