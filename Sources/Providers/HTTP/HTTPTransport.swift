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

/// A request that never got an HTTP response.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The host could not be reached: refused, unreachable, unknown, reset.
        case offline
        /// No answer in time.
        case timeout
    }

    public var kind: Kind
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
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
