import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("weatherd bar, end to end")
struct BarEndToEndTests {
    /// The recorded London conditions moved to now, with another temperature (°C) and OWM condition id.
    static func current(temperature: Double, condition: Int64 = 801) throws -> [UInt8] {
        let recorded = try JSONValue.parse(try ProviderEndToEndTests.metric("owm-current-london.json", movedTo: Date()))
        guard var top = recorded.objectValue, var main = top["main"]?.objectValue,
            var weather = top["weather"]?.arrayValue?.first?.objectValue
        else { throw RunningWeatherdError("the recorded answer has no main or weather") }
        main["temp"] = .double(temperature)
        weather["id"] = .int(condition)
        top["main"] = .object(main)
        top["weather"] = .array([.object(weather)])
        return JSONValue.object(top).jsonBytes
    }

    /// The lines a bar printed, each a waybar object with exactly its four members.
    static func objects(_ bar: RunningWeatherd) throws -> [JSONValue] {
        let objects = try bar.output.messages()
        for object in objects {
            #expect(object.objectValue.map { Set($0.keys) } == ["text", "tooltip", "class", "percentage"])
        }
        return objects
    }

    static func classes(_ object: JSONValue) -> [String] {
        object["class"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    @Test(
        "waybar lines through the daemon: a new one when another client's fetch changes the weather, when an alert is raised, and when the daemon dies"
    )
    func throughTheDaemon() async throws {
        let server = try CommandsEndToEndTests.owmNow()
        let shared = try SharedDataDir()
        let environment = CommandsEndToEndTests.owmKey.merging(shared.environment) { $1 }
        let options = [
            "--data-dir", shared.directory.path, "--owm-base-url", server.baseURL, "--cache-ttl", "3600",
            "--idle-exit", "120",
        ]
        // Conditions near the recorded forecast's (a few °C), so that no drop is foreseen and no alert raised yet.
        server.route("/data/2.5/weather", .init(body: try Self.current(temperature: 5)))
        let added = try await runCommand(
            ["favorites", "add", "51.5085,-0.1257", "--name", "London"] + options, environment: environment)
        #expect(added.status == 0, "\(added.errors)")
        let bar = try RunningWeatherd(
            arguments: ["bar", "London", "--style", "waybar"] + options, environment: environment)
        #expect(await bar.output.wait(for: 1), "\(bar.standardError)")
        let first = try #require(try Self.objects(bar).first)
        #expect(first["text"] == "🌤️ +5°C")
        #expect(!Self.classes(first).contains("alert") && !Self.classes(first).contains("stale"))

        // Another client fetches the place: the bar prints the new weather, asking nothing upstream itself.
        let client = try shared.client(["--owm-base-url", server.baseURL])
        server.route("/data/2.5/weather", .init(body: try Self.current(temperature: 6)))
        let callsBefore = server.requests.count
        _ = try await client.call("weather/current", ["favorite": "London", "maxAgeSeconds": 0])
        #expect(await bar.output.wait(for: 2))
        #expect(try Self.objects(bar).last?["text"] == "🌤️ +6°C")
        #expect(server.requests.count == callsBefore + 1, "one upstream call: the client's")

        // A thunderstorm: a severe-weather alert for the favorite marks the bar.
        server.route("/data/2.5/weather", .init(body: try Self.current(temperature: 6, condition: 211)))
        _ = try await client.call("weather/current", ["favorite": "London", "maxAgeSeconds": 0])
        #expect(
            try await eventually {
                try Self.objects(bar).last.map { Self.classes($0).contains("alert") } == true
            }, "\(bar.output.lines.map { String(decoding: $0, as: UTF8.self) })")
        let alerted = try #require(try Self.objects(bar).last)
        #expect(alerted["text"]?.stringValue?.hasPrefix("⚠ ⛈️") == true)
        #expect(alerted["tooltip"]?.stringValue?.contains("Severe weather now") == true)

        // The daemon dies: the last line again, marked stale, and the status that says weatherd is unavailable.
        let count = bar.output.lines.count
        let pid = try #require(try shared.daemonPID())
        kill(pid, SIGKILL)
        #expect(await bar.waitForExit() == 69)
        let last = try #require(try Self.objects(bar).last)
        #expect(bar.output.lines.count == count + 1)
        #expect(Self.classes(last).contains("stale"))
        #expect(last["tooltip"]?.stringValue?.hasSuffix("weatherd unreachable") == true)
        #expect(bar.standardError.contains("weatherd bar: "))
        try client.closeInput()
        _ = await client.waitForExit()
    }

    @Test(
        "a temperature-drop alert in the tooltip reads in the bar's units: °F for --units imperial, °C for metric",
        arguments: [("imperial", "°F", "°C"), ("metric", "°C", "°F")])
    func alertInTheBarsUnits(_ units: String, _ unit: String, _ other: String) async throws {
        let server = try CommandsEndToEndTests.owmNow()
        // Far above the recorded forecast's lows (a few °C): a drop is foreseen and an alert raised.
        server.route("/data/2.5/weather", .init(body: try Self.current(temperature: 20)))
        let directory = TemporaryDataDirectory()
        let options = ["--standalone", "--data-dir", directory.path, "--owm-base-url", server.baseURL] + quietTimers
        let added = try await runCommand(
            ["favorites", "add", "51.5085,-0.1257", "--name", "London"] + options,
            environment: CommandsEndToEndTests.owmKey)
        #expect(added.status == 0, "\(added.errors)")
        let bar = try RunningWeatherd(
            arguments: ["bar", "London", "--style", "waybar", "--units", units] + options,
            environment: CommandsEndToEndTests.owmKey)
        #expect(
            try await eventually {
                try Self.objects(bar).last.map { Self.classes($0).contains("alert") } == true
            }, "\(bar.output.lines.map { String(decoding: $0, as: UTF8.self) }) \(bar.standardError)")
        let tooltip = try #require(try Self.objects(bar).last?["tooltip"]?.stringValue)
        let alert = try #require(tooltip.split(separator: "\n").first { $0.hasPrefix("⚠ ") }, "\(tooltip)")
        #expect(alert.contains("will fall to") && alert.contains(unit) && !alert.contains(other), "\(alert)")
        #expect(!tooltip.contains(other), "the hours and days in the bar's units too: \(tooltip)")
        bar.signal(SIGTERM)
        #expect(await bar.waitForExit() == 0, "\(bar.standardError)")
    }

    @Test("a waybar line turns stale when the provider cannot be reached once the cache's age has passed")
    func turnsStale() async throws {
        let server = try CommandsEndToEndTests.owmNow()
        let directory = TemporaryDataDirectory()
        let bar = try RunningWeatherd(
            arguments: [
                "bar", "51.5085,-0.1257", "--style", "waybar", "--standalone", "--data-dir", directory.path,
                "--owm-base-url", server.baseURL, "--cache-ttl", "1", "--upstream-timeout", "2",
            ], environment: CommandsEndToEndTests.owmKey)
        #expect(await bar.output.wait(for: 1), "\(bar.standardError)")
        let first = try #require(try Self.objects(bar).first)
        #expect(first["text"] == "🌤️ +15°C")
        #expect(!Self.classes(first).contains("stale"))
        server.stop()
        #expect(
            try await eventually {
                try Self.objects(bar).last.map { Self.classes($0).contains("stale") } == true
            }, "\(bar.output.lines.map { String(decoding: $0, as: UTF8.self) })")
        let stale = try #require(try Self.objects(bar).last)
        #expect(stale["text"] == "🌤️ +15°C", "the last weather known, never a made-up one")
        #expect(stale["tooltip"]?.stringValue?.contains("stale, ") == true)
        #expect(stale["tooltip"]?.stringValue?.hasSuffix(" old") == true)
        bar.signal(SIGTERM)
        #expect(await bar.waitForExit() == 0, "told to stop, a standalone bar exits quietly")
        #expect(!bar.standardError.contains("weatherd bar:"), "\(bar.standardError)")
        try Repository.checkLog(directory.path)
    }

    /// A bar on its own engine (`--standalone`) against the recorded London answer.
    static func standaloneBar(_ directory: TemporaryDataDirectory, readOutput: Bool = true) throws -> (
        RunningWeatherd, LocalHTTPServer
    ) {
        let server = try CommandsEndToEndTests.owmNow()
        let bar = try RunningWeatherd(
            arguments: [
                "bar", "51.5085,-0.1257", "--standalone", "--style", "waybar", "--data-dir", directory.path,
                "--owm-base-url", server.baseURL,
            ], environment: CommandsEndToEndTests.owmKey, readOutput: readOutput)
        return (bar, server)
    }

    @Test(
        "bar --standalone ends on SIGTERM and on SIGINT: exit 0, its engine's service.stopped written",
        arguments: [SIGTERM, SIGINT])
    func signalled(_ number: Int32) async throws {
        let directory = TemporaryDataDirectory()
        let (bar, server) = try Self.standaloneBar(directory)
        #expect(await bar.output.wait(for: 1), "\(bar.standardError)")
        bar.signal(number)
        #expect(await bar.waitForExit() == 0, "\(bar.standardError)")
        let stopped = try #require(try logEvents(directory).last)
        #expect(stopped["type"] == "service.stopped")
        #expect(stopped["data"]?["reason"] == "signal")
        #expect(server.requests.count >= 1)
    }

    @Test(
        "bar --standalone told to stop while its first answer is on the way exits 0 quietly, service.stopped written",
        arguments: [SIGTERM, SIGINT])
    func signalledWhileAsking(_ number: Int32) async throws {
        let directory = TemporaryDataDirectory()
        let server = try LocalHTTPServer()
        server.route(
            "/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 2), held: true))
        let bar = try RunningWeatherd(
            arguments: [
                "bar", "1,1", "--standalone", "--data-dir", directory.path, "--open-meteo-base-url", server.baseURL,
                // The longest deadline: however long a loaded machine pauses, the ask is still waiting.
                "--upstream-timeout", "600",
            ])
        #expect(await server.requests(atLeast: 1), "the bar asked for its first line")
        bar.signal(number)
        #expect(await bar.waitForExit() == 0, "\(bar.standardError)")
        #expect(!bar.standardError.contains("weatherd bar:"), "\(bar.standardError)")
        #expect(bar.output.lines.isEmpty, "no line: nothing was known yet")
        #expect(try logEvents(directory).last?["type"] == "service.stopped")
    }

    @Test(
        "a bar whose reader goes away while its first answer is on the way ends at once: exit 1, saying why",
        arguments: [true, false])
    func readerGoneWhileAsking(standalone: Bool) async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 2), held: true))
        let shared = try SharedDataDir()
        // The longest deadline: however long a loaded machine pauses, the ask is still waiting.
        let options = [
            "--data-dir", shared.directory.path, "--open-meteo-base-url", server.baseURL, "--upstream-timeout", "600",
        ]
        let bar = try RunningWeatherd(
            arguments: ["bar", "1,1"] + options + (standalone ? ["--standalone"] : ["--idle-exit", "120"]),
            environment: shared.environment, readOutput: false)
        #expect(await server.requests(atLeast: 1), "the bar asked for its first line")
        try bar.closeOutput()
        // The upstream never answers: only noticing the reader can end the bar (the wait is a hang guard).
        #expect(await bar.waitForExit() == 1)
        #expect(bar.standardError.contains("standard output is closed"), "\(bar.standardError)")
        if !standalone { try await shared.stopDaemon() }
    }

    @Test("a bar whose reader goes away ends at once, not at its next line: exit 1, saying why")
    func readerGone() async throws {
        let directory = TemporaryDataDirectory()
        let (bar, server) = try Self.standaloneBar(directory, readOutput: false)
        #expect(await server.requests(atLeast: 1), "the bar asked for its first line")
        try bar.closeOutput()
        #expect(await bar.waitForExit() == 1)
        #expect(bar.standardError.contains("standard output is closed"))
    }

}
