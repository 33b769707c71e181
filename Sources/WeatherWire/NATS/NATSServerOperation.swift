/// What a NATS server sends a client, one operation at a time.
package enum NATSServerOperation: Sendable, Equatable {
    /// `INFO {json}`: the server's facts (at connect, and again when the cluster changes); the JSON as sent.
    case info(String)
    /// `MSG` or `HMSG`: a message for one of the client's subscriptions.
    case message(NATSMessage)
    /// `PING`: the client must answer `PONG`.
    case ping
    /// `PONG`: the answer to the client's `PING`.
    case pong
    /// `+OK` (verbose mode only).
    case ok
    /// `-ERR 'text'`: the server's complaint (the quotes removed); most end the connection.
    case error(String)
}

/// A message delivered to a subscription (`MSG`, `HMSG`).
package struct NATSMessage: Sendable, Equatable {
    /// The subject it was published to.
    package var subject: String
    /// The subscription's id.
    package var sid: String
    /// Where an answer goes, if the publisher asked for one.
    package var replyTo: String?
    /// Its headers (`HMSG`), if any.
    package var headers: NATSHeaders?
    /// The body.
    package var payload: [UInt8]

    package init(subject: String, sid: String, replyTo: String?, headers: NATSHeaders?, payload: [UInt8]) {
        self.subject = subject
        self.sid = sid
        self.replyTo = replyTo
        self.headers = headers
        self.payload = payload
    }
}
