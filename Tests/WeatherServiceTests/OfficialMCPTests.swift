import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("MCP: warnings, air quality and alerts tools, and the warnings resource, in process")
struct OfficialMCPTests {
    static func initialize(_ service: InProcessWeatherd) async throws {
        _ = try await service.result(
            "initialize",
            ["protocolVersion": "2025-06-18", "capabilities": [:], "clientInfo": ["name": "tests", "version": "1"]])
    }

    static func tool(_ service: InProcessWeatherd, _ name: String, _ arguments: JSONValue = [:]) async throws
        -> JSONValue
    {
        try await service.result("tools/call", ["name": .string(name), "arguments": arguments])
    }

    /// The text blocks of a tool result.
    static func texts(_ result: JSONValue) -> [String] {
        result["content"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
    }

    @Test("get_warnings and get_air_quality begin with a one-line summary, then the JSON of structuredContent")
    func tools() async throws {
        let network = InMemoryTransport()
        network.route("/alerts/active", InMemoryTransport.ok(try OfficialFixture.bytes("nws-alerts-point-phoenix-az")))
        network.route(
            "/v1/air-quality", InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-airquality-forli-current")))
        network.route("/points/-45,-120", InMemoryTransport.status(404, #"{"title":"Data Unavailable"}"#))
        network.route("/alert/area", InMemoryTransport.ok(Array("[]".utf8)))
        let clock = ManualClock(start: try OfficialFixture.time(OfficialFixture.phoenixTime))
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            try await Self.initialize(service)
            let listed = try await service.result("tools/list")["tools"]?.arrayValue?.compactMap(\.["name"])
            #expect(
                listed?.suffix(9) == [
                    "get_warnings", "get_air_quality", "get_nowcast", "get_history", "get_climate",
                    "get_forecast_changes",
                    "get_forecast_confidence", "compare_models", "get_forecast_accuracy",
                ])
            _ = try await service.result(
                "favorites/add", ["name": "Phoenix", "lat": 33.45, "lon": -112.07, "country": "US"])

            let warnings = try await Self.tool(service, "get_warnings", ["favorite": "Phoenix"])
            #expect(warnings["isError"] == nil)
            let texts = Self.texts(warnings)
            #expect(texts.count == 2)
            let summary = try #require(texts.first)
            #expect(!summary.contains("\n"), "one line")
            #expect(summary.hasPrefix("Phoenix: 2 official warnings in force (National Weather Service)"))
            #expect(summary.contains("Excessive Heat Warning (Severe)"), "severity as CAP spells it")
            #expect(try JSONValue.parse(Array((texts.last ?? "").utf8)) == warnings["structuredContent"])
            let native = try await service.result("warnings/list", ["favorite": "Phoenix"])
            #expect(warnings["structuredContent"] == native, "the same engine answer as warnings/list")

            let air = try await Self.tool(service, "get_air_quality", ["lat": 44.22, "lon": 12.04])
            let airTexts = Self.texts(air)
            #expect(airTexts.first?.contains("European AQI") == true)
            #expect(air["structuredContent"]?["current"]?["europeanAqi"] != nil)
            #expect(try JSONValue.parse(Array((airTexts.last ?? "").utf8)) == air["structuredContent"])

            let outside = try await Self.tool(service, "get_warnings", ["lat": -45, "lon": -120])
            #expect(outside["isError"] == nil)
            #expect(outside["structuredContent"]?["warnings"] == [])
            #expect(outside["structuredContent"]?["covered"] == false)
            #expect(Self.texts(outside).first?.contains("no official warnings known") == true)
            #expect(Self.texts(outside).first?.contains("not an all-clear") == true, "never 'none in force'")
            let wrong = try await service.call(
                "tools/call", ["name": "get_warnings", "arguments": ["units": "metric"]])
            #expect(wrong["error"]?["code"] == -32602, "an unknown argument, before 2025-11-25 a protocol error")
        }
    }

    @Test("get_alerts lists the alerts with their origin and the warnings in force; weather://warnings follows them")
    func alertsAndResource() async throws {
        let (network, clock) = try OfficialFixture.sarajevoFeed()
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            try await Self.initialize(service)
            _ = try await service.result("favorites/add", OfficialAlertTests.sarajevo)
            let resources = try await service.result("resources/list")["resources"]?.arrayValue?.compactMap(\.["uri"])
            #expect(resources?.contains("weather://warnings") == true)
            #expect(try await service.result("resources/subscribe", ["uri": "weather://warnings"]) == [:])
            let before = try await Self.tool(service, "get_alerts")
            #expect(Self.texts(before).first?.contains("0 alert(s)") == true)
            #expect(before["structuredContent"]?["warnings"]?.arrayValue?.first?["checked"] == false)

            let lines = service.output.lines.count
            _ = try await service.call("refresh", ["scope": "favorites"])
            await service.engine.drainBackground()
            #expect(await service.output.wait(for: lines + 2))
            let updates = try service.output.messages().filter { $0["method"] == "notifications/resources/updated" }
            #expect(updates.map { $0["params"]?["uri"] } == ["weather://warnings"], "one warnings.fetched, one update")

            let after = try await Self.tool(service, "get_alerts")
            let summary = try #require(Self.texts(after).first)
            #expect(summary.hasPrefix("1 alert(s) on this page, 1 of them official warnings."))
            #expect(summary.contains("Sarajevo: Wind Orange Warning (Severe)"))
            let structured = try #require(after["structuredContent"])
            #expect(structured["alerts"]?.arrayValue?.map { $0["origin"] } == ["official"])
            let place = try #require(structured["warnings"]?.arrayValue?.first)
            #expect(place["favoriteId"] == "fav-1")
            #expect(place["checked"] == true)
            #expect(place["attribution"] == "EUMETNET – MeteoAlarm")
            #expect(place["warnings"]?.arrayValue?.map { $0["id"] } == [.string(OfficialFixture.sarajevoWindUpdate)])

            let read = try await service.result("resources/read", ["uri": "weather://warnings"])
            let text = try #require(read["contents"]?.arrayValue?.first?["text"]?.stringValue)
            #expect(try JSONValue.parse(Array(text.utf8))["places"] == structured["warnings"])
        }
    }
}
