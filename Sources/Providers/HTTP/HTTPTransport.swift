/// An HTTP GET as weatherd makes it.
public struct HTTPRequest: Sendable, Equatable {
    /// The full URL, API key included: never log or record it; use `ProviderRequest.auditURL`.
    public var url: String
    public var headers: [String: String]

    public init(url: String, headers: [String: String] = [:]) {
        self.url = url
        self.headers = headers
    }
}

/// An HTTP response: status, headers (names lowercased) and body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { _, last in last }
        self.body = body
    }
}

/// A request that never got an HTTP response, or whose body weatherd would not read.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The host could not be reached: refused, unreachable, unknown, reset.
        case offline
        /// No answer in time.
        case timeout
        /// The body passed the most weatherd reads of one (`--max-body-bytes`), by its `Content-Length` or as it
        /// came; no more of it was read.
        case tooLarge = "too_large"
    }

    public var kind: Kind
    /// What happened, never the URL (its query may hold the API key).
    public var detail: String
    /// With `.tooLarge`: the limit the body passed, in bytes.
    public var limit: Int?

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// A body past `limit` bytes, with a detail that names the limit.
    public static func tooLarge(limit: Int) -> TransportError {
        var error = TransportError(.tooLarge, "the body passed the \(sizeText(limit)) limit")
        error.limit = limit
        return error
    }

    /// A size as messages say it: in the largest of GiB, MiB and KiB that writes it whole (`16 MiB`, `64 KiB`), else
    /// in bytes (`1000 bytes`).
    public static func sizeText(_ bytes: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes > 0 && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    public var description: String { "\(kind.rawValue): \(detail)" }
}

/// The one seam to the network: a live value on URLSession, an in-memory one in tests.
public struct HTTPTransport: Sendable {
    /// Performs a GET. Throws `TransportError` when no response arrived.
    public var get: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse

    public init(get: @escaping @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) {
        self.get = get
    }
}
