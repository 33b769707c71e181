import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@testable import WeatherCLI

@Suite("weatherd alerts: every line names its place and the setting of the rule that raised it")
struct AlertsLineTests {
    @Test(
        "the same temperature drop at two places is two lines, each with its place and the threshold, in the reader's units"
    )
    func places() async throws {
        let network = InMemoryTransport()
        let clock = ManualClock()
        for latitude in ["latitude=51.5", "latitude=48.85"] {
            network.route(
                "/v1/forecast", query: latitude, InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 21)),
                InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 9)))
        }
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            _ = try await service.result("favorites/add", ["name": "London", "lat": 51.5, "lon": -0.12])
            _ = try await service.result("favorites/add", ["name": "Paris", "lat": 48.85, "lon": 2.35])
            _ = try await service.result("alerts/configure", ["tempDropC": 6])
            for id in ["fav-1", "fav-2"] {
                _ = try await service.result("weather/current", ["favoriteId": .string(id)])
            }
            clock.advance(milliseconds: 11 * 60_000)
            for id in ["fav-1", "fav-2"] {
                _ = try await service.result("weather/current", ["favoriteId": .string(id)])
            }
            await service.engine.alertsCaughtUp()

            let alerts = try await service.result("alerts/list")["alerts"]?.arrayValue ?? []
            let rows = alerts.map(AlertsCommand.row)
            #expect(rows.count == 2)
            #expect(rows.map { $0[1] }.sorted() == ["London", "Paris"], "each line names its place: \(rows)")
            #expect(rows.allSatisfy { $0[2] == "temp_drop (> 6 °C)" }, "\(rows)")
            #expect(rows.allSatisfy { $0[3] == "The temperature fell 12 °C, to 9 °C." }, "\(rows)")

            let imperial = try await service.result("alerts/list", ["units": "imperial"])["alerts"]?.arrayValue ?? []
            #expect(imperial.map(AlertsCommand.rule) == ["temp_drop (> 10.8 °F)", "temp_drop (> 10.8 °F)"])
        }
    }

    @Test("an alert raised before the threshold was recorded shows its rule alone; air quality shows its level")
    func olderAlerts() throws {
        let older = try JSONValue.parse(
            #"{"id":"alert-1","rule":"temp_drop","place":{"lat":52.52,"lon":13.41},"raisedAt":"2026-11-27T06:00:00.000Z","#
                + #""message":"The temperature fell 11 °C, to 2 °C.","details":{"drop":11,"temperature":2}}"#)
        #expect(
            AlertsCommand.row(older) == [
                "2026-11-27T06:00:00.000Z", "52.52,13.41", "temp_drop", "The temperature fell 11 °C, to 2 °C.",
            ])
        let air: JSONValue = ["rule": "air_quality", "details": ["threshold": "poor", "level": "very_poor"]]
        #expect(AlertsCommand.rule(air) == "air_quality (≥ poor)")
    }
}
