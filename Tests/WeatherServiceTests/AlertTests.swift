import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("Alerts, in process")
struct AlertTests {
    static func pushed(_ service: InProcessWeatherd) throws -> [JSONValue] {
        try service.output.messages().filter { $0["method"] == "alerts/raised" }.compactMap { $0["params"] }
    }

    @Test("a subscribed client gets severe and temperature-drop alerts once; alerts/list has them")
    func pushes() async throws {
        let network = InMemoryTransport()
        let clock = ManualClock()
        network.route(
            "/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 21, code: 95)),
            InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 9, code: 95)))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            _ = try await service.result("favorites/add", ["name": "Storm Town", "lat": 10, "lon": 20])
            #expect(try await service.result("alerts/subscribe") == ["subscribed": true])
            _ = try await service.result("weather/current", ["favoriteId": "fav-1"])
            clock.advance(milliseconds: 11 * 60_000)
            _ = try await service.result("weather/current", ["favoriteId": "fav-1"])
            #expect(try await eventually { try Self.pushed(service).count >= 2 })
            let alerts = try Self.pushed(service)
            #expect(
                alerts.map { $0["rule"] } == ["severe", "temp_drop"], "severe once per local date, then the 12 °C drop")
            #expect(alerts.last?["details"]?["drop"] == 12.0)
            #expect(alerts.first?["favoriteId"] == "fav-1")
            let list = try await service.result("alerts/list")
            #expect(list["alerts"]?.arrayValue?.map { $0["rule"] } == ["temp_drop", "severe"])
            let raised = try await service.result("events/query", ["types": ["alert.raised"]])
            #expect(
                raised["events"]?.arrayValue?.allSatisfy { $0["cause"]?.stringValue?.hasPrefix("event:") == true }
                    == true)
        }
    }

    @Test("without a subscription nothing is pushed; a favorite with notify off raises nothing")
    func quiet() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 5, code: 99)))
        try await InProcessWeatherd.with(network: network) { service in
            _ = try await service.result("favorites/add", ["name": "A", "lat": 1, "lon": 1])
            _ = try await service.result("favorites/add", ["name": "B", "lat": 2, "lon": 2])
            _ = try await service.result("favorites/update", ["id": "fav-2", "notify": false])
            _ = try await service.result("weather/current", ["favoriteId": "fav-1"])
            _ = try await service.result("weather/current", ["favoriteId": "fav-2"])
            // The alert actor follows the log: once it has handled the last fetch, every alert is decided.
            await service.engine.alertsCaughtUp()
            let listed = try await service.result("alerts/list")["alerts"]?.arrayValue ?? []
            #expect(listed.map { $0["favoriteId"] } == ["fav-1"])
            #expect(try Self.pushed(service).isEmpty)
            #expect(try service.output.messages().allSatisfy { $0["id"] != nil })
        }
    }

    @Test("alerts/configure persists the settings and checks them")
    func configure() async throws {
        try await InProcessWeatherd.with { service in
            let settings = try await service.result(
                "alerts/configure", ["dailySummary": ["time": "07:15"], "tempDropC": 6, "commandId": "cfg"])
            #expect(settings["dailySummary"]?["time"] == "07:15")
            #expect(settings["tempDropC"] == 6.0)
            let bad = try await service.call("alerts/configure", ["dailySummary": ["time": "7:15"]])
            #expect(bad["error"]?["code"] == -32602)
            let verify = try await service.result("state/verify")
            #expect(verify["ok"] == true)
        }
    }

    @Test("the daily summary is raised by the once-a-minute check of the manual clock, once a local day")
    func dailySummaryTimer() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        // 12:00 UTC, 13:00 in the stand-in forecast's zone (UTC+1), on the forecast's first day.
        let clock = ManualClock(start: Timestamp(milliseconds: 1_795_348_800_000))
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, summaryCheckInterval: .seconds(60))
        _ = try await service.result("favorites/add", ["name": "Home", "lat": 52.52, "lon": 13.41])
        _ = try await service.result("weather/forecast", ["lat": 52.52, "lon": 13.41])
        _ = try await service.result("alerts/configure", ["dailySummary": ["time": "08:00"]])
        let summaries = {
            try await service.result("alerts/list")["alerts"]?.arrayValue?.filter { $0["rule"] == "daily_summary" }
                ?? []
        }
        await clock.timerArmed(.seconds(60))
        #expect(try await summaries().isEmpty, "nothing before the check")
        clock.advance(by: .seconds(60))
        await clock.timerArmed(.seconds(60))
        let raised = try await summaries()
        #expect(raised.count == 1)
        #expect(raised.first?["favoriteId"] == "fav-1")
        #expect(raised.first?["localDate"] == "2026-11-22")
        clock.advance(by: .seconds(60))
        await clock.timerArmed(.seconds(60))
        #expect(try await summaries().count == 1, "once a local day")
        let events = try await service.result("events/query", ["types": ["alert.raised"]])
        #expect(events["events"]?.arrayValue?.map { $0["cause"] } == ["timer:daily_summary"])
        await service.stop()
    }
}
