import Foundation
import Testing
import WeatherDomain
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("weatherd notify, the binary beside a running daemon: what the desktop is told, and once only")
struct NotifyDaemonEndToEndTests {
    /// An NWS answer (`/alerts/active`) with one message, in force until 2099.
    static func nws(
        _ id: String, event: String, severity: String, type: String = "Alert", references: [String] = []
    ) -> LocalHTTPServer.Response {
        let properties: JSONValue = [
            "id": .string(id), "areaDesc": "Maricopa", "geocode": ["UGC": ["AZZ537"]],
            "references": .array(
                references.map { ["identifier": .string($0), "sender": "w-nws.webmaster@noaa.gov"] }),
            "sent": "2026-07-18T12:47:00-07:00", "expires": "2099-01-01T00:00:00+00:00",
            "ends": "2099-01-02T00:00:00+00:00", "status": "Actual", "messageType": .string(type),
            "severity": .string(severity), "certainty": "Likely", "urgency": "Expected", "event": .string(event),
            "sender": "w-nws.webmaster@noaa.gov", "senderName": "NWS Phoenix AZ",
            "headline": .string("\(event) until Sunday"),
        ]
        let body: JSONValue = [
            "type": "FeatureCollection",
            "features": [["id": .string(id), "type": "Feature", "properties": properties]],
        ]
        return .init(body: body.jsonBytes)
    }

    /// The daemon's and notify's options: one idle limit longer than any run, NWS and Open-Meteo at `server`.
    static func options(_ shared: SharedDataDir, _ server: LocalHTTPServer) -> [String] {
        [
            "--data-dir", shared.directory.path, "--log-level", "warning", "--idle-exit", "3600", "--nws-base-url",
            server.baseURL, "--nws-contact", "e2e@weatherd.test", "--open-meteo-base-url", server.baseURL,
        ] + quietTimers
    }

    /// `weatherd notify` on the test bus, keeping its cursor under the data dir's temporary root.
    static func notify(_ shared: SharedDataDir, _ server: LocalHTTPServer, bus: TestSessionBus) throws
        -> RunningWeatherd
    {
        try RunningWeatherd(
            arguments: ["notify"] + options(shared, server),
            environment: shared.environment.merging([
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_STATE_HOME": shared.directory.root + "/state",
            ]) { $1 })
    }

    /// The seq notify's cursor file keeps (nil before it is written).
    static func cursorSeq(_ shared: SharedDataDir) -> Int64? {
        let directory = shared.directory.root + "/state/weatherd"
        guard let name = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.first,
            let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        else { return nil }
        return (try? JSONValue.parse(text))?["seq"]?.intValue
    }

    /// Waits until notify's cursor is past the last alert in the log, so a stop loses nothing it showed.
    static func settled(_ shared: SharedDataDir) async throws -> Bool {
        let last = try #require(try logEvents(shared.directory).last { $0["type"] == "alert.raised" }?["seq"]?.intValue)
        return await eventually { (cursorSeq(shared) ?? 0) >= last }
    }

    /// A stand-in Open-Meteo where it is 22 °C now, a data dir, a test bus and a client of the data dir's daemon.
    static func twentyTwoDegrees() throws -> (LocalHTTPServer, SharedDataDir, TestSessionBus, RunningWeatherd) {
        let server = try LocalHTTPServer()
        server.route("/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 22, code: 3)))
        let shared = try SharedDataDir()
        let bus = try TestSessionBus()
        let client = try RunningWeatherd(arguments: options(shared, server), environment: shared.environment)
        return (server, shared, bus, client)
    }

    /// The summaries of every Notify call the bus received, in order.
    static func summaries(_ bus: TestSessionBus) -> [String] { bus.calls("Notify").compactMap { $0.body[3].text } }

    @Test(
        "a warning is shown with the right Notify arguments, its update replaces it, and nothing is shown twice across restarts of notify and of the daemon"
    )
    func warnings() async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/alerts/active", query: "point=33.45", Self.nws("urn:w1", event: "Heat Advisory", severity: "Moderate"))
        let shared = try SharedDataDir()
        let bus = try TestSessionBus()
        defer { bus.stop() }
        let client = try RunningWeatherd(arguments: Self.options(shared, server), environment: shared.environment)
        _ = try await client.call("favorites/add", ["name": "Phoenix", "lat": 33.45, "lon": -112.07, "country": "US"])
        var notify = try Self.notify(shared, server, bus: bus)
        _ = try await client.call("refresh", ["scope": "favorites"])
        #expect(await eventually { bus.calls("Notify").count == 1 }, "\(notify.standardError)")
        let first = try #require(bus.calls("Notify").first)
        #expect(
            first.body == [
                .string("weatherd"), .uint32(0), .string("weather-severe-alert"), .string("Heat Advisory (Phoenix)"),
                .string("NWS Phoenix AZ: Heat Advisory until Sunday (Phoenix)."), .array("s", []),
                .vardict([("urgency", .byte(1)), ("category", .string("weather"))]), .int32(-1),
            ])

        // An update of the warning, seen at a second favorite: raised again at a higher severity, it takes the
        // place of the first notification (the test bus gave it id 1).
        server.route(
            "/alerts/active", query: "point=33.41",
            Self.nws(
                "urn:w2", event: "Excessive Heat Warning", severity: "Severe", type: "Update", references: ["urn:w1"]))
        _ = try await client.call("favorites/add", ["name": "Tempe", "lat": 33.41, "lon": -111.94, "country": "US"])
        _ = try await client.call("refresh", ["scope": "favorites"])
        #expect(await eventually { bus.calls("Notify").count == 2 }, "\(notify.standardError)")
        let update = try #require(bus.calls("Notify").last)
        #expect(update.body[1] == .uint32(1), "replaces_id: the first notification's id")
        #expect(update.body[3] == .string("Excessive Heat Warning (Tempe)"))
        #expect(update.body[6] == .vardict([("urgency", .byte(2)), ("category", .string("weather"))]))

        // notify stopped and started again: only what is new is shown.
        #expect(try await Self.settled(shared))
        notify.signal(SIGTERM)
        #expect(await notify.waitForExit() != nil)
        notify = try Self.notify(shared, server, bus: bus)
        server.route(
            "/alerts/active", query: "point=33.42", Self.nws("urn:w3", event: "Wind Advisory", severity: "Minor"))
        _ = try await client.call("favorites/add", ["name": "Mesa", "lat": 33.42, "lon": -111.83, "country": "US"])
        _ = try await client.call("refresh", ["scope": "favorites"])
        #expect(
            await eventually { Self.summaries(bus).contains("Wind Advisory (Mesa)") },
            "\(notify.standardError)")
        #expect(
            Self.summaries(bus) == [
                "Heat Advisory (Phoenix)", "Excessive Heat Warning (Tempe)", "Wind Advisory (Mesa)",
            ])

        // The daemon stopped (notify then ends with 69) and both started again: still nothing twice.
        #expect(try await Self.settled(shared))
        try client.closeInput()
        #expect(await client.waitForExit() == 0)
        try await shared.stopDaemon()
        #expect(await notify.waitForExit() == 69)
        #expect(notify.standardError.contains("weatherd notify: the daemon went away"), "\(notify.standardError)")
        let again = try RunningWeatherd(arguments: Self.options(shared, server), environment: shared.environment)
        notify = try Self.notify(shared, server, bus: bus)
        server.route(
            "/alerts/active", query: "point=33.31", Self.nws("urn:w4", event: "Dust Advisory", severity: "Minor"))
        _ = try await again.call("favorites/add", ["name": "Chandler", "lat": 33.31, "lon": -111.84, "country": "US"])
        _ = try await again.call("refresh", ["scope": "favorites"])
        #expect(
            await eventually { Self.summaries(bus).contains("Dust Advisory (Chandler)") }, "\(notify.standardError)")
        #expect(
            Self.summaries(bus) == [
                "Heat Advisory (Phoenix)", "Excessive Heat Warning (Tempe)", "Wind Advisory (Mesa)",
                "Dust Advisory (Chandler)",
            ])
        #expect(bus.calls("CloseNotification").isEmpty, "nothing was cancelled")
        notify.signal(SIGTERM)
        #expect(await notify.waitForExit() != nil)
        try again.closeInput()
        #expect(await again.waitForExit() == 0)
    }

    @Test(
        "notify stopped between showing an alert and hearing it was shown does not show it again when started again"
    )
    func stoppedWhileShowing() async throws {
        let (server, shared, bus, client) = try Self.twentyTwoDegrees()
        defer { bus.stop() }
        _ = try await client.call("favorites/add", ["name": "Plains", "lat": 35.2, "lon": -97.4])
        _ = try await client.call("favorites/add", ["name": "Hills", "lat": 36.1, "lon": -95.9])
        _ = try await client.call("weather/current", ["favoriteId": "fav-1"])
        _ = try await client.call("weather/current", ["favoriteId": "fav-2"])
        var notify = try Self.notify(shared, server, bus: bus)
        // The desktop takes the alert and never says it did: notify is stopped while it waits.
        bus.holdNotifyReplies(true)
        server.route("/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 8, code: 3)))
        _ = try await client.call("weather/current", ["favoriteId": "fav-1", "maxAgeSeconds": 0])
        #expect(await eventually { bus.calls("Notify").count == 1 }, "\(notify.standardError)")
        notify.signal(SIGTERM)
        #expect(await notify.waitForExit() != nil)

        bus.holdNotifyReplies(false)
        notify = try Self.notify(shared, server, bus: bus)
        _ = try await client.call("weather/current", ["favoriteId": "fav-2", "maxAgeSeconds": 0])
        #expect(
            await eventually { Self.summaries(bus).contains("Temperature drop (Hills)") }, "\(notify.standardError)")
        #expect(Self.summaries(bus) == ["Temperature drop (Plains)", "Temperature drop (Hills)"])
        notify.signal(SIGTERM)
        #expect(await notify.waitForExit() != nil)
        try client.closeInput()
        #expect(await client.waitForExit() == 0)
    }

    @Test("without --units, notify reads the daemon's settings: an imperial reader's temperature drop is in °F")
    func settingsUnits() async throws {
        let (server, shared, bus, client) = try Self.twentyTwoDegrees()
        defer { bus.stop() }
        _ = try await client.call("settings/set", ["units": "imperial"])
        _ = try await client.call("favorites/add", ["name": "Plains", "lat": 35.2, "lon": -97.4])
        let notify = try Self.notify(shared, server, bus: bus)
        _ = try await client.call("weather/current", ["favoriteId": "fav-1"])
        server.route("/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 8, code: 3)))
        _ = try await client.call("weather/current", ["favoriteId": "fav-1", "maxAgeSeconds": 0])
        #expect(await eventually { !bus.calls("Notify").isEmpty }, "\(notify.standardError)")
        let shown = try #require(bus.calls("Notify").first)
        #expect(shown.body[3] == .string("Temperature drop (Plains)"))
        #expect(shown.body[4] == .string("The temperature fell 25.2 °F, to 46.4 °F."))
        notify.signal(SIGTERM)
        #expect(await notify.waitForExit() != nil)
        try client.closeInput()
        #expect(await client.waitForExit() == 0)
    }
}
