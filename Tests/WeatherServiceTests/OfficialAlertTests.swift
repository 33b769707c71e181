import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("The official alert rule, on a manual warnings timer")
struct OfficialAlertTests {
    static let sarajevo: JSONValue = ["name": "Sarajevo", "lat": 43.86, "lon": 18.41, "country": "BA"]
    static let feedPath = "/api/v1/warnings/feeds-bosnia-herzegovina"

    /// The official alerts listed, most recent first.
    static func official(_ service: InProcessWeatherd) async throws -> [JSONValue] {
        try await service.result("alerts/list")["alerts"]?.arrayValue?.filter { $0["rule"] == "official" } ?? []
    }

    /// Moves the clock one warnings interval (or `step`) on and waits until the check it starts is over: the warnings
    /// timer is armed for the next interval.
    static func tick(_ clock: ManualClock, by step: Duration = .seconds(600)) async {
        clock.advance(by: step)
        await clock.timerArmed(.seconds(600))
    }

    /// The update of the Sarajevo wind warning, updated once more at the same severity.
    static func secondUpdate() throws -> JSONValue {
        let feed = try JSONValue.parse(try OfficialFixture.updatesFeed([1]))
        let text = feed.jsonString
            .replacingOccurrences(of: "BA.240106120000.10000002\"", with: "BA.240106180000.10000009\"")
            .replacingOccurrences(
                of: "BA.240106080000.10000001,2024-01-06T08:00:00+01:00",
                with: "BA.240106120000.10000002,2024-01-06T12:00:00+01:00"
            )
            .replacingOccurrences(
                of: "2024-01-06T12:00:00+01:00\",\"status", with: "2024-01-06T18:00:00+01:00\",\"status")
        return try #require(try JSONValue.parse(Array(text.utf8))["warnings"]?.arrayValue?.first)
    }

    @Test("one official alert per warning across checks and a restart, again when an update raises its severity")
    func oncePerWarning() async throws {
        let directory = TemporaryDataDirectory()
        let clock = ManualClock(start: try OfficialFixture.time("2024-01-06T09:30:00Z"))
        let network = InMemoryTransport()
        network.route(Self.feedPath, InMemoryTransport.ok(try OfficialFixture.updatesFeed([0])))
        let first = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, fetch: OfficialFixture.quick,
            warningsInterval: .seconds(600))
        _ = try await first.result("favorites/add", Self.sarajevo)
        #expect(try await first.result("alerts/subscribe") == ["subscribed": true])
        await clock.timerArmed(.seconds(600))
        #expect(try await Self.official(first).isEmpty, "nothing before the first check")

        await Self.tick(clock)
        let raised = try await Self.official(first)
        #expect(raised.count == 1)
        let alert = try #require(raised.first)
        #expect(alert["origin"] == "official")
        #expect(alert["favoriteId"] == "fav-1")
        #expect(alert["details"]?["warning"]?["id"] == .string(OfficialFixture.sarajevoWind))
        #expect(alert["details"]?["attribution"] == "EUMETNET – MeteoAlarm")
        let pushed = try first.output.messages().filter { $0["method"] == "alerts/raised" }
        #expect(pushed.map { $0["params"]?["id"] } == [alert["id"]], "pushed as alerts/raised")
        let fetched = try await OfficialFixture.events(first, ["warnings.fetched"])
        #expect(fetched.allSatisfy { $0["cause"] == "timer:warnings" })

        await Self.tick(clock)
        #expect(try await Self.official(first).count == 1, "the same warning is not raised twice")
        #expect(try await OfficialFixture.events(first, ["warnings.fetched"]).count == 2, "it was checked again")

        network.route(Self.feedPath, InMemoryTransport.ok(try OfficialFixture.updatesFeed([0, 1])))
        await Self.tick(clock, by: .seconds(2 * 3600 + 600))
        let updated = try await Self.official(first)
        #expect(updated.count == 2, "the update raised the severity")
        #expect(updated.first?["details"]?["warning"]?["id"] == .string(OfficialFixture.sarajevoWindUpdate))
        #expect(updated.first?["details"]?["firstId"] == .string(OfficialFixture.sarajevoWind))
        #expect(updated.first?["message"]?.stringValue?.contains("raised from Moderate to Severe") == true)
        await first.stop()

        let second = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, fetch: OfficialFixture.quick,
            warningsInterval: .seconds(600))
        await clock.timerArmed(.seconds(600))
        await Self.tick(clock)
        #expect(try await Self.official(second).count == 2, "nothing is raised again after a restart")

        network.route(
            Self.feedPath,
            InMemoryTransport.ok(JSONValue.object(["warnings": .array([try Self.secondUpdate()])]).jsonBytes))
        await Self.tick(clock)
        #expect(
            try await OfficialFixture.events(second, ["warnings.fetched"]).last?["data"]?["warnings"]?.arrayValue?
                .first?[
                    "id"] == "2.49.0.0.70.0.BA.240106180000.10000009")
        #expect(try await Self.official(second).count == 2, "an update at the same severity raises nothing")
        #expect(try await second.result("state/verify")["ok"] == true)
        await second.stop()
    }

    @Test("checked after a refresh too; off with alerts/configure official false; notify off raises nothing")
    func afterRefresh() async throws {
        let clock = ManualClock(start: try OfficialFixture.time("2024-01-06T09:30:00Z"))
        let network = InMemoryTransport()
        network.route(Self.feedPath, InMemoryTransport.ok(try OfficialFixture.updatesFeed([0, 2])))
        network.route("/v1/forecast", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 3)))
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            _ = try await service.result("favorites/add", Self.sarajevo)
            _ = try await service.result(
                "favorites/add", ["name": "Tuzla", "lat": 44.54, "lon": 18.67, "country": "BA"])
            _ = try await service.result("favorites/update", ["favorite": "Tuzla", "notify": false])
            #expect(try await service.result("alerts/subscribe") == ["subscribed": true])
            let lines = service.output.lines.count
            _ = try await service.call("refresh", ["scope": "favorites"])
            #expect(await service.output.wait(for: lines + 2), "the refresh's answer and one alert")
            await service.engine.drainBackground()
            let raised = try await Self.official(service)
            #expect(raised.map { $0["favoriteId"] } == ["fav-1"], "Sarajevo's warning; Tuzla has alerts off")
            #expect(raised.first?["details"]?["warning"]?["id"] == .string(OfficialFixture.sarajevoWind))
            let cause = try await OfficialFixture.events(service, ["alert.raised"]).first?["cause"]?.stringValue
            #expect(cause?.hasPrefix("stdio/rpc:") == true, "caused by the refresh request")

            _ = try await service.result("alerts/configure", ["official": false])
            _ = try await service.result("favorites/update", ["favorite": "Tuzla", "notify": true])
            network.route(Self.feedPath, InMemoryTransport.ok(try OfficialFixture.updatesFeed([0, 1, 2])))
            clock.advance(milliseconds: 6 * 60_000)
            _ = try await service.call("refresh", ["scope": "favorites"])
            await service.engine.drainBackground()
            #expect(try await Self.official(service).count == 1, "the rule is off")
        }
    }
}
