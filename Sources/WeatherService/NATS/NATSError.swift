import WeatherWire

/// Why a NATS connection or one of its requests failed: a stable `kind` and a sentence for the log and the
/// status.
package struct NATSError: Error, Sendable, Equatable, CustomStringConvertible {
    fileprivate enum Code: String, Sendable {
        case unreachable = "nats_unreachable"
        case closed = "nats_closed"
        case timeout = "nats_timeout"
        case serverError = "nats_server_error"
        case protocolError = "nats_protocol_error"
        case noResponders = "nats_no_responders"
        case jetStream = "jetstream_error"
        case unexpectedAnswer = "nats_unexpected_answer"
        case credentials = "nats_bad_credentials"
        case jetStreamOff = "nats_jetstream_off"
        case noStream = "jetstream_no_stream"
    }

    private let code: Code
    /// What happened, in a sentence.
    package let message: String
    /// JetStream's own error code (`err_code`: 10059 stream not found, 10071 wrong last sequence), if any.
    package let jetStreamCode: Int?

    fileprivate init(_ code: Code, _ message: String, jetStreamCode: Int? = nil) {
        self.code = code
        self.message = message
        self.jetStreamCode = jetStreamCode
    }

    /// A stable name of the failure.
    package var kind: String { code.rawValue }

    package var description: String { message }

    static func unreachable(_ endpoint: String, _ why: String) -> NATSError {
        NATSError(.unreachable, "cannot connect to NATS at \(endpoint): \(why)")
    }

    static func closed(_ why: String) -> NATSError { NATSError(.closed, "the NATS connection ended: \(why)") }

    static func timeout(_ what: String) -> NATSError { NATSError(.timeout, "no answer from NATS to \(what) in time") }

    static func serverError(_ text: String) -> NATSError { NATSError(.serverError, "NATS refused: \(text)") }

    static func protocolError(_ error: NATSProtocolError) -> NATSError {
        NATSError(.protocolError, "NATS sent what the client protocol does not allow: \(error)")
    }

    static func noResponders(_ subject: String) -> NATSError {
        NATSError(.noResponders, "nothing answers \(subject) (is JetStream enabled on the server?)")
    }

    /// An error JetStream answered (`{"error":{"code":…,"err_code":…,"description":…}}`).
    package static func jetStream(code: Int, errCode: Int?, description: String) -> NATSError {
        NATSError(.jetStream, "JetStream: \(description) (\(code))", jetStreamCode: errCode)
    }

    static func unexpectedAnswer(_ what: String) -> NATSError { NATSError(.unexpectedAnswer, what) }

    static func noStream(_ stream: String) -> NATSError {
        NATSError(.noStream, "the NATS server has no JetStream stream \(stream) (--nats-stream)")
    }

    static func jetStreamOff(_ url: String) -> NATSError {
        NATSError(.jetStreamOff, "the NATS server at \(url) has JetStream off (start it with -js)")
    }
}

extension NATSError {
    static func credentials(_ problem: String) -> NATSError {
        NATSError(.credentials, "the NATS credentials file: \(problem)")
    }
}
