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

/// A request that never got an HTTP response.
package struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        /// The host could not be reached: refused, unreachable, unknown, reset.
        case offline
        /// No answer in time.
        case timeout
    }

    package var kind: Kind
    package var detail: String

    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
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
