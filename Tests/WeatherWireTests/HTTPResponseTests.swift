import Testing

@testable import WeatherWire

@Suite("HTTP/1.1 answers onto the wire")
struct HTTPResponseTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("an answer carries its length; HEAD carries the same length and no body; close is said when meant")
    func serialized() {
        let response = HTTPResponse(.ok, text: "hello\n")
        #expect(
            text(response.serialized(keepAlive: true))
                == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 6\r\n\r\nhello\n")
        #expect(
            text(response.serialized(forHEAD: true, keepAlive: false))
                == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
                + "Content-Length: 6\r\n\r\n")
    }

    @Test("304 and 204 have neither body nor length; a value cannot smuggle a line break into the head")
    func noBodyAndNoInjection() {
        var notModified = HTTPResponse(.notModified, body: Array("ignored".utf8))
        notModified.headers.add("ETag", "\"abc\"\r\nSet-Cookie: x=1")
        let wire = text(notModified.serialized(keepAlive: true))
        #expect(wire == "HTTP/1.1 304 Not Modified\r\nETag: \"abc\"Set-Cookie: x=1\r\n\r\n")
    }

    @Test("routes cannot set the framing headers themselves")
    func framingIsTheSerializers() {
        var response = HTTPResponse(.ok, text: "abc")
        response.headers.add("Content-Length", "99")
        response.headers.add("Connection", "keep-alive")
        let wire = text(response.serialized(keepAlive: false))
        #expect(wire.contains("Content-Length: 3\r\n"))
        #expect(!wire.contains("99"))
        #expect(wire.contains("Connection: close\r\n"))
        #expect(!wire.contains("keep-alive"))
    }

    @Test("a stream is chunked in HTTP/1.1 and ends with the last chunk; in HTTP/1.0 it ends with the connection")
    func chunked() {
        let head = HTTPResponse(.ok, headers: HTTPHeaders([("Content-Type", "text/event-stream")]))
        #expect(
            text(head.streamHead(chunked: true))
                == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(text(head.streamHead(chunked: false)).hasSuffix("Connection: close\r\n\r\n"))
        let body = Array(String(repeating: "x", count: 300).utf8)
        #expect(text(HTTPChunked.chunk(body)) == "12c\r\n" + String(repeating: "x", count: 300) + "\r\n")
        #expect(HTTPChunked.chunk([]).isEmpty)
        #expect(text(HTTPChunked.end) == "0\r\n\r\n")
    }

    @Test("a chunked answer reads back through the request parser's own de-chunking")
    func roundTrip() {
        let payload = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var wire = Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for piece in stride(from: 0, to: payload.count, by: 999) {
            wire += HTTPChunked.chunk(Array(payload[piece..<min(piece + 999, payload.count)]))
        }
        wire += HTTPChunked.end
        var parser = HTTPRequestParser()
        parser.append(wire)
        guard case .request(let request) = parser.next() else {
            Issue.record("the chunked body reads back")
            return
        }
        #expect(request.body == payload)
    }

    @Test("a wire failure is answered with its status and its sentence")
    func failureAnswer() {
        var parser = HTTPRequestParser()
        parser.append(Array("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n".utf8))
        guard case .failure(let error) = parser.next() else {
            Issue.record("two lengths are refused")
            return
        }
        let wire = text(HTTPResponse(error).serialized(keepAlive: false))
        #expect(wire.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(wire.hasSuffix("only one Content-Length.\n"))
    }
}
