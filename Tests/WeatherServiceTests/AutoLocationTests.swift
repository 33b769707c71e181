import Foundation
import Providers
import Synchronization
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Auto-location in process: GeoClue's fix or the time zone's city, recorded with its source, replaced by a move")
struct AutoLocationTests {
    /// A time zone table as the database's `zone.tab` has it, and a link as `tzdata.zi` has it.
    static let cities: @Sendable () -> (table: ZoneTable, links: [String: String]) = {
        (
            ZoneTable(
                tab: "DE\t+5230+01322\tEurope/Berlin\nNO\t+5955+01045\tEurope/Oslo\nIN\t+2232+08822\tAsia/Kolkata\n"),
            ZoneTable.links(zi: "L Asia/Kolkata Asia/Calcutta\n")
        )
    }

    /// Where a stand-in location service says the machine is; nil: it finds nothing. Counts the times asked.
    final class Whereabouts: Sendable {
        private let state = Mutex<(fix: ServiceFix?, asked: Int)>((nil, 0))

        init(_ fix: ServiceFix?) { state.withLock { $0.fix = fix } }

        var asked: Int { state.withLock { $0.asked } }

        func move(to fix: ServiceFix?) { state.withLock { $0.fix = fix } }

        func locate() throws -> ServiceFix {
            let fix = state.withLock { state in
                state.asked += 1
                return state.fix
            }
            guard let fix else { throw AutoLocationFailure("GeoClue is not running on the system bus") }
            return fix
        }
    }

    static func locator(_ whereabouts: Whereabouts, zone: String? = "Europe/Berlin") -> AutoLocator {
        AutoLocator(service: { _, _ in try whereabouts.locate() }, timeZone: { zone }, cities: cities)
    }

    static func network() -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 9)))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        return network
    }

    /// The log lines the engine writes, kept.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var logger: Logger { Logger(level: .debug) { line in self.lines.withLock { $0.append(line) } } }
    }

    static func events(_ service: InProcessWeatherd, _ type: String) async throws -> [JSONValue] {
        try await service.result("events/query", ["types": [.string(type)]])["events"]?.arrayValue ?? []
    }

    @Test("off unless asked: without autoLocation, location/get and weather/current answer no_location, asking nothing")
    func offByDefault() async throws {
        let whereabouts = Whereabouts(ServiceFix(lat: 52.516_275, lon: 13.377_704, accuracyM: 4000))
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, network: Self.network(), autoLocator: Self.locator(whereabouts))
        #expect(try await service.call("location/get")["error"]?["data"]?["kind"] == "no_location")
        #expect(
            try await service.call("location/get", ["autoLocation": false])["error"]?["data"]?["kind"] == "no_location")
        #expect(try await service.call("weather/current")["error"]?["data"]?["kind"] == "no_location")
        #expect(whereabouts.asked == 0)
        #expect(try await service.call("location/get", ["autoLocation": "yes"])["error"]?["code"] == -32602)
        #expect(try await Self.events(service, "location.changed").isEmpty)
        await service.stop()
    }

    @Test("--auto-location on makes it the default: weather/current with no place finds GeoClue's fix and uses it")
    func onByFlag() async throws {
        let whereabouts = Whereabouts(ServiceFix(lat: 52.516_275, lon: 13.377_704, accuracyM: 4000))
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, network: Self.network(), autoLocator: Self.locator(whereabouts)
        ) { $0.autoLocation = true }
        let current = try await service.result("weather/current")
        #expect(current["location"]?["lat"] == 52.52)
        #expect(current["location"]?["lon"] == 13.38)
        #expect(whereabouts.asked == 1)
        #expect(try await service.result("location/get")["source"] == "geoclue")
        #expect(
            try await service.call("location/get", ["autoLocation": false])["result"]?["source"] == "geoclue",
            "a location found is answered however asked")
        await service.stop()
    }

    @Test("GeoClue's fix is recorded rounded, with its source and accuracy; exact coordinates reach no log or line")
    func geoClueFix() async throws {
        let whereabouts = Whereabouts(ServiceFix(lat: 52.516_275, lon: 13.377_704, accuracyM: 3_999.6))
        let directory = TemporaryDataDirectory()
        let lines = Lines()
        let service = try InProcessWeatherd(
            directory: directory, network: Self.network(), logger: lines.logger,
            autoLocator: Self.locator(whereabouts))
        let located = try await service.result("location/get", ["autoLocation": true])
        #expect(located["lat"] == 52.52)
        #expect(located["lon"] == 13.38)
        #expect(located["source"] == "geoclue")
        #expect(located["accuracyM"] == 4000)
        #expect(located["approximate"] == false)
        #expect(located["refresh"] == true, "a first location refreshes")
        await service.engine.drainBackground()
        let changed = try await Self.events(service, "location.changed")
        #expect(changed.count == 1)
        #expect(changed.first?["v"] == 2)
        #expect(changed.first?["data"]?["source"] == "geoclue")
        #expect(changed.first?["cause"]?.stringValue?.hasPrefix("stdio/rpc:") == true)
        #expect(try await service.result("state/verify")["ok"] == true, "replay rebuilds it")
        await service.stop()
        let log = String(decoding: directory.logBytes(), as: UTF8.self)
        for exact in ["52.516", "13.377", "52.5163", "13.3777"] {
            #expect(!log.contains(exact), "the log holds \(exact)")
            #expect(!lines.all.contains { $0.contains(exact) }, "a log line holds \(exact)")
        }
    }

    @Test("no location service: the time zone's principal city, approximate, with the zone; the log line says why")
    func timeZoneCity() async throws {
        let directory = TemporaryDataDirectory()
        let lines = Lines()
        let service = try InProcessWeatherd(
            directory: directory, network: Self.network(), logger: lines.logger,
            autoLocator: Self.locator(Whereabouts(nil), zone: "Asia/Calcutta"))
        let located = try await service.result("location/get", ["autoLocation": true])
        #expect(located["name"] == "Kolkata", "the link's zone's city")
        #expect(located["lat"] == 22.53)
        #expect(located["lon"] == 88.37)
        #expect(located["source"] == "timezone")
        #expect(located["zone"] == "Asia/Calcutta")
        #expect(located["approximate"] == true)
        #expect(
            lines.all.contains {
                $0.contains(
                    "GeoClue is not running on the system bus; taking the principal city of the time zone "
                        + "Asia/Calcutta (approximate)")
            }, "\(lines.all)")
        await service.engine.drainBackground()
        #expect(try await service.result("location/get")["approximate"] == true)
        await service.stop()
    }

    @Test("nothing found (no service, a zone without a city): no_location saying what was asked and what each said")
    func nothingFound() async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, network: Self.network(), autoLocator: Self.locator(Whereabouts(nil), zone: "Etc/UTC"))
        let answer = try await service.call("location/get", ["autoLocation": true])
        #expect(answer["error"]?["data"]?["kind"] == "no_location")
        #expect(
            answer["error"]?["message"]?.stringValue
                == "No current location is set, and none was found: GeoClue is not running on the system bus, and the "
                + "time zone Etc/UTC names no city. Set one with location/set first.")
        #expect(try await Self.events(service, "location.changed").isEmpty)
        await service.stop()
    }

    @Test("a found location is looked for again at most every 10 minutes, in the background; a 5 km move replaces it")
    func moves() async throws {
        let whereabouts = Whereabouts(ServiceFix(lat: 48.137, lon: 11.575, accuracyM: 2000))
        let directory = TemporaryDataDirectory()
        let clock = ManualClock()
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, network: Self.network(), autoLocator: Self.locator(whereabouts))
        let auto: JSONValue = ["autoLocation": true]
        #expect(try await service.result("location/get", auto)["lat"] == 48.14)
        await service.engine.drainBackground()
        // 3 km north: not a move.
        whereabouts.move(to: ServiceFix(lat: 48.164, lon: 11.575, accuracyM: 2000))
        clock.advance(by: .seconds(599))
        #expect(try await service.result("location/get", auto)["lat"] == 48.14)
        await service.engine.drainBackground()
        #expect(whereabouts.asked == 1, "not due before 10 minutes")
        clock.advance(by: .seconds(1))
        #expect(try await service.result("location/get", auto)["lat"] == 48.14, "answered at once")
        await service.engine.drainBackground()
        #expect(whereabouts.asked == 2)
        #expect(try await Self.events(service, "location.changed").count == 1, "3 km is no move")
        // 20 km: a move, recorded and refreshed.
        whereabouts.move(to: ServiceFix(lat: 48.317, lon: 11.575, accuracyM: 2000))
        clock.advance(by: .seconds(600))
        _ = try await service.result("location/get", auto)
        await service.engine.drainBackground()
        let moved = try await service.result("location/get", auto)
        #expect(moved["lat"] == 48.32)
        #expect(moved["refresh"] == true)
        #expect(try await Self.events(service, "location.changed").count == 2)
        // A location the client sets is never replaced, nor looked for.
        _ = try await service.result("location/set", ["lat": 59.91, "lon": 10.75])
        await service.engine.drainBackground()
        clock.advance(by: .seconds(3600))
        let set = try await service.result("location/get", auto)
        await service.engine.drainBackground()
        #expect(set["lat"] == 59.91)
        #expect(set["source"] == nil)
        #expect(set["approximate"] == false)
        #expect(whereabouts.asked == 3)
        await service.stop()
    }

    @Test("GeoClue's fix replaces the time zone's city even nearby; the city never replaces GeoClue's fix")
    func sources() async throws {
        let whereabouts = Whereabouts(nil)
        let directory = TemporaryDataDirectory()
        let clock = ManualClock()
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, network: Self.network(), autoLocator: Self.locator(whereabouts))
        let auto: JSONValue = ["autoLocation": true]
        #expect(try await service.result("location/get", auto)["source"] == "timezone")
        await service.engine.drainBackground()
        whereabouts.move(to: ServiceFix(lat: 52.51, lon: 13.39, accuracyM: 1000))
        clock.advance(by: .seconds(600))
        _ = try await service.result("location/get", auto)
        await service.engine.drainBackground()
        let upgraded = try await service.result("location/get", auto)
        #expect(upgraded["source"] == "geoclue", "2 km away, and GeoClue's")
        #expect(upgraded["approximate"] == false)
        whereabouts.move(to: nil)
        clock.advance(by: .seconds(600))
        _ = try await service.result("location/get", auto)
        await service.engine.drainBackground()
        #expect(try await service.result("location/get", auto)["source"] == "geoclue", "the city does not replace it")
        #expect(whereabouts.asked == 3)
        #expect(try await Self.events(service, "location.changed").count == 2)
        await service.stop()
    }

    @Test("requests that wait for a search share it: one question to the location service")
    func sharedSearch() async throws {
        let released = Promise<Void>()
        let asked = Mutex(0)
        let locator = AutoLocator(
            service: { _, _ in
                asked.withLock { $0 += 1 }
                await released.wait()
                return ServiceFix(lat: 59.913, lon: 10.752, accuracyM: 500)
            }, timeZone: { nil }, cities: Self.cities)
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory, network: Self.network(), autoLocator: locator)
        async let first = service.result("location/get", ["autoLocation": true])
        async let second = service.result("location/get", ["autoLocation": true])
        #expect(await eventually { asked.withLock { $0 } == 1 })
        released.fulfill(())
        let answers = try await [first, second]
        #expect(answers.allSatisfy { $0["lat"] == 59.91 && $0["source"] == "geoclue" })
        #expect(asked.withLock { $0 } == 1)
        #expect(try await Self.events(service, "location.changed").count == 1)
        await service.stop()
    }

    @Test(
        "through a real dbus-daemon: a GeoClue stand-in's fix, and a refusing one's fallback to the time zone's city",
        .enabled(if: RealSessionBus.testable, .init(rawValue: RealSessionBus.skipped)))
    func realBus() async throws {
        let bus = try await RealSessionBus(.path)
        defer { bus.stop() }
        for (behaviour, source, lat) in [
            (TestGeoClue.Behaviour.fixAfterStart(lat: 52.516_275, lon: 13.377_704, accuracy: 4000), "geoclue", 52.52),
            (.refuse, "timezone", 52.5),
        ] {
            let stand = try await TestGeoClue.start(address: bus.address, behaviour)
            let geoClue = GeoClue(address: bus.address, uid: getuid(), runtime: .testing())
            let locator = AutoLocator(
                service: { clock, timeout in try await geoClue.locate(clock: clock, timeout: timeout) },
                timeZone: { "Europe/Berlin" }, cities: Self.cities)
            let directory = TemporaryDataDirectory()
            let service = try InProcessWeatherd(directory: directory, network: Self.network(), autoLocator: locator)
            let located = try await service.result("location/get", ["autoLocation": true])
            #expect(located["source"]?.stringValue == source)
            #expect(located["lat"] == .double(lat), "Berlin: GeoClue's fix, or the zone's 52°30′ N")
            #expect(located["approximate"] == .bool(source == "timezone"))
            #expect(stand.calls("Start").count == 1)
            await service.stop()
            stand.stop()
        }
    }

    @Test("the events match the v2 schemas, as the independent log checker reads them; the schemas' examples hold")
    func schemas() async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, network: Self.network(),
            autoLocator: Self.locator(Whereabouts(ServiceFix(lat: 48.137, lon: 11.575, accuracyM: 2000))))
        _ = try await service.result("location/get", ["autoLocation": true])
        _ = try await service.result("location/clear")
        await service.engine.drainBackground()
        await service.stop()
        let schemas = OfficialFixture.schemas
        let summary = try await onThread {
            try LogCheck(schemasDirectory: schemas).check(dataDirectory: directory.path)
        }
        #expect(summary.types["location.changed"] == 1)
        #expect(summary.types["location.cleared"] == 1)
        for type in ["location.changed", "location.cleared"] {
            let schema = try JSONSchema(contentsOf: "\(schemas)/\(type).v2.json")
            let examples = try #require(schema.document["examples"]?.arrayValue)
            #expect(examples.count == 3)
            for example in examples { #expect(schema.validate(example) == [], "\(type) example") }
        }
    }
}
