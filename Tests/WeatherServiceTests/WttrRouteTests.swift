import Foundation
import Testing
import WeatherCLI
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting

@Suite("wttr.in's URLs on the HTTP listener: GET /{place} with ?format=, units and place forms")
struct WttrRouteTests {
    /// The HTTP face with the wttr.in route, over an in-process service whose provider answers Berlin at 3 °C.
    static func serving(_ body: (InProcessWeatherd, Int) async throws -> Void) async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/search",
            InMemoryTransport.ok(OpenMeteoBodies.geocode([("São Paulo", "BR", "São Paulo", -23.55, -46.63)])))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 3)))
        try await InProcessWeatherd.with(network: network) { service in
            service.engine.ready.open()
            let listener = try TCPListener(MetricsEndpoint(host: "127.0.0.1", port: 0))
            let route = WttrRoute(engine: service.engine)
            let face = HTTPFace(
                engine: service.engine, token: HTTPToken(testToken), allowRemote: false, places: route.answer)
            let http = HTTPService(engine: service.engine, listener: listener, handler: face.answer)
            let running = Task { await http.run() }
            do {
                try await body(service, listener.endpoint.port)
            } catch {
                running.cancel()
                await running.value
                throw error
            }
            running.cancel()
            await running.value
        }
    }

    private static func get(_ port: Int, _ target: String, _ headers: [String] = []) async throws
        -> HTTPTestClient.Answer
    {
        let client = try HTTPTestClient(port: port)
        await client.send(HTTPTestClient.get(target, headers + ["Connection: close"]))
        return try #require(await client.answer())
    }

    @Test("format 3 and %-codes for LAT,LON and a percent-encoded UTF-8 city, as weatherd now prints them")
    func formats() async throws {
        try await Self.serving { _, port in
            let three = try await Self.get(port, "/52.52,13.41?format=3")
            #expect(three.status == 200)
            #expect(three.headers["content-type"] == "text/plain; charset=utf-8")
            #expect(three.text.hasSuffix("+3°C\n"), "\(three.text)")
            let codes = try await Self.get(port, "/S%C3%A3o%20Paulo?format=%25l:+%25t")
            #expect(codes.status == 200)
            #expect(codes.text == "São Paulo: +3°C\n", "\(codes.text)")
            let one = try await Self.get(port, "/52.52,13.41?format=1")
            #expect(one.text.hasSuffix(" +3°C\n"))
            #expect(!one.text.contains(":"), "format 1 has no place")
        }
    }

    @Test("?u asks for USCS units, ?m for metric")
    func units() async throws {
        try await Self.serving { _, port in
            let uscs = try await Self.get(port, "/52.52,13.41?format=%25t&u")
            #expect(uscs.text.hasSuffix("°F\n"), "\(uscs.text)")
            let metric = try await Self.get(port, "/52.52,13.41?format=%25t&m")
            #expect(metric.text == "+3°C\n", "\(metric.text)")
        }
    }

    @Test("a format that cannot be met is 400 with the reason; control characters are refused, never echoed")
    func badFormats() async throws {
        try await Self.serving { service, port in
            let unknown = try await Self.get(port, "/52.52,13.41?format=%25Q")
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("unknown format code %Q"))
            #expect(unknown.text.contains("%t (temperature)"))
            let ahead = try await Self.get(port, "/52.52,13.41?format=%25%2B999h")
            #expect(ahead.status == 400)
            #expect(ahead.text.contains("%+Nh"))
            let escape = try await Self.get(port, "/Berlin?format=%1B%5B31m%25t")
            #expect(escape.status == 400)
            #expect(!escape.text.contains("\u{1B}"))
            let offGlobe = try await Self.get(port, "/91,181?format=3")
            #expect(offGlobe.status == 400)
            #expect(offGlobe.text.contains("latitude"))
            #expect(service.network.requests.allSatisfy { !$0.contains("latitude=91") })
        }
    }

    @Test("/ is the current location, private without the token; /:help lists the routes")
    func currentLocationAndHelp() async throws {
        try await Self.serving { _, port in
            #expect(try await Self.get(port, "/?format=3").status == 401)
            let help = try await Self.get(port, "/:help")
            #expect(help.status == 200)
            #expect(help.text.contains("GET /{place}"))
            #expect(try await Self.get(port, "/a/b/c").status == 404)
        }
    }
}
