/// An HTTP GET as weatherd makes it.
package struct HTTPRequest: Sendable, Equatable {
    /// The full URL, API key included: never log or record it; use `ProviderRequest.auditURL`.
    package var url: String
    package var headers: [String: String]

    package init(url: String, headers: [String: String] = [:]) {
        self.url = url
        self.headers = headers
    }
}

/// An HTTP response: status, headers (names lowercased) and body.
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    package var headers: [String: String]
    package var body: [UInt8]

    package init(status: Int, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { _, last in last }
        self.body = body
    }
}

/// A request that never got an HTTP response, or whose body weatherd would not read.
package struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        /// The host could not be reached: refused, unreachable, unknown, reset.
        case offline
        /// No answer in time.
        case timeout
        /// The body passed the most weatherd reads of one (`--max-body-bytes`), by its `Content-Length` or as it
        /// came; no more of it was read.
        case tooLarge = "too_large"
    }

    package var kind: Kind
    /// What happened, never the URL (its query may hold the API key).
    package var detail: String
    /// With `.tooLarge`: the limit the body passed, in bytes.
    package var limit: Int?

    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// A body past `limit` bytes, with a detail that names the limit.
    package static func tooLarge(limit: Int) -> TransportError {
        var error = TransportError(.tooLarge, "the body passed the \(sizeText(limit)) limit")
        error.limit = limit
        return error
    }

    /// A size as messages say it: in the largest of GiB, MiB and KiB that writes it whole (`16 MiB`, `64 KiB`), else
    /// in bytes (`1000 bytes`).
    package static func sizeText(_ bytes: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes > 0 && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    package var description: String { "\(kind.rawValue): \(detail)" }
}

/// The one seam to the network: a live value on URLSession, an in-memory one in tests.
package struct HTTPTransport: Sendable {
    /// Performs a GET. Throws `TransportError` when no response arrived.
    package var get: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse

    package init(get: @escaping @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) {
        self.get = get
    }
}
