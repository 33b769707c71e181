import Foundation
import Testing
import WeatherDomain
import WeatherTesting

/// What a command printed and its exit status.
struct CommandRun: Sendable {
    var status: Int32
    var output: String
    var errors: String

    var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast() }
}

/// Runs `weatherd ARGUMENTS` to its end on a thread of its own (never blocking the tests' shared threads).
func runCommand(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: RunningWeatherd.binaryPath)
    process.arguments = arguments
    var variables = ProcessInfo.processInfo.environment
    variables["WEATHERD_DATA_DIR"] = nil
    variables["NO_COLOR"] = nil
    for (key, value) in environment { variables[key] = value }
    process.environment = variables
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return await withCheckedContinuation { continuation in
        let thread = Thread {
            let group = DispatchGroup()
            nonisolated(unsafe) var errorData = Data()
            group.enter()
            Thread {
                errorData = errors.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }.start()
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            group.wait()
            process.waitUntilExit()
            continuation.resume(
                returning: CommandRun(
                    status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                    errors: String(decoding: errorData, as: UTF8.self)))
        }
        thread.start()
    }
}

@Suite("weatherd's commands for people, end to end")
struct CommandsEndToEndTests {
    /// A stand-in OpenWeatherMap serving the recorded London answers (observed 2023-05-26 09:50 UTC, by day).
    static func owm() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        server.route("/data/2.5/weather", .init(body: try ProviderEndToEndTests.metric("owm-current-london.json")))
        server.route("/data/2.5/forecast", .init(body: try ProviderEndToEndTests.metric("owm-forecast-london.json")))
        return server
    }

    static let owmKey = ["OWM_API_KEY": "test-key"]

    @Test("now: wttr.in's named formats and every %-code, as golden lines on the recorded London answer")
    func formats() async throws {
        let server = try Self.owm()
        let directory = TemporaryDataDirectory()
        let base = [
            "now", "51.5085,-0.1257", "--standalone", "--data-dir", directory.path, "--owm-base-url", server.baseURL,
        ]
        let golden: [(format: String?, line: String)] = [
            (nil, "London: 🌤️ +15°C"),
            ("1", "🌤️ +15°C"),
            ("2", "🌤️ 🌡️+15°C 🌬️←22km/h"),
            ("3", "London: 🌤️ +15°C"),
            ("4", "London: 🌤️ 🌡️+15°C 🌬️←22km/h"),
            (
                "%C|%h|%t|%f|%w|%l|%P|%S|%s|%Z|100%%",
                "Few clouds|58%|+15°C|+14°C|←22km/h|London|1031hPa|04:55:09|21:00:12|UTC+01:00|100%"
            ),
            // What neither answer has (precipitation now, UV) prints as "?", never as 0.
            ("%p %u", "? ?"),
        ]
        for (format, line) in golden {
            let run = try await runCommand(base + (format.map { ["--format", $0] } ?? []), environment: Self.owmKey)
            #expect(run.status == 0, "\(format ?? "default"): \(run.errors)")
            #expect(run.lines == [line], "format \(format ?? "default")")
        }
        let imperial = try await runCommand(
            base + ["--units", "imperial", "--format", "%t %w"], environment: Self.owmKey)
        #expect(imperial.lines.first?.hasSuffix("mph") == true, "\(imperial.output)")
        #expect(imperial.lines.first?.hasPrefix("+") == true && imperial.output.contains("°F"), "\(imperial.output)")
        let json = try await runCommand(base + ["--json"], environment: Self.owmKey)
        let result = try JSONValue.parse(Array(json.output.utf8))
        #expect(result["location"]?["name"] == "London")
        #expect(result["current"]?["temperature"] == 15.3)
    }

    @Test("now: stale data is marked with its age; nothing known is a message on stderr and status 1")
    func staleAndNothing() async throws {
        let server = try Self.owm()
        let directory = TemporaryDataDirectory()
        let base = [
            "now", "51.5085,-0.1257", "--standalone", "--data-dir", directory.path, "--owm-base-url", server.baseURL,
            "--upstream-timeout", "2", "--cache-ttl", "0",
        ]
        let fresh = try await runCommand(base, environment: Self.owmKey)
        #expect(fresh.lines == ["London: 🌤️ +15°C"])
        server.stop()
        let stale = try await runCommand(base, environment: Self.owmKey)
        #expect(stale.status == 0, "\(stale.errors)")
        let line = try #require(stale.lines.first)
        #expect(line.hasPrefix("London: 🌤️ +15°C (stale, "), "\(line)")
        #expect(line.hasSuffix(" old)"), "\(line)")
        #expect(!line.contains("\u{1B}"), "no colour off a terminal")

        let nowhere = try await runCommand(
            [
                "now", "1,1", "--standalone", "--data-dir", directory.path, "--owm-base-url", server.baseURL,
                "--upstream-timeout", "2",
            ], environment: Self.owmKey)
        #expect(nowhere.status == 1)
        #expect(nowhere.output.isEmpty, "no made-up line")
        #expect(nowhere.errors.contains("weatherd now: "), "\(nowhere.errors)")
    }

    @Test("usage errors exit 64 with the usage line; an unknown %-code lists the known ones")
    func usageErrors() async throws {
        let directory = TemporaryDataDirectory()
        let unknown = try await runCommand(["now", "--format", "%c %q", "--standalone", "--data-dir", directory.path])
        #expect(unknown.status == 64)
        #expect(unknown.errors.contains("unknown format code %q"))
        for code in [
            "%c", "%C", "%h", "%t", "%f", "%w", "%l", "%m", "%M", "%p", "%P", "%u", "%D", "%S", "%z", "%s",
            "%d", "%T", "%Z", "%r", "%+Nh",
        ] {
            #expect(unknown.errors.contains(code), "lists \(code)")
        }
        #expect(unknown.errors.contains("usage: weatherd now"))
        let badUnits = try await runCommand([
            "now", "--units", "furlongs", "--standalone", "--data-dir", directory.path,
        ])
        #expect(badUnits.status == 64)
        let twoPlaces = try await runCommand(["now", "Berlin", "Paris", "--standalone", "--data-dir", directory.path])
        #expect(twoPlaces.status == 64)
        let badAction = try await runCommand(["favorites", "frobnicate", "--standalone", "--data-dir", directory.path])
        #expect(badAction.status == 64)
        #expect(badAction.errors.contains("usage: weatherd favorites"))
        let badOption = try await runCommand([
            "status", "--fsync", "sometimes", "--standalone", "--data-dir", directory.path,
        ])
        #expect(badOption.status == 64)
        let noCommand = try await runCommand(["frobnicate"])
        #expect(noCommand.status == 64)
        #expect(noCommand.errors.contains("unknown command frobnicate"))
        #expect(directory.logBytes().isEmpty, "a usage error opens nothing")
    }

    @Test("--help lists every command; each command's --help has its usage and an example; --version")
    func help() async throws {
        let overview = try await runCommand(["--help"])
        #expect(overview.status == 0)
        for command in ["now", "status", "favorites", "alerts", "events", "log verify|dump|stats", "serve"] {
            #expect(overview.output.contains(command), "lists \(command)")
        }
        for command in ["now", "status", "favorites", "alerts", "events"] {
            let help = try await runCommand([command, "--help"])
            #expect(help.status == 0)
            #expect(help.output.hasPrefix("usage: weatherd \(command)"), "\(command) --help")
            #expect(help.output.contains("example:"), "\(command) --help has an example")
        }
        let version = try await runCommand(["--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("weatherd "))
    }

    @Test("favorites add, list, rename, remove; status and events; --json prints the method's result")
    func everyday() async throws {
        let directory = TemporaryDataDirectory()
        let options = ["--standalone", "--data-dir", directory.path]
        let added = try await runCommand(["favorites", "add", "48.8566,2.3522", "--name", "Paris"] + options)
        #expect(added.lines == ["added Paris (fav-1)"], "\(added.errors)")
        _ = try await runCommand(["favorites", "add", "-33.8688,151.2093", "--name", "Sydney"] + options)
        let list = try await runCommand(["favorites"] + options)
        #expect(list.lines == ["fav-2  Sydney  -33.8688,151.2093", "fav-1  Paris   48.8566,2.3522"])
        let renamed = try await runCommand(["favorites", "rename", "Paris", "Office", "--json"] + options)
        let favorite = try JSONValue.parse(Array(renamed.output.utf8))
        #expect(favorite["id"] == "fav-1")
        #expect(favorite["name"] == "Office")
        let removed = try await runCommand(["favorites", "remove", "fav-2"] + options)
        #expect(removed.lines == ["removed Sydney (fav-2)"])
        let missing = try await runCommand(["favorites", "remove", "Atlantis"] + options)
        #expect(missing.status == 1)
        #expect(missing.errors.contains("weatherd favorites: "))
        let json = try JSONValue.parse(Array(try await runCommand(["favorites", "--json"] + options).output.utf8))
        #expect(json["favorites"]?.arrayValue?.map { $0["name"] } == ["Office"])

        let status = try await runCommand(["status"] + options)
        #expect(status.status == 0)
        #expect(status.output.contains("data dir  \(directory.path)"))
        let events = try await runCommand(["events", "--type", "favorite.updated", "--after-seq", "0"] + options)
        #expect(events.lines.count == 1)
        #expect(events.output.contains("favorite.updated"))
        #expect(events.output.contains("stdio/rpc:1"))
        let alerts = try await runCommand(["alerts"] + options)
        #expect(alerts.lines == ["no alerts"])
        try Repository.checkLog(directory.path)
    }

    @Test("without --standalone a command starts the data dir's daemon and shares it with other clients")
    func throughTheDaemon() async throws {
        let shared = try SharedDataDir()
        let options = ["--data-dir", shared.directory.path, "--idle-exit", "120"]
        let added = try await runCommand(
            ["favorites", "add", "52.52,13.405", "--name", "Berlin"] + options, environment: shared.environment)
        #expect(added.lines == ["added Berlin (fav-1)"], "\(added.errors)")
        let client = try shared.client()
        let listed = try await client.call("favorites/list")
        #expect(
            listed["result"]?["favorites"]?.arrayValue?.first?["name"] == "Berlin", "one daemon, one set of favorites")
        let status = try await runCommand(["status"] + options, environment: shared.environment)
        #expect(status.output.contains("socket    \(try shared.socketPath)"), "\(status.output)")
        try client.closeInput()
        #expect(await client.waitForExit() == 0)
        try await shared.stopDaemon()
    }
}
