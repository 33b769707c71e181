/// Bytes from a NATS server that break the client protocol: a control line too long or not understood, a
/// payload past the limit, a frame that does not end where its sizes say. The connection that reads one is
/// closed and opened again; nothing it read after it is trusted.
package struct NATSProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case lineTooLong = "nats_line_too_long"
        case payloadTooLarge = "nats_payload_too_large"
        case malformed = "nats_malformed_frame"
        case unknownOperation = "nats_unknown_operation"
    }

    private let code: Code
    /// What was wrong, for the log.
    package let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// A stable name of the problem.
    package var kind: String { code.rawValue }

    package var description: String { "NATS protocol error (\(kind)): \(detail)" }

    static func lineTooLong(_ limit: Int) -> NATSProtocolError {
        NATSProtocolError(.lineTooLong, "no line end within \(limit) bytes")
    }

    static func payloadTooLarge(_ size: Int, limit: Int) -> NATSProtocolError {
        NATSProtocolError(.payloadTooLarge, "a message of \(size) bytes, past the limit of \(limit)")
    }

    static func malformed(_ what: String) -> NATSProtocolError { NATSProtocolError(.malformed, what) }

    static func unknownOperation(_ line: String) -> NATSProtocolError {
        NATSProtocolError(.unknownOperation, "unknown operation \(String(line.prefix(40)).debugDescription)")
    }
}
