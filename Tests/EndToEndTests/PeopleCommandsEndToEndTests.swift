import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd's commands for people: search, location, units, warnings, air, refresh, stop")
struct PeopleCommandsEndToEndTests {
    /// A stand-in for Open-Meteo (weather, geocoding, air quality) and the US National Weather Service.
    static func upstream() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        server.route(
            "/v1/search", .init(body: OpenMeteoBodies.geocode([("Berlin", "DE", "State of Berlin", 52.52, 13.41)])))
        server.route("/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 12)))
        server.route("/v1/forecast", query: "hourly=", .init(body: OpenMeteoBodies.forecast()))
        server.route(
            "/v1/air-quality", .init(body: try ProviderEndToEndTests.fixture("openmeteo-airquality-vienna-pollen.json"))
        )
        server.route(
            "/alerts/active", .init(body: try OfficialEndToEndTests.inForce("nws-alerts-point-phoenix-az.json")))
        // The FOSS Public Alert Server relays no feed for the countries near Tokyo's coordinates, and lists nothing.
        server.route("/sources/area_status", .init(body: Array(#"{"results":[]}"#.utf8)))
        server.route("/alert/area", .init(body: Array("[]".utf8)))
        return server
    }

    /// The options that point a command at `server`, alone on `directory`.
    static func options(_ directory: TemporaryDataDirectory, _ server: LocalHTTPServer) -> [String] {
        [
            "--standalone", "--data-dir", directory.path, "--open-meteo-base-url", server.baseURL,
            "--open-meteo-geocoding-base-url", server.baseURL + "/", "--open-meteo-air-quality-base-url",
            server.baseURL, "--nws-base-url", server.baseURL, "--fpas-base-url", server.baseURL,
        ] + quietTimers
    }

    @Test("search and location: lines for people, --json the answer, advice in the commands' terms")
    func searchAndLocation() async throws {
        let server = try Self.upstream()
        let directory = TemporaryDataDirectory()
        let options = Self.options(directory, server)
        let search = try await runCommand(["search", "Berlin"] + options)
        #expect(search.status == 0, "\(search.errors)")
        #expect(search.lines == ["Berlin  State of Berlin  DE  52.52,13.41"])
        let json = try JSONValue.parse(
            Array(try await runCommand(["search", "Berlin", "--json"] + options).output.utf8))
        #expect(json["candidates"]?.arrayValue?.first?["name"] == "Berlin")
        let short = try await runCommand(["search", "Be"] + options)
        #expect(short.status == 64)

        for arguments in [["location"], ["now"]] {
            let none = try await runCommand(arguments + options)
            #expect(none.status == 1, "\(arguments)")
            #expect(none.errors.contains("`weatherd location set PLACE`"), "\(none.errors)")
            #expect(!none.errors.contains("location/set"), "no JSON-RPC method names: \(none.errors)")
        }
        let set = try await runCommand(["location", "set", "52.52,13.41"] + options)
        #expect(set.status == 0, "\(set.errors)")
        #expect(set.lines.first?.hasPrefix("location set: 52.52,13.41") == true, "\(set.output)")
        let shown = try await runCommand(["location"] + options)
        #expect(shown.lines.first?.hasPrefix("52.52,13.41  set ") == true, "\(shown.output)")
        let byName = try await runCommand(["location", "set", "Berlin", "--json"] + options)
        #expect(try JSONValue.parse(Array(byName.output.utf8))["name"] == "Berlin", "\(byName.errors)")
        let wrong = try await runCommand(["location", "move", "Berlin"] + options)
        #expect(wrong.status == 64)
        #expect(wrong.errors.contains("usage: weatherd location"))

        let cleared = try await runCommand(["location", "clear"] + options)
        #expect(cleared.status == 0, "\(cleared.errors)")
        #expect(cleared.lines.first?.hasPrefix("location cleared: Berlin  52.52,13.41") == true, "\(cleared.output)")
        let gone = try await runCommand(["location"] + options)
        #expect(gone.status == 1)
        #expect(gone.errors.contains("`weatherd location set PLACE`"), "\(gone.errors)")
        let again = try await runCommand(["location", "clear", "--json"] + options)
        #expect(try JSONValue.parse(Array(again.output.utf8)) == ["cleared": false], "\(again.output)")
        let events = try await runCommand(["events", "--type", "location.cleared", "--json"] + options)
        #expect(events.lines.count == 1, "one event, for the clear that forgot a location: \(events.output)")
        #expect(try await runCommand(["location", "clear", "Berlin"] + options).status == 64)
    }

    @Test("units: shows the units, chooses a system and a unit per quantity, refuses a unit it has not")
    func units() async throws {
        let directory = TemporaryDataDirectory()
        let options = ["--standalone", "--data-dir", directory.path] + quietTimers
        let shown = try await runCommand(["units"] + options)
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(shown.lines.first == "system         metric", "\(shown.output)")
        #expect(shown.lines.contains("wind speed     m/s"), "\(shown.output)")
        let set = try await runCommand(["units", "imperial", "--wind", "kmh"] + options)
        #expect(set.lines.contains("wind speed     km/h      (chosen)"), "\(set.output)")
        #expect(set.lines.contains("temperature    °F"), "\(set.output)")
        let json = try JSONValue.parse(Array(try await runCommand(["units", "--json"] + options).output.utf8))
        #expect(json["units"] == "imperial")
        #expect(json["windSpeed"] == "km/h")
        let back = try JSONValue.parse(
            Array(try await runCommand(["units", "--wind", "default", "--json"] + options).output.utf8))
        #expect(back["windSpeed"] == .null)
        #expect(back["resolved"]?["windSpeed"] == "mph")
        let bad = try await runCommand(["units", "--wind", "furlongs"] + options)
        #expect(bad.status == 64)
        #expect(bad.errors.contains("--wind takes m/s, km/h, mph, kn, Bft or default, not furlongs"), "\(bad.errors)")
        #expect(try await runCommand(["units", "nautical"] + options).status == 64)
    }

    @Test("warnings from the aggregator: each warning's row, who issued it, and the aggregator's credit")
    func aggregatorWarnings() async throws {
        let server = try Self.upstream()
        CAPSamples.serveTokyo(on: server)
        let directory = TemporaryDataDirectory()
        let tokyo = try await runCommand(["warnings", "35.68,139.69"] + Self.options(directory, server))
        #expect(tokyo.status == 0, "\(tokyo.errors)")
        #expect(tokyo.lines.first == "35.68,139.69: 1 warning", "\(tokyo.output)")
        #expect(tokyo.lines.dropFirst().first?.hasPrefix("Moderate") == true, "severity as CAP spells it")
        #expect(tokyo.lines.dropFirst().first?.contains("Heavy Rain") == true)
        #expect(tokyo.lines.contains("issued by Japan Meteorological Agency"), "\(tokyo.output)")
        #expect(tokyo.lines.last == "FOSS Public Alert Server (KDE; in beta), relaying each sender's CAP feed")
    }

    @Test("warnings and air: the official warnings in force and the air now, as lines; --json the answers")
    func warningsAndAir() async throws {
        let server = try Self.upstream()
        // A geocoded place has its country, which tells the warnings' source.
        server.route(
            "/v1/search", .init(body: OpenMeteoBodies.geocode([("Phoenix", "US", "Arizona", 33.45, -112.07)])))
        let directory = TemporaryDataDirectory()
        let options = Self.options(directory, server)
        let phoenix = try await runCommand(["warnings", "Phoenix"] + options)
        #expect(phoenix.status == 0, "\(phoenix.errors)")
        #expect(phoenix.lines.first?.hasSuffix(": 2 warnings") == true, "\(phoenix.output)")
        #expect(phoenix.lines.count == 4, "the heading, a row per warning, the attribution: \(phoenix.output)")
        #expect(phoenix.lines.last == "National Weather Service")
        let tokyo = try await runCommand(["warnings", "35.68,139.69"] + options)
        #expect(tokyo.status == 0)
        #expect(tokyo.lines.first?.hasPrefix("35.68,139.69: no warnings known") == true, "\(tokyo.output)")
        #expect(tokyo.output.contains("not an all-clear"), "never 'no warnings in force' where none is known")
        let json = try JSONValue.parse(
            Array(try await runCommand(["warnings", "Phoenix", "--json"] + options).output.utf8))
        #expect(json["warnings"]?.arrayValue?.count == 2)

        let air = try await runCommand(["air", "48.21,16.37"] + options)
        #expect(air.status == 0, "\(air.errors)")
        let answer = try JSONValue.parse(
            Array(try await runCommand(["air", "48.21,16.37", "--json"] + options).output.utf8))
        let index = try #require(answer["current"]?["europeanAqi"]?.doubleValue)
        let level = answer["current"]?["europeanAqiLevel"]?.stringValue ?? "?"
        #expect(
            air.lines.contains {
                $0.hasPrefix("European AQI") && $0.contains(" \(Int(index)) ") && $0.hasSuffix(level)
            },
            "\(air.output)")
        #expect(air.output.contains("μg/m³"), "\(air.output)")
    }

    @Test("refresh: a place fetched again whatever the cache holds; every place without one; failures exit 1")
    func refresh() async throws {
        let server = try Self.upstream()
        let directory = TemporaryDataDirectory()
        let options = Self.options(directory, server)
        let forecastCalls = { server.requests.filter { $0.hasPrefix("/v1/forecast") }.count }
        _ = try await runCommand(["now", "52.52,13.41"] + options)
        let before = forecastCalls()
        let one = try await runCommand(["refresh", "52.52,13.41"] + options)
        #expect(one.status == 0, "\(one.errors)")
        #expect(one.lines.count == 1 && one.lines[0].hasPrefix("refreshed "), "\(one.output)")
        #expect(forecastCalls() == before + 2, "the current weather and the forecast, fresh as they were")

        let nothing = try await runCommand(["refresh"] + options)
        #expect(nothing.lines == ["nothing to refresh: no current location and no favorites"], "\(nothing.errors)")
        _ = try await runCommand(["favorites", "add", "52.52,13.41", "--name", "Home"] + options)
        let all = try await runCommand(["refresh"] + options)
        #expect(all.status == 0, "\(all.errors)")
        #expect(all.lines == ["refreshed Home"], "\(all.output)")

        server.stop()
        let offline = try await runCommand(["refresh", "Home", "--upstream-timeout", "2"] + options)
        #expect(offline.status == 1)
        #expect(offline.errors.contains("weatherd refresh: "), "\(offline.errors)")
        #expect(offline.output.isEmpty)
    }

    @Test("a PLACE of two numbers off the globe is refused as a usage error by every command, asking nothing")
    func pointOffTheGlobe() async throws {
        let server = try Self.upstream()
        let directory = TemporaryDataDirectory()
        let options = Self.options(directory, server)
        let commands: [(arguments: [String], place: String)] = [
            (["now", "91,181"], "91,181"), (["nowcast", "91,181"], "91,181"), (["refresh", "45, 181"], "45, 181"),
            (["location", "set", "91,10"], "91,10"), (["favorites", "add", "0,-181", "--name", "Nowhere"], "0,-181"),
        ]
        for (arguments, place) in commands {
            let run = try await runCommand(arguments + options)
            #expect(run.status == 64, "\(arguments): \(run.errors)")
            #expect(run.errors.contains("PLACE (\(place)): the "), "\(run.errors)")
            #expect(run.errors.contains("must be between"), "\(run.errors)")
        }
        #expect(server.requests.isEmpty, "not geocoded as a city, nor asked as a point: \(server.requests)")
    }

    @Test("stop: the data dir's daemon stops and its socket goes before the command returns; none is no error")
    func stop() async throws {
        let shared = try SharedDataDir()
        let options = ["--data-dir", shared.directory.path, "--idle-exit", "120"] + quietTimers
        let none = try await runCommand(["stop"] + options, environment: shared.environment)
        #expect(none.status == 0)
        #expect(none.lines == ["no weatherd daemon is running for \(shared.directory.path)"], "\(none.errors)")
        let started = try await runCommand(["favorites"] + options, environment: shared.environment)
        #expect(started.status == 0, "\(started.errors)")
        let pid = try #require(try shared.daemonPID())
        let stopped = try await runCommand(["stop"] + options, environment: shared.environment)
        #expect(stopped.status == 0, "\(stopped.errors)")
        #expect(stopped.lines == ["stopped the weatherd daemon (pid \(pid))"])
        #expect(!FileManager.default.fileExists(atPath: try shared.socketPath), "the socket is gone")
        #expect(try shared.stopped(), "service.stopped is the log's last event")
        #expect(try await runCommand(["stop"] + options, environment: shared.environment).status == 0)
    }
}
