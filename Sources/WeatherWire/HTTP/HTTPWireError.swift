/// Why a request cannot be read: the status it is answered with, a stable `kind`, and a sentence for the
/// client. After one, the connection reads nothing more (its framing can no longer be trusted) and closes
/// once the answer is written.
package struct HTTPWireError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case malformedRequestLine = "malformed-request-line"
        case unsupportedVersion = "unsupported-version"
        case targetTooLong = "target-too-long"
        case headTooLarge = "head-too-large"
        case malformedHeader = "malformed-header"
        case obsoleteLineFolding = "obsolete-line-folding"
        case missingHost = "missing-host"
        case ambiguousLength = "ambiguous-length"
        case badContentLength = "bad-content-length"
        case unsupportedTransferCoding = "unsupported-transfer-coding"
        case badChunk = "bad-chunk"
        case bodyTooLarge = "body-too-large"
        case incomplete = "incomplete-request"
        case badTarget = "bad-target"
    }

    private let code: Code
    /// The sentence told to the client (never the raw bytes it sent).
    package let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A stable name for the failure (`head-too-large`, `ambiguous-length`…).
    package var kind: String { code.rawValue }

    /// The status that answers it.
    package var status: HTTPStatus {
        switch code {
        case .unsupportedVersion: .httpVersionNotSupported
        case .targetTooLong: .uriTooLong
        case .headTooLarge: .requestHeaderFieldsTooLarge
        case .bodyTooLarge: .contentTooLarge
        case .unsupportedTransferCoding: .notImplemented
        default: .badRequest
        }
    }

    package var description: String { "\(status.code) \(kind): \(message)" }

    static func malformedRequestLine(_ why: String) -> Self { Self(.malformedRequestLine, why) }
    static func unsupportedVersion() -> Self {
        Self(.unsupportedVersion, "Only HTTP/1.1 and HTTP/1.0 are spoken here.")
    }
    static func targetTooLong(limit: Int) -> Self {
        Self(.targetTooLong, "The request line is longer than \(limit) bytes.")
    }
    static func headTooLarge(limit: Int) -> Self {
        Self(.headTooLarge, "The request's head (its line and headers) is larger than \(limit) bytes.")
    }
    static func tooManyHeaders(limit: Int) -> Self {
        Self(.headTooLarge, "The request has more than \(limit) header fields.")
    }
    static func malformedHeader(_ why: String) -> Self { Self(.malformedHeader, why) }
    static func obsoleteLineFolding() -> Self {
        Self(.obsoleteLineFolding, "A header field is folded over two lines (obsolete line folding is refused).")
    }
    static func missingHost() -> Self { Self(.missingHost, "An HTTP/1.1 request needs exactly one Host header.") }
    static func ambiguousLength(_ why: String) -> Self { Self(.ambiguousLength, why) }
    static func badContentLength() -> Self {
        Self(.badContentLength, "Content-Length must be one decimal number.")
    }
    static func unsupportedTransferCoding() -> Self {
        Self(.unsupportedTransferCoding, "Only the chunked transfer coding is understood.")
    }
    static func badChunk(_ why: String) -> Self { Self(.badChunk, why) }
    static func bodyTooLarge(limit: Int) -> Self {
        Self(.bodyTooLarge, "The request's body is larger than \(limit) bytes.")
    }
    static func incomplete() -> Self { Self(.incomplete, "The connection ended in the middle of a request.") }
    /// A request target that is not a path weatherd can read (bad percent-encoding, not UTF-8, `..`…).
    package static func badTarget(_ why: String) -> Self { Self(.badTarget, why) }
}
