import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

/// The nowcast refreshed while watched: on the manual clock, each refresh run by the test.
@Suite("Nowcasts refreshed only while watched; changes recorded; the nowcast rule raised once per transition")
struct NowcastWatchTests {
    static let tromso: JSONValue = ["name": "Tromsø", "lat": 69.68, "lon": 18.94]

    /// MET Norway answering `bodies` in turn, each valid for 5 minutes from the clock's time at the call.
    static func network(_ bodies: [[UInt8]]) -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route(NowcastFixture.metPath, replies: bodies.map { InMemoryTransport.ok($0) })
        return network
    }

    static func met(_ service: InProcessWeatherd) -> Int {
        service.network.requests.filter { $0.contains("met.test") }.count
    }

    @Test("nothing watched: no call; ten watches of one place: one call per cadence, and none once they end")
    func sharedAndOnlyWhileWatched() async throws {
        let bodies = try (0..<4).map { _ in try NowcastFixture.met() }
        let clock = ManualClock(start: try OfficialFixture.time(NowcastFixture.tromsoTime))
        try await InProcessWeatherd.with(clock: clock, network: Self.network(bodies)) { service in
            await service.engine.refreshWatchedNowcasts(cause: "test")
            #expect(service.network.requests.isEmpty, "no watcher, no call")
            for _ in 0..<10 { _ = try await service.result("nowcast/watch", NowcastFixture.tromso) }
            #expect(await eventually { service.engine.nowcastWatchers.watched.places.count == 10 })
            await service.engine.refreshWatchedNowcasts(cause: "test")
            #expect(Self.met(service) == 1)
            clock.advance(by: .seconds(60))
            await service.engine.refreshWatchedNowcasts(cause: "test")
            #expect(Self.met(service) == 1, "not due within the cadence")
            clock.advance(by: .seconds(5 * 60))
            await service.engine.refreshWatchedNowcasts(cause: "test")
            #expect(Self.met(service) == 2, "due after 5 min and the place's jitter (under a minute)")
            _ = try await service.result("events/unsubscribe")
            #expect(await eventually { service.engine.nowcastWatchers.watched.places.isEmpty })
            clock.advance(by: .seconds(10 * 60))
            await service.engine.refreshWatchedNowcasts(cause: "test")
            #expect(Self.met(service) == 2, "no call once nothing watches")
        }
    }

    @Test("the nowcast rule: one alert per transition, debounced 15 min, none for dry; once across a restart")
    func rule() async throws {
        // 21:07 rain at 21:20 (starting: an alert); 21:13 dry (no alert); 21:19 starting again (12 min after the
        // alert: debounced); 21:37 stopping (an alert); a restart; 21:43 still stopping (nothing new).
        let stopping: [Double] = [0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0]
        let bodies = [
            try NowcastFixture.met(rates: [0, 0, 0, 1.2, 1.2]), try NowcastFixture.met(rates: [0, 0, 0, 0, 0, 0]),
            try NowcastFixture.met(rates: [0, 0, 0, 0, 1.5]), try NowcastFixture.met(rates: stopping),
            try NowcastFixture.met(rates: stopping),
        ]
        let clock = ManualClock(start: try OfficialFixture.time(NowcastFixture.tromsoTime))
        let directory = TemporaryDataDirectory()
        let network = Self.network(bodies)
        var service = try InProcessWeatherd(directory: directory, clock: clock, network: network)
        _ = try await service.result("favorites/add", Self.tromso)
        _ = try await service.result("alerts/configure", ["nowcast": true])
        for advance in [0, 6, 6, 18, 6] {
            clock.advance(by: .seconds(Int64(advance) * 60))
            if advance == 6, Self.met(service) == 4 {
                await service.stop()
                service = try InProcessWeatherd(directory: directory, clock: clock, network: network)
            }
            await service.engine.refreshWatchedNowcasts(cause: "test")
            await service.engine.alertsCaughtUp()
        }
        let changes = try await OfficialFixture.events(service, ["nowcast.changed"])
        #expect(changes.map { $0["data"]?["state"] } == ["starting", "dry", "starting", "stopping"])
        #expect(changes.first?["data"]?["from"] == nil)
        #expect(changes.last?["data"]?["from"] == "starting")
        let alerts = try await service.result("alerts/list")["alerts"]?.arrayValue ?? []
        let raised = alerts.filter { $0["rule"] == "nowcast" }.map { $0["message"]?.stringValue ?? "" }
        #expect(
            raised == [
                "Tromsø: Moderate precipitation stopping in about 8 min.",
                "Tromsø: Light precipitation starting in about 15 min, easing off around 21:30.",
            ], "most recent first")
        #expect(Self.met(service) == 5)
        await service.stop()
    }
}
