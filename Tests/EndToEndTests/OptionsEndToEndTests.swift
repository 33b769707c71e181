import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Options and settings, end to end: alert rules, settings a daemon holds, its socket, wrong command lines")
struct OptionsEndToEndTests {
    @Test("alerts rules shows every rule; alerts on|off RULE changes one; favorites notify NAME on|off")
    func alertRules() async throws {
        let directory = TemporaryDataDirectory()
        let options = ["--standalone", "--data-dir", directory.path] + quietTimers
        let shown = try await runCommand(["alerts", "rules"] + options)
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(
            shown.lines.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
                "temp_drop on", "severe on", "daily_summary on", "official on", "air_quality off", "nowcast off",
                "forecast_change off",
            ], "\(shown.output)")
        #expect(shown.output.contains("a drop of more than 10 °C"))

        let nowcast = try await runCommand(["alerts", "on", "nowcast"] + options)
        #expect(nowcast.status == 0, "\(nowcast.errors)")
        #expect(nowcast.lines.contains { $0.hasPrefix("nowcast") && $0.contains(" on ") }, "\(nowcast.output)")
        let air = try await runCommand(["alerts", "on", "air_quality", "--threshold", "very poor", "--json"] + options)
        let settings = try JSONValue.parse(Array(air.output.utf8))
        #expect(settings["airQuality"] == ["enabled": true, "level": "very poor"])
        #expect(settings["nowcast"] == true, "kept from before")
        let drop = try await runCommand(["alerts", "on", "temp_drop", "--threshold=8", "--json"] + options)
        #expect(try JSONValue.parse(Array(drop.output.utf8))["tempDropC"] == 8)
        let daily = try await runCommand(["alerts", "off", "daily_summary", "--json"] + options)
        #expect(try JSONValue.parse(Array(daily.output.utf8))["dailySummary"]?["enabled"] == false)
        let configured = try logEvents(directory).filter { $0["type"] == "alerts.configured" }
        #expect(configured.count == 4, "one event per change; showing the rules writes nothing")

        for (arguments, message) in [
            (["alerts", "off", "temp_drop"], "temp_drop cannot be turned off"),
            (["alerts", "on", "hail"], "unknown rule hail: temp_drop, severe"),
            (["alerts", "on", "severe", "--threshold", "3"], "--threshold goes with"),
            (["alerts", "on", "daily_summary", "--time", "25:00"], "--time must be a local time HH:MM"),
            (["alerts", "frobnicate"], "unknown action frobnicate: rules, on or off"),
        ] {
            let wrong = try await runCommand(arguments + options)
            #expect(wrong.status == 64, "\(arguments)")
            #expect(wrong.errors.contains(message), "\(arguments): \(wrong.errors)")
        }

        let added = try await runCommand(["favorites", "add", "48.8566,2.3522", "--name", "Paris"] + options)
        #expect(added.status == 0, "\(added.errors)")
        let off = try await runCommand(["favorites", "notify", "Paris", "off"] + options)
        #expect(off.lines == ["alerts off: Paris (fav-1)"], "\(off.output) \(off.errors)")
        let list = try await runCommand(["favorites"] + options)
        #expect(list.lines.count == 1 && list.lines[0].hasSuffix("  alerts off"), "\(list.output)")
        let on = try await runCommand(["favorites", "notify", "fav-1", "on", "--json"] + options)
        #expect(try JSONValue.parse(Array(on.output.utf8))["notify"] == true)
        let wrong = try await runCommand(["favorites", "notify", "Paris", "maybe"] + options)
        #expect(wrong.status == 64)
        #expect(wrong.errors.contains("unknown switch maybe: on or off"), "\(wrong.errors)")

        let script = try await runCommand(["completions", "bash"])
        let completed = try await runCommand(
            [
                "-c",
                script.output
                    + "\nCOMP_WORDS=(weatherd alerts on ''); COMP_CWORD=3; _weatherd; printf '%s\\n' \"${COMPREPLY[@]}\"",
            ], executable: "/bin/bash")
        #expect(
            completed.lines == [
                "temp_drop", "severe", "daily_summary", "official", "air_quality", "nowcast", "forecast_change",
            ], "\(completed.output) \(completed.errors)")
    }

    @Test("every setting a daemon holds is compared, but only when asked for; status shows them all")
    func heldSettings() async throws {
        let shared = try SharedDataDir()
        let options = ["--data-dir", shared.directory.path, "--idle-exit", "3600"] + quietTimers
        let started = try await runCommand(
            ["favorites", "--cache-ttl", "1"] + options, environment: shared.environment)
        #expect(started.status == 0 && started.errors.isEmpty, "\(started.errors)")
        let later = try await runCommand(["favorites"] + options, environment: shared.environment)
        #expect(later.status == 0)
        #expect(later.errors.isEmpty, "a default left alone is not asked for: \(later.errors)")

        let asked = try await runCommand(
            [
                "favorites", "--met-norway-base-url", "http://127.0.0.1:9/met", "--open-meteo-archive-base-url",
                "http://127.0.0.1:9/archive", "--open-meteo-historical-forecast-base-url", "http://127.0.0.1:9/recent",
                "--contact", "ops@example.org", "--nowcast-sources", "open-meteo",
            ] + options, environment: shared.environment)
        #expect(asked.status == 0)
        let lines = asked.errors.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(asked.errors)")
        for flag in [
            "--met-norway-base-url", "--open-meteo-archive-base-url", "--open-meteo-historical-forecast-base-url",
            "--contact", "--nowcast-sources",
        ] {
            #expect(asked.errors.contains(flag + " (daemon: "), "\(flag): \(asked.errors)")
        }
        #expect(!asked.errors.contains("--cache-ttl"), "not asked for")

        let status = try await runCommand(["status"] + options, environment: shared.environment)
        #expect(status.lines.contains("          past        https://archive-api.open-meteo.com"), "\(status.output)")
        #expect(
            status.lines.contains("          recent past https://historical-forecast-api.open-meteo.com"),
            "\(status.output)")
        #expect(status.lines.contains("          MET Norway  https://api.met.no"), "\(status.output)")
        #expect(status.lines.contains { $0.hasSuffix(" --cache-ttl 1") }, "\(status.output)")
        let json = try JSONValue.parse(
            Array(try await runCommand(["status", "--json"] + options, environment: shared.environment).output.utf8))
        for name in ["--nowcast-sources", "--open-meteo-archive-base-url", "--met-norway-base-url", "--fsync"] {
            #expect(json["options"]?[name] != nil, "status --json shows \(name)")
        }
        #expect(json["options"]?["--idle-exit"] == "3600")
        #expect(json["options"]?["--cache-ttl"] == "1")
        try await shared.stopDaemon()
    }

    @Test("without XDG_RUNTIME_DIR (cron, ssh) a command uses the data dir's running daemon where its lock says")
    func socketFromTheLock() async throws {
        let shared = try SharedDataDir()
        let options = ["--data-dir", shared.directory.path, "--idle-exit", "3600"] + quietTimers
        let added = try await runCommand(
            ["favorites", "add", "48.8566,2.3522", "--name", "Paris"] + options, environment: shared.environment)
        #expect(added.status == 0, "\(added.errors)")
        let cron = ["XDG_RUNTIME_DIR": ""]
        let listed = try await runCommand(["favorites", "--names"] + options, environment: cron)
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.lines == ["Paris"], "the running daemon's favorites")
        #expect(
            !FileManager.default.fileExists(atPath: shared.directory.path + "/weatherd.sock"),
            "no second daemon was started on the data dir's own socket")
        let stopped = try await runCommand(["stop"] + options, environment: cron)
        #expect(stopped.status == 0, "\(stopped.errors)")
        #expect(stopped.output.hasPrefix("stopped the weatherd daemon"), "\(stopped.output)")
        #expect(try shared.stopped())
    }

    @Test("serve on a data dir whose daemon runs names `weatherd stop`")
    func serveNamesStop() async throws {
        let shared = try SharedDataDir()
        let options = ["--data-dir", shared.directory.path, "--idle-exit", "3600"] + quietTimers
        let started = try await runCommand(["favorites"] + options, environment: shared.environment)
        #expect(started.status == 0, "\(started.errors)")
        let serve = try await runCommand(
            ["serve", "--data-dir", shared.directory.path, "--socket", shared.runtime + "/other.sock"],
            environment: shared.environment)
        #expect(serve.status == 1)
        #expect(
            serve.errors.contains("stop it with `weatherd stop --data-dir \(shared.directory.path)`"),
            "\(serve.errors)")
        try await shared.stopDaemon()
    }

    @Test("a mistyped flag gets the closest one; a place of two words is told to be quoted; both exit 64")
    func wrongCommandLines() async throws {
        let directory = TemporaryDataDirectory()
        let options = ["--standalone", "--data-dir", directory.path]
        let flag = try await runCommand(["now", "Berlin", "--fromat", "1"] + options)
        #expect(flag.status == 64)
        #expect(
            flag.errors.hasPrefix("weatherd now: unknown option --fromat; did you mean --format?\n"), "\(flag.errors)")
        let server = try await runCommand(["now", "Berlin", "--cache-tll", "5"] + options)
        #expect(server.errors.hasPrefix("weatherd now: unknown option --cache-tll; did you mean --cache-ttl?"))
        let top = try await runCommand(["--upstream-timout", "5"] + options)
        #expect(top.status == 64)
        #expect(top.errors.hasPrefix("weatherd: unknown option --upstream-timout; did you mean --upstream-timeout?"))
        let twoWords = try await runCommand(["now", "New", "York"] + options)
        #expect(twoWords.status == 64)
        #expect(twoWords.errors.contains(#"weatherd now "New York""#), "\(twoWords.errors)")
        let added = try await runCommand(["favorites", "add", "San", "Francisco"] + options)
        #expect(added.errors.contains(#"weatherd favorites add "San Francisco""#), "\(added.errors)")
        #expect(directory.logBytes().isEmpty, "a wrong command line opens nothing")
    }

    @Test("weatherd reading from a terminal says once, on stderr, that it reads JSON-RPC; from a pipe it says nothing")
    func terminalHint() async throws {
        let shared = try SharedDataDir()
        let arguments = ["--data-dir", shared.directory.path, "--idle-exit", "120"] + quietTimers
        let onTerminal = try await Self.runOnTerminal(arguments, environment: shared.environment)
        #expect(onTerminal.status == 0, "\(onTerminal.errors)")
        let lines = onTerminal.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(onTerminal.errors)")
        #expect(lines.first?.hasPrefix("weatherd: reading JSON-RPC requests") == true, "\(onTerminal.errors)")
        #expect(onTerminal.errors.contains("`weatherd --help`"))
        let piped = try await runCommand(arguments, environment: shared.environment, input: [])
        #expect(piped.status == 0)
        #expect(piped.errors.isEmpty, "\(piped.errors)")
        try await shared.stopDaemon()
    }

    /// Runs `weatherd ARGUMENTS` with a terminal for its standard input, ends that input with Ctrl-D, and
    /// returns what it printed on stderr and its status.
    static func runOnTerminal(_ arguments: [String], environment: [String: String]) async throws -> CommandRun {
        let terminal = try PseudoTerminal.open()
        let process = try TestProcess(
            RunningWeatherd.binaryPath, arguments: arguments, environment: RunningWeatherd.environment(environment),
            standardInput: .descriptor(terminal.device.fileDescriptor), standardError: .pipe)
        try terminal.device.close()
        // End of input, as a person types it.
        try terminal.controller.write(contentsOf: Data([0x04]))
        let data = await withCheckedContinuation { continuation in
            Thread { [errors = process.errors!] in continuation.resume(returning: errors.readDataToEndOfFile()) }
                .start()
        }
        let status = await process.exit()
        try? terminal.controller.close()
        return CommandRun(status: status, output: "", errors: String(decoding: data, as: UTF8.self))
    }
}
