import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("who may ask the HTTP face: the token for /metrics, --http-host, and a browser session from weatherd open")
struct HTTPAccessTests {
    /// The HTTP face over an in-process service, with `access` (the test token's).
    static func serving(
        _ access: HTTPAccess = HTTPAccess(token: HTTPToken(testToken)),
        _ body: (InProcessWeatherd, Int) async throws -> Void
    ) async throws {
        try await InProcessWeatherd.with { service in
            let face = HTTPFace(engine: service.engine, access: access)
            try await service.servingHTTP(face.answer) { _, port in try await body(service, port) }
        }
    }

    static func get(_ port: Int, _ target: String, _ headers: [String] = []) async throws -> HTTPTestClient.Answer {
        try await HTTPAPITests.ask(port, "GET", target, headers: headers)
    }

    @Test("GET /metrics needs the token, since its labels name the places; --metrics-public serves it to anyone")
    func metricsNeedTheToken() async throws {
        try await Self.serving { _, port in
            let refused = try await Self.get(port, "/metrics")
            #expect(refused.status == 401)
            #expect(refused.headers["www-authenticate"] == "Bearer")
            #expect(try await Self.get(port, "/metrics", [HTTPAPITests.bearer]).status == 200)
            #expect(try await Self.get(port, "/:help").status == 200, "the help is public")
        }
        try await Self.serving(HTTPAccess(token: HTTPToken(testToken), metricsPublic: true)) { _, port in
            let answer = try await Self.get(port, "/metrics")
            #expect(answer.status == 200)
            #expect(answer.text.contains("weatherd_build_info"))
            #expect(try await Self.get(port, "/v1/favorites").status == 401, "only the metrics are made public")
        }
    }

    @Test("a Host other than the loopback's is refused unless --http-host names it")
    func hostNames() async throws {
        try await Self.serving { _, port in
            let refused = try await Self.get(port, "/:help", ["Host: weather.lan"])
            #expect(refused.status == 403)
            #expect(!refused.text.contains("weather.lan"), "the name is not echoed")
        }
        try await Self.serving(HTTPAccess(token: HTTPToken(testToken), hosts: ["weather.lan"])) {
            _, port async throws in
            #expect(try await Self.get(port, "/:help", ["Host: weather.lan:9466"]).status == 200)
            #expect(try await Self.get(port, "/:help", ["Host: WEATHER.LAN"]).status == 200)
            #expect(try await Self.get(port, "/:help", ["Host: evil.example"]).status == 403)
            #expect(try await Self.get(port, "/:help", ["Host: localhost:9466"]).status == 200)
        }
    }

    @Test("http/open's code is traded once for an HttpOnly, SameSite=Strict cookie that opens what reads, not changes")
    func browserSession() async throws {
        try await Self.serving { service, port in
            let link = try await service.result("http/open")
            let url = try #require(link["url"]?.stringValue)
            #expect(url.hasPrefix("http://127.0.0.1:\(port)/?code="), "\(url)")
            #expect(link["expiresInSeconds"] == 120)
            let target = String(url.dropFirst("http://127.0.0.1:\(port)".count))

            let opened = try await Self.get(port, target)
            #expect(opened.status == 303)
            #expect(opened.headers["location"] == "/")
            let cookie = try #require(opened.headers["set-cookie"])
            #expect(cookie.hasPrefix("weatherd-session="))
            #expect(cookie.hasSuffix("; Path=/; HttpOnly; SameSite=Strict"), "\(cookie)")
            let session = String(cookie.prefix { $0 != ";" })
            #expect(!session.contains(String(target.split(separator: "=").last ?? "")), "the cookie is not the code")

            #expect(try await Self.get(port, target).status == 403, "a code works once")
            #expect(try await Self.get(port, "/v1/favorites", ["Cookie: theme=dark; " + session]).status == 200)
            #expect(try await Self.get(port, "/metrics", ["Cookie: " + session]).status == 200)
            #expect(try await Self.get(port, "/v1/favorites", ["Cookie: \(session)0"]).status == 401)
            let change = try await HTTPAPITests.ask(
                port, "POST", "/v1/favorites", headers: ["Cookie: " + session, "Content-Type: application/json"],
                body: #"{"name":"Home","lat":52.5,"lon":13.4}"#)
            #expect(change.status == 401, "a session only reads; a change needs the token")
            let mcp = try await HTTPAPITests.ask(
                port, "POST", "/mcp", headers: ["Cookie: " + session, "Content-Type: application/json"], body: "{}")
            #expect(mcp.status == 401)
        }
    }

    @Test("a code is good for 120 s on the engine's clock, then refused")
    func codesExpire() async throws {
        try await Self.serving { service, port in
            let url = try #require(try await service.result("http/open")["url"]?.stringValue)
            let target = String(url.dropFirst("http://127.0.0.1:\(port)".count))
            service.clock.advance(by: .seconds(121))
            let refused = try await Self.get(port, target)
            #expect(refused.status == 403)
            #expect(refused.headers["set-cookie"] == nil)
            #expect(refused.text.contains("weatherd open"))
        }
    }

    @Test("http/open without an HTTP listener is http_not_served, saying how to start one")
    func notServed() async throws {
        try await InProcessWeatherd.with { service in
            let answer = try await service.call("http/open")
            #expect(answer["error"]?["code"] == 1017)
            #expect(answer["error"]?["data"]?["kind"] == "http_not_served")
            #expect(answer["error"]?["message"]?.stringValue?.contains("--http-listen") == true)
        }
    }
}
