/// An HTTP/1.1 response of the metrics endpoint: always `Connection: close`, one request per connection.
package struct MetricsResponse: Sendable, Equatable {
    package var status: Int
    package var reason: String
    package var contentType = "text/plain; charset=utf-8"
    package var headers: [(String, String)] = []
    package var body: String

    package init(_ status: Int, _ reason: String, body: String) {
        self.status = status
        self.reason = reason
        self.body = body
    }

    /// The exposition.
    package static func metrics(_ text: String) -> MetricsResponse {
        var response = MetricsResponse(200, "OK", body: text)
        response.contentType = Exposition.contentType
        return response
    }

    /// The answer to what `head` asks for when it is not `GET /metrics` (nil when it is).
    package static func refusal(_ head: HTTPRequestHead) -> MetricsResponse? {
        switch head {
        case .incomplete:
            return MetricsResponse(400, "Bad Request", body: "The request ended before its headers did.\n")
        case .malformed: return MetricsResponse(400, "Bad Request", body: "Not an HTTP/1.x request line.\n")
        case .tooLarge:
            return MetricsResponse(
                431, "Request Header Fields Too Large",
                body: "The request head is larger than \(HTTPRequestHead.maxBytes) bytes.\n")
        case .request(_, let path, _) where path != "/metrics":
            return MetricsResponse(404, "Not Found", body: "weatherd serves only GET /metrics here.\n")
        case .request(let method, _, _) where method != "GET" && method != "HEAD":
            var response = MetricsResponse(405, "Method Not Allowed", body: "Only GET /metrics (and HEAD).\n")
            response.headers = [("Allow", "GET, HEAD")]
            return response
        case .request: return nil
        }
    }

    /// The response's bytes; without the body for a `HEAD` request.
    package func bytes(includingBody: Bool = true) -> [UInt8] {
        let body = Array(self.body.utf8)
        var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + (includingBody ? body : [])
    }

    package static func == (lhs: MetricsResponse, rhs: MetricsResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.contentType == rhs.contentType
            && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
    }
}
