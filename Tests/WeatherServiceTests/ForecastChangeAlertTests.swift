import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("The forecast_change alert rule: once per change, against what was last told, across restarts")
struct ForecastChangeAlertTests {
    typealias Day = ChangesFixture.Day

    /// Five fetches of Berlin: Thursday 08:00 and 20:00 (Saturday 4 to 14 °C, 20 %), Friday 09:00 and 21:00
    /// (2.5 to 9 °C, 70 %), Friday 22:00 (high 5 °C, 30 %).
    static func network() throws -> InMemoryTransport {
        let thursday = ["2026-11-28": Day(low: 4, high: 14, pop: 20)]
        let friday = ["2026-11-28": Day(low: 2.5, high: 9, pop: 70, code: 61)]
        let later = ["2026-11-28": Day(low: 2.5, high: 5, pop: 30, code: 61)]
        let network = InMemoryTransport()
        network.route(
            "/v1/forecast", query: "hourly=",
            replies: try [
                ChangesFixture.body(fetched: "2026-11-26", thursday),
                ChangesFixture.body(fetched: "2026-11-26", thursday),
                ChangesFixture.body(fetched: "2026-11-27", friday), ChangesFixture.body(fetched: "2026-11-27", friday),
                ChangesFixture.body(fetched: "2026-11-27", later),
            ].map { InMemoryTransport.ok($0) })
        return network
    }

    static func fetch(_ service: InProcessWeatherd, thenAdvanceHours hours: Int64) async throws {
        _ = try await service.result("weather/forecast", .object(ChangesFixture.berlin))
        await service.engine.alertsCaughtUp()
        service.clock.advance(milliseconds: hours * 3_600_000)
    }

    static func raised(_ service: InProcessWeatherd, units: String = "metric") async throws -> [JSONValue] {
        let alerts = try await service.result("alerts/list", ["units": .string(units)])["alerts"]?.arrayValue ?? []
        return alerts.filter { $0["rule"] == "forecast_change" }
    }

    @Test("a change begun before a restart is told after it, once; the next is measured from what was told")
    func acrossRestarts() async throws {
        let directory = TemporaryDataDirectory()
        let network = try Self.network()
        let clock = ManualClock(start: try OfficialFixture.time(ForecastChangesLogTests.start))
        var service = try InProcessWeatherd(directory: directory, clock: clock, network: network)
        _ = try await service.result("favorites/add", ["name": "Berlin", "lat": 52.52, "lon": 13.41])
        _ = try await service.result(
            "alerts/configure", ["forecastChange": true, "severe": false, "dailySummary": ["enabled": false]])
        try await Self.fetch(service, thenAdvanceHours: 12)
        try await Self.fetch(service, thenAdvanceHours: 13)
        #expect(try await Self.raised(service).isEmpty, "the same forecast twice")
        await service.stop()

        service = try InProcessWeatherd(directory: directory, clock: clock, network: network)
        try await Self.fetch(service, thenAdvanceHours: 12)
        var raised = try await Self.raised(service)
        #expect(raised.count == 1, "Thursday's forecast, found in the log after the restart, is the baseline")
        #expect(
            raised.first?["message"]?.stringValue
                == "Berlin: Tomorrow's high has dropped from 14 °C to 9 °C since yesterday; its low has dropped from "
                + "4 °C to 2.5 °C; rain chance up from 20 % to 70 %.")
        #expect(raised.first?["details"]?["date"] == "2026-11-28")
        #expect(raised.first?["localDate"] == "2026-11-27")
        await service.stop()

        service = try InProcessWeatherd(directory: directory, clock: clock, network: network)
        try await Self.fetch(service, thenAdvanceHours: 1)
        #expect(try await Self.raised(service).count == 1, "the told forecast again: nothing new")
        try await Self.fetch(service, thenAdvanceHours: 1)
        raised = try await Self.raised(service)
        #expect(raised.count == 2)
        #expect(
            raised.first?["message"]?.stringValue
                == "Berlin: Tomorrow's high has dropped from 9 °C to 5 °C since earlier today; rain chance down from "
                + "70 % to 30 %.", "measured from the 9 °C it told of, most recent first")
        let imperial = try await Self.raised(service, units: "imperial")
        #expect(
            imperial.first?["message"]?.stringValue
                == "Berlin: Tomorrow's high has dropped from 48.2 °F to 41 °F since earlier today; rain chance down "
                + "from 70 % to 30 %.")
        #expect(imperial.first?["details"]?["previousHigh"] == 48.2)
        let events = try await OfficialFixture.events(service, ["alert.raised", "alerts.configured"])
        #expect(events.count == 3)
        await service.stop()
        _ = try await onThread {
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: directory.path)
        }
    }

    @Test("a baseline fetched the day the date came within three days is found in the log after a restart")
    func baselineFromThreeDaysBefore() async throws {
        let directory = TemporaryDataDirectory()
        let network = InMemoryTransport()
        network.route(
            "/v1/forecast", query: "hourly=",
            replies: try [
                ChangesFixture.body(fetched: "2026-11-25", ["2026-11-28": Day(low: 4, high: 14, pop: 20)]),
                ChangesFixture.body(fetched: "2026-11-27", ["2026-11-28": Day(low: 2.5, high: 9, pop: 70, code: 61)]),
            ].map { InMemoryTransport.ok($0) })
        let clock = ManualClock(start: try OfficialFixture.time("2026-11-25T08:00:00Z"))
        var service = try InProcessWeatherd(directory: directory, clock: clock, network: network)
        _ = try await service.result("favorites/add", ["name": "Berlin", "lat": 52.52, "lon": 13.41])
        _ = try await service.result(
            "alerts/configure", ["forecastChange": true, "severe": false, "dailySummary": ["enabled": false]])
        try await Self.fetch(service, thenAdvanceHours: 48)
        await service.stop()
        service = try InProcessWeatherd(directory: directory, clock: clock, network: network)
        try await Self.fetch(service, thenAdvanceHours: 0)
        let raised = try await Self.raised(service)
        #expect(
            raised.map { $0["message"]?.stringValue ?? "" } == [
                "Berlin: Tomorrow's high has dropped from 14 °C to 9 °C since Wednesday; its low has dropped from "
                    + "4 °C to 2.5 °C; rain chance up from 20 % to 70 %."
            ], "Wednesday's forecast of Saturday, three days ahead, is the baseline")
        await service.stop()
    }

    @Test("off unless configured: the same fetches raise nothing")
    func offByDefault() async throws {
        let network = try Self.network()
        let clock = ManualClock(start: try OfficialFixture.time(ForecastChangesLogTests.start))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            _ = try await service.result("favorites/add", ["name": "Berlin", "lat": 52.52, "lon": 13.41])
            for hours in [12, 13, 12] as [Int64] { try await Self.fetch(service, thenAdvanceHours: hours) }
            #expect(try await Self.raised(service).isEmpty)
            #expect(try await service.result("alerts/configure", ["forecastChange": true])["forecastChange"] == true)
        }
    }

    @Test(
        "news: 3 °C either way on the high or low, or the chance crossing 50 %",
        arguments: [
            (Day(low: 4, high: 11.1, pop: 20), false), (Day(low: 4, high: 11, pop: 20), true),
            (Day(low: 7, high: 14, pop: 20), true), (Day(low: 4, high: 14, pop: 49), false),
            (Day(low: 4, high: 14, pop: 50), true),
        ])
    func news(_ now: Day, _ expected: Bool) {
        let day = { (d: Day) in
            DailySummary(date: "2026-11-28", min: d.low, max: d.high, pop: Double(d.pop) / 100, condition: .wmo(3))
        }
        #expect(ForecastChangeAlerts.isNews(from: day(Day(low: 4, high: 14, pop: 20)), to: day(now)) == expected)
    }
}
