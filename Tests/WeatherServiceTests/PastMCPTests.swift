import Testing
import WeatherDomain
import WeatherTesting

@Suite("MCP: get_history and get_climate, in process")
struct PastMCPTests {
    @Test("get_history and get_climate begin with a one-line summary, and answer as their methods do")
    func tools() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/archive", query: "start_date=1940-01-01",
            InMemoryTransport.ok(try PastFixture.body(from: "1940-01-01", to: "2026-11-20", climate: true)))
        network.route(
            "/v1/archive", query: "start_date=2020-03-01",
            InMemoryTransport.ok(try PastFixture.body(from: "2020-03-01", to: "2020-03-03")))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 9)))
        let clock = ManualClock(start: try OfficialFixture.time("2026-11-27T11:00:00Z"))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await OfficialMCPTests.initialize(service)
            var arguments = PastFixture.enschede
            arguments["from"] = "2020-03-01"
            arguments["to"] = "2020-03-03"
            let history = try await OfficialMCPTests.tool(service, "get_history", .object(arguments))
            #expect(history["isError"] == nil)
            let summary = try #require(OfficialMCPTests.texts(history).first)
            #expect(summary.contains("2020-03-01 to 2020-03-03 (3 days)"), "\(summary)")
            #expect(history["structuredContent"]?["days"]?.arrayValue?.count == 3)

            let before = try await OfficialMCPTests.tool(service, "get_current_weather", .object(PastFixture.enschede))
            #expect(OfficialMCPTests.texts(before).first?.contains("normal") == false, "no climate cached: no call")
            #expect(PastFixture.archiveCalls(network).count == 1)

            let climate = try await OfficialMCPTests.tool(service, "get_climate", .object(PastFixture.enschede))
            let line = try #require(OfficialMCPTests.texts(climate).first)
            #expect(line.contains("Normal for 27 November"), "\(line)")
            #expect(line.contains("record high"))
            #expect(climate["structuredContent"]?["date"] == "2026-11-27")
            let after = try await OfficialMCPTests.tool(service, "get_current_weather", .object(PastFixture.enschede))
            let withNormal = try #require(OfficialMCPTests.texts(after).first)
            #expect(withNormal.contains("; today's high 12 °C is "), "\(withNormal)")
            #expect(withNormal.hasSuffix("normal for 27 November"), "\(withNormal)")
            #expect(PastFixture.archiveCalls(network).count == 2, "the summary reads the cached climate")

            arguments["from"] = "1939-01-01"
            let refused = try await service.call(
                "tools/call", ["name": "get_history", "arguments": .object(arguments)])
            #expect(refused["error"]?["code"] == -32602, "a date before 1940 is the caller's to fix")
            #expect(refused["error"]?["message"]?.stringValue?.contains("before 1940-01-01") == true)
        }
    }
}
