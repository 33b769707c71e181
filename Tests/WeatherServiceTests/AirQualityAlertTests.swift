import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("The air_quality alert rule, on a manual warnings timer")
struct AirQualityAlertTests {
    static func airQualityAlerts(_ service: InProcessWeatherd) async throws -> [JSONValue] {
        try await service.result("alerts/list")["alerts"]?.arrayValue?.filter { $0["rule"] == "air_quality" } ?? []
    }

    @Test("off by default; once configured, raised once a local day when the European AQI reaches the level")
    func rule() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/air-quality", InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-airquality-vienna-pollen")))
        network.route("/points/48.2,16.4", InMemoryTransport.status(404, #"{"title":"Data Unavailable"}"#))
        network.route("/sources/area_status", WorldFixture.feeds("AT"))
        network.route("/alert/area", WorldFixture.ids([]))
        let clock = ManualClock(start: try OfficialFixture.time("2025-05-10T11:50:00Z"))
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, fetch: OfficialFixture.quick,
            warningsInterval: .seconds(600))
        _ = try await service.result("favorites/add", ["name": "Vienna", "lat": 48.2, "lon": 16.4])
        await clock.timerArmed(.seconds(600))
        await OfficialAlertTests.tick(clock)
        #expect(try await Self.airQualityAlerts(service).isEmpty)
        #expect(
            network.requests.allSatisfy { $0.hasPrefix("http://nws.test/") || $0.hasPrefix("http://fpas.test/") },
            "with the rule off only the warning sources are asked: \(network.requests)")
        #expect(
            network.requests.first == "http://nws.test/points/48.2,16.4",
            "NWS is asked first whether it covers the favorite, which has no country; it does not")

        let settings = try await service.result(
            "alerts/configure", ["airQuality": ["enabled": true, "level": "moderate"]])
        #expect(settings["airQuality"] == ["enabled": true, "level": "moderate"])
        #expect(
            try await service.call("alerts/configure", ["airQuality": ["level": "awful"]])["error"]?["code"] == -32602)
        await OfficialAlertTests.tick(clock)
        let raised = try await Self.airQualityAlerts(service)
        #expect(raised.count == 1)
        let alert = try #require(raised.first)
        #expect(alert["origin"] == "forecast", "derived by weatherd, not an official warning")
        #expect(alert["details"]?["level"] == "moderate", "European AQI 41 at local 21:00 is the first moderate hour")
        #expect(alert["details"]?["europeanAqi"] == 41.0)
        #expect(alert["details"]?["time"] == "2025-05-10T19:00:00.000Z")
        #expect(alert["message"]?.stringValue?.contains("expected") == true)

        await OfficialAlertTests.tick(clock, by: .seconds(3600))
        #expect(try await Self.airQualityAlerts(service).count == 1, "once per local date")
        #expect(
            network.requests.filter { $0.contains("/v1/air-quality") }.count == 2,
            "air quality is asked again once the hour's cache is over")
        #expect(network.requests.filter { $0.contains("/points/") }.count == 1, "the point's coverage is kept")
        #expect(try await service.result("state/verify")["ok"] == true)
        await service.stop()
    }

    @Test("the values now at or above the level are raised as now", arguments: [("fair", true), ("poor", false)])
    func now(level: String, raised: Bool) {
        var state = AlertState()
        state.apply(.alertsConfigured(Self.settings(level)))
        let place = Place(name: "Vienna", country: "AT", state: nil, lat: 48.2, lon: 16.4)
        let now = Timestamp(milliseconds: 1_746_878_400_000)
        let report = AirQualityReport(
            place: place, current: AirQualityEntry(time: now, europeanAqi: 38), hourly: [])
        let events = AirQualityAlerts.decide(
            state, target: AlertTarget(place: place, favoriteId: "fav-1"), report: report, zone: .fixed(7200),
            now: now)
        #expect(events.count == (raised ? 1 : 0))
        if case .alertRaised(let alert)? = events.first {
            #expect(alert.message == "Vienna: air quality fair now (European AQI 38).")
            #expect(alert.localDate == "2025-05-10")
        }
    }

    static func settings(_ level: String) -> AlertSettings {
        var settings = AlertSettings()
        settings.airQualityEnabled = true
        settings.airQualityLevel = EuropeanAQILevel(rawValue: level) ?? .poor
        return settings
    }
}
