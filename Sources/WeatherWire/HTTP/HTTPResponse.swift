/// An answer with its whole body, framed by `Content-Length`; or, with a `stream`, its head (`streamHead`) and
/// a body the stream writes as it goes.
package struct HTTPResponse: Sendable, Equatable {
    package var status: HTTPStatus
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// What writes the body of a streamed answer (then `body` is unused).
    package var stream: HTTPStream?

    package init(_ status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A text answer (`text/plain; charset=utf-8` unless `contentType` says otherwise).
    package init(_ status: HTTPStatus, text: String, contentType: String = "text/plain; charset=utf-8") {
        self.init(status, headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(text.utf8))
    }

    /// A failure to read a request, answered with its status and sentence; the connection closes after it.
    package init(_ error: HTTPWireError) {
        self.init(error.status, text: error.message + "\n")
    }

    /// The bytes sent: the status line, the headers, `Content-Length` (the body's, also for `HEAD`, where the
    /// body itself is left out), `Connection: close` when the connection ends after it, and the body.
    package func serialized(forHEAD: Bool = false, keepAlive: Bool) -> [UInt8] {
        var head = statusLineAndHeaders(keepAlive: keepAlive)
        if !status.forbidsBody { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (forHEAD || status.forbidsBody ? [] : body)
    }

    /// The head of a streamed answer: chunked when `chunked` (HTTP/1.1), else ended by closing the connection
    /// (HTTP/1.0). The body follows as `HTTPChunked.chunk`s and `HTTPChunked.end`, or as plain bytes.
    package func streamHead(chunked: Bool) -> [UInt8] {
        var head = statusLineAndHeaders(keepAlive: chunked)
        if chunked { head += "Transfer-Encoding: chunked\r\n" }
        head += "\r\n"
        return Array(head.utf8)
    }

    private func statusLineAndHeaders(keepAlive: Bool) -> String {
        var head = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        for field in headers {
            let name = field.name.lowercased()
            guard name != "content-length", name != "transfer-encoding", name != "connection" else { continue }
            // A value never carries a line break into the head, whatever a route put in it.
            var value = String.UnicodeScalarView()
            value.append(contentsOf: field.value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
            head += "\(field.name): \(String(value))\r\n"
        }
        if !keepAlive { head += "Connection: close\r\n" }
        return head
    }

    package static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
            && (lhs.stream == nil) == (rhs.stream == nil)
    }

    /// The interim `100 Continue` a client that sent `Expect: 100-continue` waits for.
    package static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}

/// The chunked transfer coding of a streamed answer's body.
package enum HTTPChunked {
    /// One chunk holding `bytes` (nothing for no bytes: an empty chunk would end the body).
    package static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        return Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [0x0D, 0x0A]
    }

    /// The last chunk, which ends the body (no trailers).
    package static let end = Array("0\r\n\r\n".utf8)
}
