import Foundation
import Testing
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting
import WeatherWire

@Suite("the HTTP listener: keep-alive, pipelining, HEAD, the token and clients that stop reading")
struct HTTPServiceTests {
    @Test("one connection carries several requests in turn; HEAD has the GET's length and no body")
    func keepAlive() async throws {
        try await MetricsEndpointTests.serving { _, service, port in
            let client = try HTTPTestClient(port: port)
            await client.send(HTTPTestClient.get("/metrics"))
            let first = try #require(await client.answer())
            #expect(first.status == 200)
            #expect(first.headers["connection"] == nil, "kept alive")
            #expect(first.text.contains("weatherd_build_info"))
            await client.send(HTTPTestClient.get("/metrics", method: "HEAD"))
            let head = try #require(await client.answer(forHEAD: true))
            #expect(head.status == 200)
            #expect(Int(head.headers["content-length"] ?? "") ?? 0 > 0)
            await client.send(HTTPTestClient.get("/:help", ["Connection: close"]))
            let help = try #require(await client.answer())
            #expect(help.status == 200)
            #expect(help.headers["connection"] == "close")
            #expect(help.text.contains("GET /metrics"))
            #expect(await client.answer() == nil, "closed after Connection: close")
            #expect(service.connections.peak == 1)
        }
    }

    @Test("pipelined requests sent in one write are answered in order, a chunked body read and skipped")
    func pipelining() async throws {
        try await MetricsEndpointTests.serving { _, _, port in
            let client = try HTTPTestClient(port: port)
            let chunkedPost =
                "POST /metrics HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
            await client.send(
                HTTPTestClient.get("/:help") + chunkedPost + HTTPTestClient.get("/metrics", method: "HEAD")
                    + HTTPTestClient.get("/%2e%2e/etc") + HTTPTestClient.get("/metrics", ["Connection: close"]))
            #expect(try #require(await client.answer()).text.hasPrefix("weatherd over HTTP"))
            #expect(try #require(await client.answer()).status == 405)
            let head = try #require(await client.answer(forHEAD: true))
            #expect(head.status == 200 && head.body.isEmpty)
            let climbing = try #require(await client.answer())
            #expect(climbing.status == 400)
            #expect(climbing.text.contains(".."))
            #expect(try #require(await client.answer()).text.contains("weatherd_build_info"))
            #expect(await client.answer() == nil)
        }
    }

    @Test("a target whose escapes are not UTF-8 is 400 with the reason, and the connection serves on")
    func invalidUTF8Target() async throws {
        try await MetricsEndpointTests.serving { _, _, port in
            let client = try HTTPTestClient(port: port)
            await client.send(HTTPTestClient.get("/S%E3o%20Paulo"))
            let refused = try #require(await client.answer())
            #expect(refused.status == 400)
            #expect(refused.text.contains("UTF-8"))
            await client.send(HTTPTestClient.get("/metrics"))
            #expect(try #require(await client.answer()).status == 200)
        }
    }

    @Test("request heads past 8 KiB get 431, bodies past 1 MiB 413, both lengths 400; then the connection closes")
    func bounds() async throws {
        try await MetricsEndpointTests.serving { _, _, port in
            let cases: [(String, Int)] = [
                (HTTPTestClient.get("/metrics", ["X-Pad: " + String(repeating: "a", count: 9000)]), 431),
                ("POST /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2000000\r\n\r\n", 413),
                (
                    "POST /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
                    400
                ),
                ("GET /metrics HTTP/1.1\r\nHost: localhost\r\nX-A: 1\r\n folded\r\n\r\n", 400),
                ("GET /metrics HTTP/2.0\r\nHost: localhost\r\n\r\n", 505),
            ]
            for (request, status) in cases {
                let client = try HTTPTestClient(port: port)
                await client.send(request)
                let answer = try #require(await client.answer())
                #expect(answer.status == status, "\(request.prefix(60).debugDescription)")
                #expect(answer.headers["connection"] == "close")
                #expect(await client.answer() == nil)
            }
        }
    }

    @Test("with --http-allow-remote every route needs the bearer token, compared whole")
    func token() async throws {
        try await MetricsEndpointTests.serving(allowRemote: true) { _, _, port in
            let client = try HTTPTestClient(port: port)
            await client.send(HTTPTestClient.get("/metrics"))
            let refused = try #require(await client.answer())
            #expect(refused.status == 401)
            #expect(refused.headers["www-authenticate"] == "Bearer")
            await client.send(HTTPTestClient.get("/metrics", ["Authorization: Bearer " + testToken.dropLast()]))
            #expect(try #require(await client.answer()).status == 401)
            await client.send(HTTPTestClient.get("/metrics", ["Authorization: Bearer " + testToken + "0"]))
            #expect(try #require(await client.answer()).status == 401)
            // Another host name is fine once remote clients are meant, with the token.
            await client.send(
                "GET /metrics HTTP/1.1\r\nHost: weather.lan\r\nAuthorization: Bearer \(testToken)\r\n\r\n")
            #expect(try #require(await client.answer()).status == 200)
        }
    }

    @Test("a client that stops reading is served while its answers fit the bound, then cut after the timeout")
    func slowReader() async throws {
        var settings = HTTPService.Settings()
        settings.maxUnwrittenBytes = 64 * 1024
        let big = HTTPResponse(.ok, body: [UInt8](repeating: 0x61, count: 16 << 20))
        try await MetricsEndpointTests.serving(settings, handler: { _, _ in big }) { service, http, port in
            let client = try HTTPTestClient(port: port, receiveBuffer: 4096)
            await client.send(HTTPTestClient.get("/big"))
            // The answer backs up past the bound: the connection waits the timeout for the client to read.
            await service.clock.sleepers(atLeast: 1, until: service.clock.now.advanced(by: settings.timeout))
            #expect(http.connections.count == 1)
            // The request's read timer, armed at the same deadline, may be the sleeper seen above and the stall's
            // timer armed just after: the clock moves on by the timeout until the connection is cut (only a timer
            // can cut it: the client never reads).
            #expect(
                await eventually {
                    service.clock.advance(by: settings.timeout)
                    return http.connections.count == 0
                }, "cut")
            let received = await client.readToEnd()
            #expect(received.count < 16 << 20, "the answer was cut short")
        }
    }

    @Test("the token file is made 0600 once and read back; one others may read is refused")
    func tokenFile() throws {
        let directory = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let made = try HTTPToken.loadOrCreate(dataDirectory: directory.path)
        let path = directory.path + "/" + HTTPToken.fileName
        let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text.count == 64)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(made.admits(authorization: "Bearer " + text))
        #expect(try HTTPToken.loadOrCreate(dataDirectory: directory.path).admits(authorization: "bearer " + text))
        #expect(!made.admits(authorization: text))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: SocketError.self) { try HTTPToken.loadOrCreate(dataDirectory: directory.path) }
    }
}
