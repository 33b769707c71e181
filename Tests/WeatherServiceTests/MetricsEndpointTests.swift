import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting

@Suite("the metrics endpoint: GET /metrics over HTTP, bounded against bad, slow and many clients")
struct MetricsEndpointTests {
    /// Runs an `HTTPService` with the HTTP face on 127.0.0.1 (a port the system chooses) over an in-process
    /// service, and stops it (by cancellation, as the daemon does) afterwards. The metrics are public here
    /// (`--metrics-public`): these tests are about HTTP itself; `HTTPAccessTests` checks who may scrape.
    static func serving(
        _ settings: HTTPService.Settings = HTTPService.Settings(), allowRemote: Bool = false,
        handler: HTTPHandler? = nil, _ body: (InProcessWeatherd, HTTPService, Int) async throws -> Void
    ) async throws {
        try await InProcessWeatherd.with { service in
            let face = HTTPFace(
                engine: service.engine,
                access: HTTPAccess(token: HTTPToken(testToken), allowRemote: allowRemote, metricsPublic: true))
            let metrics = try await service.servingHTTP(handler ?? face.answer, settings: settings) { http, port in
                try await body(service, http, port)
            }
            #expect(metrics.connections.count == 0, "every connection ended at shutdown")
        }
    }

    @Test("GET /metrics answers 200 with the exposition's content type; HEAD without the body")
    func scrape() async throws {
        try await Self.serving { _, _, port in
            let answer = try await ScrapeConnection.exchange(port: port, ScrapeConnection.scrape)
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
            #expect(answer.headers["connection"] == "close")
            #expect(answer.headers["content-length"] == String(answer.body.utf8.count))
            let families = try ExpositionParser.parse(answer.body)
            #expect(families["weatherd_build_info"]?.samples.first?.labels["version"] == Engine.version)
            let head = try await ScrapeConnection.exchange(port: port, "HEAD /metrics?x=1 HTTP/1.0\r\n\r\n")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
        }
    }

    /// A request the endpoint refuses, and the status it answers.
    struct Refused: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var status: Int
        var testDescription: String { "\(name) → \(status)" }

        static let close = "Connection: close\r\n\r\n"
        static let all = [
            Refused(name: "no request line", request: "HELLO\r\n\r\n", status: 400),
            Refused(name: "no version", request: "GET /metrics\r\n\r\n", status: 400),
            Refused(name: "not HTTP", request: "GET /metrics SPDY/3\r\n\r\n", status: 400),
            Refused(name: "not a path", request: "GET metrics HTTP/1.1\r\n\r\n", status: 400),
            Refused(name: "control bytes", request: "\u{0}\u{1}\u{2}\r\n\r\n", status: 400),
            Refused(name: "no Host", request: "GET /metrics HTTP/1.1\r\n\r\n", status: 400),
            Refused(name: "another path", request: "GET /no/such HTTP/1.1\r\nHost: localhost\r\n" + close, status: 404),
            Refused(
                name: "a path below", request: "GET /metrics/../etc HTTP/1.1\r\nHost: localhost\r\n" + close,
                status: 400),
            Refused(
                name: "a host that is not the loopback (DNS rebinding)",
                request: "GET /metrics HTTP/1.1\r\nHost: evil.example:9466\r\n" + close, status: 403),
            Refused(
                name: "POST", request: "POST /metrics HTTP/1.1\r\nHost: [::1]:9466\r\nContent-Length: 0\r\n" + close,
                status: 405),
            Refused(
                name: "a 9 kB header",
                request: "GET /metrics HTTP/1.1\r\nX-Pad: " + String(repeating: "a", count: 9000) + "\r\n\r\n",
                status: 431),
        ]
    }

    @Test("what is not GET /metrics gets a clear refusal, and the endpoint serves on", arguments: Refused.all)
    func refusals(_ refused: Refused) async throws {
        let (request, status) = (refused.request, refused.status)
        try await Self.serving { _, _, port in
            let answer = try await ScrapeConnection.exchange(port: port, request)
            #expect(answer.status == status, "\(request.prefix(40).debugDescription)")
            #expect(answer.headers["connection"] == "close")
            if status == 405 { #expect(answer.headers["allow"] == "GET, HEAD") }
            #expect(!answer.body.contains("evil"), "the Host is not echoed")
            // The endpoint goes on serving.
            #expect(try await ScrapeConnection.exchange(port: port, ScrapeConnection.scrape).status == 200)
        }
    }

    @Test("a client that ends before its request is done gets 400")
    func truncated() async throws {
        try await Self.serving { _, _, port in
            let connection = try ScrapeConnection(port: port)
            await connection.send(Array("GET /metr".utf8))
            connection.endSending()
            #expect(await connection.answer().status == 400)
        }
    }

    @Test("a slow client gets 408 once the timeout passes on the engine's clock, and the endpoint serves on")
    func slowClient() async throws {
        var settings = HTTPService.Settings()
        settings.timeout = .seconds(10)
        try await Self.serving(settings) { service, metrics, port in
            let connection = try ScrapeConnection(port: port)
            await connection.send(Array("GET /metrics HTTP/1.1\r\nHost: x".utf8))
            await service.clock.sleepers(atLeast: 1, until: service.clock.now.advanced(by: .seconds(10)))
            #expect(metrics.connections.count == 1)
            service.clock.advance(by: .seconds(10))
            let answer = await connection.answer()
            #expect(answer.status == 408)
            #expect(try await ScrapeConnection.exchange(port: port, ScrapeConnection.scrape).status == 200)
        }
    }

    @Test("past maxConnections a client gets 503; the idle ones time out; none is left open")
    func connectionCap() async throws {
        var settings = HTTPService.Settings()
        settings.maxConnections = 2
        try await Self.serving(settings) { service, metrics, port in
            var idle = try (0..<2).map { _ in try ScrapeConnection(port: port) }
            await service.clock.sleepers(atLeast: 2, until: service.clock.now.advanced(by: settings.timeout))
            // It sends nothing: the answer comes at once, before any request it could send.
            let refused = await (try ScrapeConnection(port: port)).answer()
            #expect(refused.status == 503)
            #expect(metrics.connections.refused == 1)
            #expect(metrics.connections.peak == 2)
            service.clock.advance(by: settings.timeout)
            for connection in idle { #expect(await connection.answer().status == 408) }
            // The server reads on until each client closes (so that its answer is not lost to a reset).
            idle = []
            #expect(await eventually { metrics.connections.count == 0 })
            #expect(try await ScrapeConnection.exchange(port: port, ScrapeConnection.scrape).status == 200)
        }
    }

    @Test("1,000 scrapes, four at a time, are all answered; connections stay bounded; the log is unchanged")
    func manyScrapes() async throws {
        try await Self.serving { service, metrics, port in
            let before = try MetricsTests.logBytes(service.engine.dataDirectoryPath)
            let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var statuses: [Int] = []
                        for _ in 0..<250 {
                            statuses.append(
                                try await ScrapeConnection.exchange(port: port, ScrapeConnection.scrape).status)
                        }
                        return statuses
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(statuses.count == 1000)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(metrics.connections.refused == 0)
            #expect(metrics.connections.peak <= HTTPService.Settings().maxConnections)
            #expect(try MetricsTests.logBytes(service.engine.dataDirectoryPath) == before)
            #expect(service.network.requests.isEmpty, "no upstream call")
        }
    }

    @Test("--http-listen (--metrics-listen): loopback by default; another address only with --http-allow-remote")
    func configuration() throws {
        let loopback = try Configuration.parse(["--metrics-listen", "127.0.0.1:9466"], environment: [:])
        #expect(loopback.httpListen == MetricsEndpoint(host: "127.0.0.1", port: 9466))
        #expect(
            try Configuration.parse(["--metrics-listen", "localhost:0"], environment: [:]).httpListen?.host
                == "127.0.0.1")
        #expect(
            try Configuration.parse(["--metrics-listen=[::1]:9466"], environment: [:]).httpListen?.isIPv6 == true)
        for refused in [["--metrics-listen", "0.0.0.0:9466"], ["--metrics-listen", "192.168.1.5:9466"]] {
            #expect(throws: ConfigurationError.self) { try Configuration.parse(refused, environment: [:]) }
            let allowed = try Configuration.parse(refused + ["--http-allow-remote"], environment: [:])
            #expect(try Configuration.parse(refused + ["--metrics-allow-remote"], environment: [:]).httpAllowRemote)
            #expect(allowed.httpListen?.isLoopback == false)
        }
        #expect(
            try Configuration.parse(["--http-listen", "127.0.0.1"], environment: [:]).httpListen
                == MetricsEndpoint(host: "127.0.0.1", port: MetricsEndpoint.defaultPort))
        for bad in ["9466", "127.0.0.1:70000", "example.com:9466", "1.2.3:9466", "example.com"] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try Configuration.parse(["--metrics-listen", bad], environment: [:])
            }
        }
    }
}

/// The token the tests' HTTP face takes.
let testToken = "0123456789abcdef0123456789abcdef"
