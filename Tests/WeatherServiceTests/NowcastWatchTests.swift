import Foundation
import Providers
import Synchronization
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

    @Test("a watch ends with its connection, at once: the pass under way asks no other place, and none after")
    func endsWithTheConnection() async throws {
        let body = try NowcastFixture.met()
        let network = InMemoryTransport()
        network.route(
            NowcastFixture.metPath, .held(InMemoryTransport.ok(body)), InMemoryTransport.ok(body))
        let clock = ManualClock(start: try OfficialFixture.time(NowcastFixture.tromsoTime))
        let service = try InProcessWeatherd(directory: TemporaryDataDirectory(), clock: clock, network: network)
        let places: [JSONValue] = [
            NowcastFixture.tromso, ["lat": 59.91, "lon": 10.75], ["lat": 60.39, "lon": 5.32],
            ["lat": 63.43, "lon": 10.4],
        ]
        for place in places { _ = try await service.result("nowcast/watch", place) }
        #expect(await eventually { service.engine.nowcastWatchers.watched.places.count == 4 })
        let pass = Task { await service.engine.refreshWatchedNowcasts(cause: "test") }
        #expect(await network.requests(atLeast: 1), "the first place's call is under way, held")

        // The client goes: its connection ends, and with it every watch it held, before anything else happens.
        await service.connection.finish(grace: .zero, cutShort: [])
        #expect(service.engine.nowcastWatchers.watched.places.isEmpty, "ended at once, not when its tasks notice")
        network.release()
        await pass.value
        #expect(Self.met(service) == 1, "the pass under way asked none of the other places")
        for _ in 0..<20 {
            clock.advance(by: .seconds(60))
            await service.engine.refreshWatchedNowcasts(cause: "test")
        }
        #expect(Self.met(service) == 1, "nor did any pass after")
        await service.stop()
    }

    @Test("a watch of a city no geocoder knows watches nothing, and stderr says why; the request is answered")
    func unknownCity() async throws {
        let network = InMemoryTransport()
        network.route("/v1/search", InMemoryTransport.ok(Array(#"{"results":[]}"#.utf8)))
        let lines = Mutex<[String]>([])
        let logger = Logger(level: .warning) { line in lines.withLock { $0.append(line) } }
        let service = try InProcessWeatherd(directory: TemporaryDataDirectory(), network: network, logger: logger)
        let answer = try await service.result("nowcast/watch", ["city": "Nowhereville"])
        #expect(answer["subscriptionId"]?.stringValue != nil)
        let said = {
            lines.withLock { $0.contains { $0.contains("a nowcast watch") && $0.contains("watches nothing") } }
        }
        #expect(await eventually { said() }, "\(lines.withLock { $0 })")
        #expect(service.engine.nowcastWatchers.watched.places.isEmpty)
        await service.stop()
    }

    @Test("a failing source backs off from its cadence, doubling; the answer says why in one sentence")
    func backoff() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "minutely_15=", InMemoryTransport.ok(Array(#"{"minutely_15":[]}"#.utf8)))
        let clock = ManualClock(start: try OfficialFixture.time("2026-10-03T10:35:00Z"))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            let quito: JSONValue = ["lat": -0.18, "lon": -78.47]
            let calls = { network.requests.filter { $0.contains("minutely_15=") }.count }
            let first = try await service.result("weather/nowcast", quito)
            #expect(first["covered"] == false)
            #expect(
                first["message"]?.stringValue
                    == "No nowcast source could answer for this place: met-norway serves Norway, Sweden, Finland "
                    + "and Denmark only; openweathermap needs One Call 3.0 (--provider openweathermap --owm-api "
                    + "onecall3); open-meteo sent a response weatherd cannot read ($.minutely_15 must be an object).")
            #expect(calls() == 1)

            _ = try await service.result("nowcast/watch", quito)
            #expect(await eventually { service.engine.nowcastWatchers.watched.places.count == 1 })
            // The watch looks every 30 s: Open-Meteo's cadence (15 min) passes before it is asked again, then
            // twice that, then four times.
            var seconds = 0
            var asked: [Int] = []
            while seconds < 7 * 900 {
                clock.advance(by: .seconds(30))
                seconds += 30
                let before = calls()
                await service.engine.refreshWatchedNowcasts(cause: "test")
                if calls() > before { asked.append(seconds) }
            }
            #expect(asked == [900, 2700, 6300], "\(asked)")

            let waiting = try await service.result("weather/nowcast", quito)
            #expect(
                waiting["message"]?.stringValue?.hasSuffix(
                    "open-meteo sent a response weatherd cannot read ($.minutely_15 must be an object); not asked "
                        + "again before 2026-10-03T13:20:00.000Z.") == true, "\(waiting)")
            #expect(calls() == 4, "asking in between makes no call either")
        }
    }
}
