import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@testable import WeatherCLI

@Suite("Staleness: one rule marks a stale answer alike in every face")
struct StalenessTests {
    @Test(
        "a current weather and a forecast served stale 2 h 5 min after their fetch read the same in now, forecast and MCP"
    )
    func everyFace() async throws {
        let network = InMemoryTransport()
        let offline = InMemoryTransport.Reply.failure(TransportError(.offline, "connection refused"))
        network.route(
            "/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 4.4)), offline)
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()), offline)
        let clock = ManualClock()
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: .inProcess) { service in
            try await MCPResultTests.initialize(service)
            let place: JSONValue = ["lat": 52.52, "lon": 13.41]
            _ = try await service.result("weather/current", place)
            _ = try await service.result("weather/forecast", place)
            clock.advance(milliseconds: 125 * 60_000)
            let now = clock.timestamp()
            let current = try await service.result("weather/current", place)
            let forecast = try await service.result("weather/forecast", place)
            #expect(current["stale"] == true && forecast["stale"] == true)

            #expect(Staleness.mark(current, now: now) == "stale, 2 h 5 min old")
            #expect(Staleness.mark(forecast, now: now) == "stale, 2 h 5 min old")
            let plain = Output(isTerminal: false, environment: [:]) { _, _ in true }
            #expect(plain.staleMark(current, now: now) == " (stale, 2 h 5 min old)", "weatherd now")
            let heading = ForecastPage(forecast).heading(now: now, output: plain)
            #expect(heading.hasSuffix(" (stale, 2 h 5 min old)"), "weatherd forecast: \(heading)")
            for (tool, label) in [("get_current_weather", "current"), ("get_forecast", "forecast")] {
                let result = try await MCPResultTests.tool(service, tool, place)
                let summary = try MCPResultTests.expectUniform(result, label)
                #expect(summary.hasSuffix(", stale, 2 h 5 min old"), "\(tool): \(summary)")
            }
            #expect(plain.staleMark(["stale": false, "fetchedAt": "2026-11-22T12:00:00.000Z"], now: now).isEmpty)
        }
    }

    @Test("ages: seconds, minutes, hours and minutes, days and hours; an answer without fetchedAt is only stale")
    func ages() {
        #expect(Staleness.age(seconds: 45.9) == "45 s")
        #expect(Staleness.age(seconds: 12 * 60 + 59) == "12 min")
        #expect(Staleness.age(seconds: 2 * 3600 + 5 * 60) == "2 h 5 min")
        #expect(Staleness.age(seconds: 3 * 86_400 + 4 * 3600 + 59) == "3 d 4 h")
        #expect(Staleness.age(seconds: -3) == "0 s")
        #expect(Staleness.mark(["stale": true], now: Timestamp(milliseconds: 0)) == "stale")
        #expect(Staleness.mark(nil, now: Timestamp(milliseconds: 0)) == nil)
    }
}
