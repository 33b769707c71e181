import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("Location without typing it: the commands find the machine (GeoClue, else the time zone's city); JSON-RPC asks")
struct AutoLocationEndToEndTests {
    /// Exact coordinates the GeoClue stand-in gives, which must never be printed or logged.
    static let exact = (lat: 52.516_275, lon: 13.377_704)

    /// The command's output and errors hold none of the exact coordinates' digits past the rounding.
    static func expectNoExactCoordinates(_ run: CommandRun) {
        for digits in ["52.516", "13.377", "52.5163", "13.3777"] {
            #expect(!run.output.contains(digits) && !run.errors.contains(digits), "\(digits) in \(run)")
        }
    }

    @Test("no bus, the zone Europe/Berlin: `now` and `location` find Berlin, labelled approximate; off, none is found")
    func timeZone() async throws {
        let server = try PeopleCommandsEndToEndTests.upstream()
        let directory = TemporaryDataDirectory()
        let options = PeopleCommandsEndToEndTests.options(directory, server)
        let berlin = ["TZ": "Europe/Berlin"]
        let off = try await runCommand(["now", "--auto-location", "off"] + options, environment: berlin)
        #expect(off.status == 1)
        #expect(off.errors.contains("No current location is set. Set one with `weatherd location set PLACE`"), "\(off)")
        let wrong = try await runCommand(["now", "--auto-location", "maybe"] + options, environment: berlin)
        #expect(wrong.status == 64)
        #expect(wrong.errors.contains("--auto-location must be on or off"), "\(wrong.errors)")

        let now = try await runCommand(["now"] + options, environment: berlin)
        #expect(now.status == 0, "\(now.errors)")
        #expect(now.lines.count == 1)
        #expect(now.lines.first?.hasSuffix(" (approximate location)") == true, "\(now.output)")
        let shown = try await runCommand(["location"] + options, environment: berlin)
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(shown.lines.first?.hasPrefix("Berlin  52.5,13.37  set ") == true, "\(shown.output)")
        #expect(
            shown.lines.first?.hasSuffix("  (approximate location: the principal city of the time zone Europe/Berlin)")
                == true, "\(shown.output)")
        let events = try await runCommand(["events", "--type", "location.changed", "--json"] + options)
        let changed = try #require(events.lines.first.map { try JSONValue.parse(Array($0.utf8)) })
        #expect(events.lines.count == 1, "found once, then used: \(events.output)")
        #expect(changed["v"] == 2)
        #expect(changed["data"]?["source"] == "timezone")
        #expect(changed["data"]?["zone"] == "Europe/Berlin")

        let set = try await runCommand(["location", "set", "48.86,2.35"] + options, environment: berlin)
        #expect(set.status == 0, "\(set.errors)")
        let paris = try await runCommand(["now"] + options, environment: berlin)
        #expect(paris.lines.first?.contains("approximate") == false, "a location set is not approximate: \(paris)")
    }

    @Test("JSON-RPC is off unless asked: location/get answers no_location, and with autoLocation the zone's city")
    func jsonRPC() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try RunningWeatherd(
            arguments: ["--standalone", "--data-dir", directory.path] + quietTimers, environment: ["TZ": "Europe/Oslo"])
        let none = try await weatherd.call("location/get")
        #expect(none["error"]?["data"]?["kind"] == "no_location", "\(none)")
        let found = try await weatherd.call("location/get", ["autoLocation": true])
        #expect(found["result"]?["name"] == "Oslo", "\(found)")
        #expect(found["result"]?["source"] == "timezone")
        #expect(found["result"]?["approximate"] == true)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
    }

    @Test(
        "a GeoClue stand-in on the system bus (a real dbus-daemon): its fix, rounded, never printed exactly",
        .enabled(if: RealSessionBus.testable, .init(rawValue: RealSessionBus.skipped)))
    func geoClue() async throws {
        let bus = try await RealSessionBus(.path)
        defer { bus.stop() }
        let stand = try await TestGeoClue.start(
            address: bus.address, .fixAfterStart(lat: Self.exact.lat, lon: Self.exact.lon, accuracy: 4000))
        defer { stand.stop() }
        let server = try PeopleCommandsEndToEndTests.upstream()
        let directory = TemporaryDataDirectory()
        let options = PeopleCommandsEndToEndTests.options(directory, server) + ["--log-level", "debug"]
        let system = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": "Europe/Berlin"]
        let now = try await runCommand(["now"] + options, environment: system)
        #expect(now.status == 0, "\(now.errors)")
        #expect(now.lines.first?.contains("approximate") == false, "\(now.output)")
        Self.expectNoExactCoordinates(now)
        let shown = try await runCommand(["location"] + options, environment: system)
        #expect(shown.lines.first?.hasPrefix("52.52,13.38  set ") == true, "\(shown.output)")
        #expect(shown.lines.first?.hasSuffix("  (found by GeoClue, within 4 km)") == true, "\(shown.output)")
        Self.expectNoExactCoordinates(shown)
        #expect(stand.calls("Start").count == 1, "asked once; then the location found is used")
        #expect(stand.calls("Stop").count == 1)
        let log = String(decoding: directory.logBytes(), as: UTF8.self)
        #expect(!log.contains("52.516") && !log.contains("13.377"), "the log holds the exact coordinates")
    }
}
