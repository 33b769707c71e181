/// One request as read off the wire: its line, its headers and its whole body (de-chunked).
package struct HTTPRequest: Sendable, Equatable {
    /// The method, as sent (methods are case-sensitive: `GET`, `HEAD`, `POST`…).
    package var method: String
    /// The request target as sent (`/Berlin?format=3`), ASCII only.
    package var target: String
    /// The minor version: 1 for HTTP/1.1, 0 for HTTP/1.0.
    package var minorVersion: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(
        method: String, target: String, minorVersion: Int = 1, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
    }

    /// Whether the connection stays open after the answer (RFC 9112 §9.3): HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    package var keepAlive: Bool {
        let connection = headers.tokens("Connection")
        if connection.contains("close") { return false }
        return minorVersion >= 1 || connection.contains("keep-alive")
    }

    /// Whether the answer may be sent in chunks (HTTP/1.1 only).
    package var acceptsChunked: Bool { minorVersion >= 1 }

    /// Whether the client waits for `100 Continue` before sending its body.
    package var expectsContinue: Bool { headers.tokens("Expect").contains("100-continue") }

    /// The target read as a path and a query.
    ///
    /// - Throws: `HTTPWireError.badTarget` for a target that is not a clean path (see `HTTPTarget`).
    package func parsedTarget() throws(HTTPWireError) -> HTTPTarget { try HTTPTarget(target) }
}
