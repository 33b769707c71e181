import Testing

@testable import WeatherWire

/// Everything `parser` finds in `text`, appended at once (or a byte at a time).
private func events(_ text: String, byteAtATime: Bool = false, limits: HTTPLimits = HTTPLimits()) -> [HTTPRequestParser
    .Event]
{
    events(Array(text.utf8), byteAtATime: byteAtATime, limits: limits)
}

private func events(_ bytes: [UInt8], byteAtATime: Bool = false, limits: HTTPLimits = HTTPLimits())
    -> [HTTPRequestParser
    .Event]
{
    var parser = HTTPRequestParser(limits: limits)
    var found: [HTTPRequestParser.Event] = []
    let pieces = byteAtATime ? bytes.map { [$0] } : [bytes]
    for piece in pieces {
        parser.append(piece)
        while let event = parser.next() { found.append(event) }
    }
    return found
}

private func failure(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPWireError? {
    for case .failure(let error) in events(text, limits: limits) { return error }
    return nil
}

@Suite("HTTP/1.1 requests off the wire (RFC 9112)")
struct HTTPRequestParserTests {
    @Test("a GET with headers is read whole, keep-alive by default in HTTP/1.1 and not in HTTP/1.0")
    func simpleGet() throws {
        let found = events("GET /Berlin?format=3 HTTP/1.1\r\nHost: localhost\r\nUser-Agent:  curl/8.5 \r\n\r\n")
        guard case .request(let request) = try #require(found.first) else {
            Issue.record("expected a request, got \(found)")
            return
        }
        #expect(found.count == 1)
        #expect(request.method == "GET")
        #expect(request.target == "/Berlin?format=3")
        #expect(request.headers["user-agent"] == "curl/8.5")
        #expect(request.keepAlive)
        #expect(request.body.isEmpty)
        guard case .request(let old) = events("GET / HTTP/1.0\r\n\r\n").first else {
            Issue.record("an HTTP/1.0 request without Host is read")
            return
        }
        #expect(!old.keepAlive)
        #expect(!old.acceptsChunked)
        guard case .request(let kept) = events("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").first else {
            Issue.record("an HTTP/1.0 keep-alive request is read")
            return
        }
        #expect(kept.keepAlive)
        guard case .request(let closing) = events("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").first
        else {
            Issue.record("a closing request is read")
            return
        }
        #expect(!closing.keepAlive)
    }

    @Test("pipelined requests come out one by one and in order, whether the bytes come at once or one at a time")
    func pipelined() {
        let text =
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
            + "\r\nGET /c HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /d HTTP/1.1\r\nHo"
        for byteAtATime in [false, true] {
            let found = events(text, byteAtATime: byteAtATime)
            let targets = found.compactMap { event -> String? in
                if case .request(let request) = event { return request.target }
                return nil
            }
            #expect(targets == ["/a", "/b", "/c"], "byte at a time: \(byteAtATime)")
            if case .request(let post) = found[1] { #expect(post.body == Array("hello".utf8)) }
        }
    }

    @Test("bare LF line ends are read as CRLF")
    func bareLineFeeds() {
        guard case .request(let request) = events("GET /x HTTP/1.1\nHost: x\n\n").first else {
            Issue.record("a request with bare LFs is read")
            return
        }
        #expect(request.target == "/x")
    }

    @Test(
        "a malformed request line is a 400 that says why",
        arguments: [
            "GET /x\r\n\r\n", "GET  /x HTTP/1.1\r\nHost: x\r\n\r\n", "GE(T /x HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /x HTTP/1.1 extra\r\nHost: x\r\n\r\n", "GET /x HTTQ/1.1\r\nHost: x\r\n\r\n",
            "GET /x HTTP/1.10\r\nHost: x\r\n\r\n", "\u{16}\u{03}\u{01} /x HTTP/1.1\r\n\r\n",
        ])
    func malformedRequestLine(_ text: String) throws {
        let error = try #require(failure(text))
        #expect(error.status == .badRequest)
        #expect(error.kind == "malformed-request-line")
        #expect(!error.message.isEmpty)
    }

    @Test("HTTP/2.0 and HTTP/0.9-style versions are 505")
    func unsupportedVersion() throws {
        #expect(try #require(failure("GET / HTTP/2.0\r\nHost: x\r\n\r\n")).status == .httpVersionNotSupported)
    }

    @Test("a raw byte outside ASCII in the target is a 400 (percent-encoding is the way)")
    func rawNonASCIITarget() throws {
        var bytes = Array("GET /S".utf8) + [0xC3, 0xA3] + Array("o HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var error: HTTPWireError?
        for case .failure(let found) in events(bytes) { error = found }
        #expect(error?.status == .badRequest)
        #expect(error?.kind == "bad-target")
        bytes = Array("GET /a\u{7F} HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        #expect(events(bytes).contains { if case .failure = $0 { true } else { false } })
    }

    @Test("a head past 8 KiB is 431; a request line past its bound is 414; more than 100 fields is 431")
    func headLimits() throws {
        let big = "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 9000) + "\r\n\r\n"
        #expect(try #require(failure(big)).status == .requestHeaderFieldsTooLarge)
        // Refused before the blank line comes: a client cannot make the server buffer without end.
        let endless = "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 9000)
        #expect(try #require(failure(endless)).status == .requestHeaderFieldsTooLarge)
        let longLine = "GET /" + String(repeating: "a", count: 9000)
        #expect(try #require(failure(longLine)).status == .uriTooLong)
        let many = "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<101).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        let error = try #require(failure(many))
        #expect(error.status == .requestHeaderFieldsTooLarge)
        #expect(error.message.contains("100"))
    }

    @Test("a body past 1 MiB is 413 as soon as Content-Length says so, before any of it comes")
    func bodyLimit() throws {
        let error = try #require(failure("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1048577\r\n\r\n"))
        #expect(error.status == .contentTooLarge)
        #expect(error.message.contains("1048576"))
        var limits = HTTPLimits()
        limits.maxBodyBytes = 10
        let chunked =
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nabcdef\r\n0\r\n\r\n"
        #expect(try #require(failure(chunked, limits: limits)).status == .contentTooLarge)
    }

    @Test("a chunked body is de-chunked, extensions and trailers skipped")
    func chunkedBody() throws {
        let text =
            "POST /v1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4;name=value\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Trailer: 1\r\n\r\n"
            + "GET /next HTTP/1.1\r\nHost: x\r\n\r\n"
        for byteAtATime in [false, true] {
            let found = events(text, byteAtATime: byteAtATime)
            guard found.count == 2, case .request(let post) = found[0], case .request(let next) = found[1] else {
                Issue.record("expected two requests, got \(found)")
                return
            }
            #expect(String(decoding: post.body, as: UTF8.self) == "Wikipedia in\r\n\r\nchunks.")
            #expect(next.target == "/next")
        }
    }

    @Test(
        "a chunk size that is not hex, or is huge, or data longer than its size, is refused",
        arguments: [
            ("zz\r\n", 400), ("ffffffffffffffffffff\r\nab\r\n", 413), ("7fffffff\r\n", 413), ("2\r\nabc\r\n", 400),
            ("2 x\r\nab\r\n", 400),
        ])
    func badChunks(_ body: String, _ status: Int) throws {
        let text = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + body
        #expect(try #require(failure(text)).status.code == status)
    }

    @Test(
        "framing another reader could take differently is refused: no request smuggling",
        arguments: [
            "Content-Length: 5\r\nTransfer-Encoding: chunked", "Content-Length: 5\r\nContent-Length: 5",
            "Content-Length: 5, 5", "Content-Length: +5", "Content-Length: 0x5", "Content-Length: ",
            "Transfer-Encoding: chunked, identity", "Transfer-Encoding: identity",
        ])
    func smuggling(_ fields: String) throws {
        let error = try #require(failure("POST / HTTP/1.1\r\nHost: x\r\n\(fields)\r\n\r\nhello"))
        #expect([400, 501].contains(error.status.code), "\(error)")
    }

    @Test("Transfer-Encoding: gzip is 501; chunked in an HTTP/1.0 request is 400")
    func transferCodings() throws {
        let gzip = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
        #expect(try #require(failure(gzip)).status == .notImplemented)
        #expect(try #require(failure("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n")).status == .badRequest)
    }

    @Test(
        "obsolete line folding, names that are not tokens, a space before the colon and control bytes are 400",
        arguments: [
            "X-A: 1\r\n  folded", "X-A: 1\r\n\tfolded", "X A: 1", "X-A : 1", "Grüße: 1", "X-A: a\u{0}b",
            "no colon here",
        ])
    func badFields(_ field: String) throws {
        let error = try #require(failure("GET / HTTP/1.1\r\nHost: x\r\n\(field)\r\n\r\n"))
        #expect(error.status == .badRequest)
    }

    @Test("an HTTP/1.1 request needs exactly one Host")
    func host() throws {
        #expect(try #require(failure("GET / HTTP/1.1\r\n\r\n")).kind == "missing-host")
        #expect(try #require(failure("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")).kind == "missing-host")
    }

    @Test("after a failure nothing more is read, even a good request that follows")
    func failureIsFinal() {
        let found = events("GET / HTTP/9.9\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(found.count == 1)
        if case .failure = found.first {} else { Issue.record("expected a failure first, got \(found)") }
    }

    @Test("input that ends inside a request is an incomplete request; between requests it is not")
    func endOfInput() {
        var parser = HTTPRequestParser()
        parser.append(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n\r\n".utf8))
        #expect(parser.next() != nil)
        #expect(parser.next() == nil)
        #expect(parser.finish() == nil)
        var cut = HTTPRequestParser()
        cut.append(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc".utf8))
        #expect(cut.next() == nil)
        #expect(cut.finish()?.kind == "incomplete-request")
    }

    @Test("Expect: 100-continue is announced once, before the body comes")
    func expectContinue() {
        var parser = HTTPRequestParser()
        parser.append(Array("PUT / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8))
        #expect(parser.next() == .expectsContinue)
        #expect(parser.next() == nil)
        parser.append(Array("abc".utf8))
        guard case .request(let request) = parser.next() else {
            Issue.record("the body completes the request")
            return
        }
        #expect(request.body == Array("abc".utf8))
    }
}
