import Testing
import WeatherCLI
import WeatherDomain
import WeatherEngine
import WeatherService

@Suite("One declared option table: parsing, help, completions, suggestions and the daemon's settings")
struct OptionTableTests {
    @Test("every option of weatherd's is in `weatherd --help` and in every shell's completions (--metrics-listen too)")
    func everyOptionEverywhere() throws {
        let overview = CLI.overview
        let scripts = try ["bash", "zsh", "fish"].map { shell in (shell, try #require(CLI.completions(for: shell))) }
        #expect(overview.contains("  --http-listen, --metrics-listen HOST:PORT"), "the issue's missing flag")
        for option in Configuration.table.options {
            for flag in option.flags {
                #expect(overview.contains(flag), "--help shows \(flag)")
                for (shell, script) in scripts {
                    let written = shell == "fish" ? "-l \(flag.dropFirst(2))" : flag
                    #expect(script.contains(written), "\(shell) completes \(flag)")
                }
            }
            for variable in option.environment { #expect(overview.contains(variable), "--help names \(variable)") }
        }
    }

    @Test("every command's --help lists each option it takes, and its usage each of its forms")
    func commandHelp() {
        for command in CLI.commands {
            for option in command.table.options {
                #expect(command.help.contains(option.name), "\(command.name) --help shows \(option.name)")
            }
            #expect(command.help.hasPrefix("usage: weatherd \(command.name)"))
            #expect(command.usage.split(separator: "\n").count >= command.forms.count, "\(command.name)")
        }
    }

    @Test("a mistyped option is told the closest one, at the top level and in a command")
    func didYouMean() {
        #expect(throws: OptionError.self) {
            try ScannedArguments(["--cache-tll", "5"], options: Configuration.table.shapes)
        }
        guard case .wrong(let top) = CLI.entry(["--cache-tll", "5"]) else {
            Issue.record("--cache-tll was accepted")
            return
        }
        #expect(top.hasPrefix("weatherd: unknown option --cache-tll; did you mean --cache-ttl?"), "\(top)")
        guard case .wrong(let serve) = CLI.entry(["serve", "--metrics-listn", "127.0.0.1:0"]) else {
            Issue.record("--metrics-listn was accepted")
            return
        }
        #expect(serve.contains("did you mean --metrics-listen?"), "\(serve)")
        do {
            _ = try Configuration.parse(["--bogus"], environment: [:])
            Issue.record("--bogus was accepted")
        } catch {
            #expect(error.description == "unknown option --bogus", "nothing close: no suggestion")
        }
    }

    @Test("the log tools read their options from a table too: a mistyped one gets the closest, as JSON")
    func logTools() {
        var printed: [String] = []
        #expect(LogTools.run(["dump", "--afterseq", "3"], environment: [:]) { printed.append($0) } == 2)
        #expect(printed == [#"{"error":"unknown option --afterseq; did you mean --after-seq?","ok":false}"#])
        #expect(LogTools.usage.contains("  --since RFC3339"))
    }

    @Test("--flag value and --flag=value; switches; -- ends the options; a negative coordinate is positional")
    func scanning() throws {
        let shapes = [
            ScannedArguments.Shape(flags: ["--limit"], takesValue: true),
            ScannedArguments.Shape(flags: ["--json"], takesValue: false),
            ScannedArguments.Shape(flags: ["--help", "-h"], takesValue: false),
        ]
        let scanned = try ScannedArguments(
            ["-33.87,151.21", "--limit", "5", "--json", "-h", "--limit=7", "--", "--json", "-"], options: shapes)
        #expect(scanned.positional == ["-33.87,151.21", "--json", "-"])
        #expect(scanned.given.map(\.name) == ["--limit", "--json", "--help", "--limit"])
        #expect(scanned.given.map(\.value) == ["5", "", "", "7"])
        #expect(scanned.given[3].arguments == ["--limit=7"])
        for (arguments, message) in [
            (["--limit"], "--limit needs a value"), (["--json=yes"], "--json takes no value"),
            (["--lmit", "3"], "unknown option --lmit; did you mean --limit?"),
        ] {
            do {
                _ = try ScannedArguments(arguments, options: shapes)
                Issue.record("accepted \(arguments)")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test("the entry: a command, help, the version, serve, --standalone, the relay, an unknown command")
    func entry() {
        #expect(CLI.entry([]) == .serve(.relay, options: []))
        #expect(CLI.entry(["--data-dir", "/d"]) == .serve(.relay, options: ["--data-dir", "/d"]))
        #expect(CLI.entry(["--standalone", "--fsync=batch"]) == .serve(.standalone, options: ["--fsync=batch"]))
        #expect(
            CLI.entry(["serve", "--standalone", "--idle-exit", "5"]) == .serve(.serve, options: ["--idle-exit", "5"]))
        #expect(CLI.entry(["now", "Berlin"]) == .command("now", ["Berlin"]))
        #expect(CLI.entry(["log", "verify"]) == .log(["verify"]))
        #expect(CLI.entry(["--version"]) == .print("weatherd \(Engine.version)"))
        #expect(CLI.entry(["--bogus", "--help"]) == .print(CLI.overview), "--help stands whatever else is wrong")
        #expect(CLI.entry(["stauts"]) == .wrong(CLI.unknownCommand("stauts")))
    }

    @Test("a client is compared with the daemon on every option a daemon holds that it asked for, and no other")
    func daemonDifferences() throws {
        let daemon = try Configuration.parse(["--cache-ttl", "1"], environment: [:])
        let held = daemon.heldOptions
        #expect(held["--cache-ttl"] == "1")
        #expect(held["--open-meteo-archive-base-url"] == "https://archive-api.open-meteo.com")
        #expect(held["--data-dir"] == nil && held["--socket"] == nil, "they pick the daemon; it does not hold them")

        // Left at its default, a setting is not asked for: no warning, however often the daemon runs with another.
        #expect(try Configuration.parse([], environment: [:]).differences(fromDaemon: held).isEmpty)

        let asked = try Configuration.parse(
            [
                "--cache-ttl", "60", "--met-norway-base-url", "http://127.0.0.1:9/met",
                "--open-meteo-archive-base-url", "http://127.0.0.1:9/archive",
                "--open-meteo-historical-forecast-base-url", "http://127.0.0.1:9/recent", "--contact",
                "ops@example.org", "--nowcast-sources", "open-meteo",
            ], environment: ["OWM_API_KEY": "secret-key-4711"])
        let differences = asked.differences(fromDaemon: held)
        #expect(
            differences == [
                "OWM_API_KEY (the daemon has none)",
                "--met-norway-base-url (daemon: https://api.met.no, here: http://127.0.0.1:9/met)",
                "--contact (daemon: none, here: ops@example.org)",
                "--open-meteo-archive-base-url (daemon: https://archive-api.open-meteo.com, here: "
                    + "http://127.0.0.1:9/archive)",
                "--open-meteo-historical-forecast-base-url (daemon: https://historical-forecast-api.open-meteo.com, "
                    + "here: http://127.0.0.1:9/recent)",
                "--nowcast-sources (daemon: met-norway,openweathermap,open-meteo, here: open-meteo)",
                "--cache-ttl (daemon: 1 s, here: 60 s)",
            ])
        #expect(!differences.joined().contains("secret-key-4711"))
        #expect(try Configuration.parse(["--cache-ttl", "1"], environment: [:]).differences(fromDaemon: held).isEmpty)
    }

    @Test("the daemon's status line: only for what the client asked for, naming `weatherd stop`")
    func mismatchLine() throws {
        let daemon = try Configuration.parse(["--cache-ttl", "1"], environment: [:])
        let status: JSONValue = [
            "pid": 42, "options": .object(daemon.heldOptions.mapValues { .string($0) }),
        ]
        #expect(
            DaemonSettings.mismatch(status: status, configuration: try Configuration.parse([], environment: [:])) == nil
        )
        let line = DaemonSettings.mismatch(
            status: status, configuration: try Configuration.parse(["--cache-ttl=600"], environment: [:]))
        #expect(
            line
                == "weatherd: the running daemon (pid 42) keeps the settings it was started with, not these: "
                + "--cache-ttl (daemon: 1 s, here: 600 s); to apply them, run `weatherd stop`, then this again")
    }

    @Test("an environment variable is parsed as its flag is, and counts as asked for; an empty one is unset")
    func environment() throws {
        let configuration = try Configuration.parse(
            [], environment: ["MET_NORWAY_BASE_URL": "http://127.0.0.1:9/met", "OWM_BASE_URL": ""])
        #expect(configuration.metNorwayBaseURL == "http://127.0.0.1:9/met")
        #expect(configuration.explicit == ["--met-norway-base-url"])
        do {
            _ = try Configuration.parse([], environment: ["MET_NORWAY_BASE_URL": "ftp://x"])
            Issue.record("ftp://x was accepted")
        } catch {
            #expect(error.description == "MET_NORWAY_BASE_URL must be an http:// or https:// URL")
        }
    }
}
