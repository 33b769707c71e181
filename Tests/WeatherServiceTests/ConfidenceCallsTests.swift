import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("weather/confidence's calls: joined while in flight, and MET Norway's own percentiles through the engine")
struct ConfidenceCallsTests {
    @Test("ten asks while the ensemble's answer is held share its one call, and all get the same days")
    func joined() async throws {
        let network = ConfidenceFixture.network()
        network.route("/v1/ensemble", .held(InMemoryTransport.ok(ConfidenceFixture.ensemble())))
        let clock = ManualClock(start: try OfficialFixture.time(ConfidenceFixture.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            for id in 0..<10 {
                let request: JSONValue = [
                    "jsonrpc": "2.0", "id": .string("c\(id)"), "method": "weather/confidence",
                    "params": .object(ConfidenceFixture.berlin),
                ]
                await service.receive(request.jsonBytes)
            }
            #expect(await network.requests(atLeast: 1))
            network.release()
            #expect(await service.output.wait(for: 10))
            let answers = try service.output.messages()
            let days = answers.map { $0["result"]?["days"] }
            #expect(days.count == 10 && days.allSatisfy { $0 != nil && $0 == days.first })
            #expect(ConfidenceFixture.calls(network, "/v1/ensemble").count == 1)
            let fetched = try await OfficialFixture.events(service, ["ensemble.fetched"])
            #expect(fetched.count == 1, "one call, one event")
        }
    }

    static let path = "/weatherapi/locationforecast/2.0/complete"

    @Test("with MET Norway as the provider its percentiles serve: each day's band against the body read directly")
    func metNorway() async throws {
        let body = try OfficialFixture.bytes("metno-locationforecast-complete-59n10e-alt63-20220518")
        let network = InMemoryTransport()
        network.route(Self.path, InMemoryTransport.ok(body))
        let clock = ManualClock(start: try OfficialFixture.time("2022-05-18T21:00:00Z"))
        let service = try MetNorwayTests.service(
            network: network, directory: TemporaryDataDirectory(), clock: clock, zones: MetNorwayTests.oslo)
        do {
            try await Self.exercise(service, network: network, body: body)
        } catch {
            await service.stop()
            throw error
        }
        await service.stop()
    }

    /// Asks for the spread at MET Norway's recorded point and checks it against `body` read directly.
    static func exercise(_ service: InProcessWeatherd, network: InMemoryTransport, body: [UInt8]) async throws {
        let answer = try await service.result("weather/confidence", ["lat": 59, "lon": 10])
        #expect(answer["method"] == "percentiles" && answer["model"] == "met-norway")
        #expect(answer["members"] == nil)
        #expect(network.requests.count == 1 && network.requests.allSatisfy { $0.contains(Self.path) })
        #expect(answer["spread"]?.stringValue?.contains("MET Norway's own 10th and 90th percentiles") == true)
        let day = try #require(answer["days"]?.arrayValue?.first { $0["date"] == "2022-05-19" })
        let steps = try MetNorwaySpreadCallsTests.expectPercentiles(of: day, in: body)
        #expect(day["high"]?["p50"] == nil && day["members"] == nil, "no median, no members counted")
        let highs = (try #require(steps.map(\.p10).max()), try #require(steps.map(\.p90).max()))
        let lows = (try #require(steps.map(\.p10).min()), try #require(steps.map(\.p90).min()))
        let width = max(highs.1 - highs.0, lows.1 - lows.0)
        let wet = try #require(day["wet"]?.doubleValue)
        // The documented thresholds: 6 °C or 35–65 % wet is low; 3 °C and at most 20 % or at least 80 % high.
        let label =
            width >= 6 || (0.35...0.65).contains(wet)
            ? "low" : width <= 3 && (wet <= 0.2 || wet >= 0.8) ? "high" : "medium"
        #expect(day["label"] == .string(label), "width \(width), wet \(wet)")
        _ = try await service.result("weather/confidence", ["lat": 59, "lon": 10, "days": 2])
        #expect(network.requests.count == 1, "the cache serves the next ask")
    }
}
