import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd's help, wrong command lines and shell completions, end to end")
struct HelpEndToEndTests {
    /// Every command for people.
    static let commands = [
        "now", "forecast", "history", "climate", "chart", "bar", "warnings", "air", "search", "location", "units",
        "refresh", "favorites", "confidence", "models", "accuracy",
        "alerts", "events", "status", "stop", "completions",
    ]

    @Test("every command's --help and `weatherd help COMMAND` exit 0 with its usage and an example; so do log's")
    func help() async throws {
        let overview = try await runCommand(["help"])
        #expect(overview.status == 0)
        for command in Self.commands {
            #expect(overview.output.contains("\n  \(command) "), "the overview lists \(command)")
            let help = try await runCommand([command, "--help"])
            #expect(help.status == 0, "\(command) --help")
            #expect(help.output.hasPrefix("usage: weatherd \(command)"), "\(command) --help")
            #expect(help.output.contains("example:"), "\(command) --help has an example")
            let asked = try await runCommand(["help", command])
            #expect(asked.status == 0)
            #expect(asked.output == help.output, "help \(command)")
        }
        for arguments in [["log", "--help"], ["log", "-h"], ["help", "log"], ["log", "dump", "--help"]] {
            let log = try await runCommand(arguments)
            #expect(log.status == 0, "\(arguments)")
            #expect(log.output.hasPrefix("usage: weatherd log verify"), "\(arguments)")
        }
    }

    @Test("an unknown command is one line on stderr with the closest command; an unknown flag is named; both 64")
    func wrongCommandLines() async throws {
        let directory = TemporaryDataDirectory()
        let cases = [
            ("fvorites", "; did you mean `weatherd favorites`?"), ("stauts", "; did you mean `weatherd status`?"),
            ("completion", "; did you mean `weatherd completions`?"),
            ("frobnicate", "; weatherd --help lists the commands"),
        ]
        for (word, suggestion) in cases {
            let run = try await runCommand([word, "--data-dir", directory.path])
            #expect(run.status == 64, "\(word)")
            #expect(run.output.isEmpty)
            #expect(run.errors.split(separator: "\n").count == 1, "one line: \(run.errors)")
            #expect(run.errors.hasPrefix("weatherd: unknown command \(word)\(suggestion)"), "\(run.errors)")
        }
        let flag = try await runCommand(["now", "London", "--bogus", "--standalone", "--data-dir", directory.path])
        #expect(flag.status == 64)
        #expect(flag.errors.hasPrefix("weatherd now: unknown option --bogus\n"), "\(flag.errors)")
        #expect(flag.output.isEmpty)
        let shell = try await runCommand(["completions", "tcsh"])
        #expect(shell.status == 64)
        #expect(shell.errors.contains("unknown shell tcsh: bash, zsh or fish"), "\(shell.errors)")
        #expect(directory.logBytes().isEmpty, "a wrong command line opens nothing")
    }

    @Test("completions: scripts for bash, zsh and fish with every command; bash completes a favorite's name")
    func completions() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try await runCommand(["completions", shell])
            #expect(script.status == 0, "\(shell)")
            #expect(script.output.contains("weatherd favorites --names"), "\(shell) asks for the favorites")
            for command in Self.commands {
                #expect(script.output.contains(command), "\(shell) completes \(command)")
            }
            let flags = shell == "fish" ? ["-l format", "-l data-dir"] : ["--format", "--data-dir"]
            #expect(flags.allSatisfy { script.output.contains($0) }, "\(shell) completes the flags")
        }
        let bashScript = try await runCommand(["completions", "bash"]).output
        let syntax = try await runCommand(["-n", "-c", bashScript], executable: "/bin/bash")
        #expect(syntax.status == 0, "bash reads it: \(syntax.errors)")

        let shared = try SharedDataDir()
        let options = ["--data-dir", shared.directory.path, "--idle-exit", "120"] + quietTimers
        for (place, name) in [("48.8566,2.3522", "Paris"), ("52.52,13.405", "Berlin")] {
            let added = try await runCommand(
                ["favorites", "add", place, "--name", name] + options, environment: shared.environment)
            #expect(added.status == 0, "\(added.errors)")
        }
        let names = try await runCommand(["favorites", "--names"] + options, environment: shared.environment)
        #expect(names.lines == ["Berlin", "Paris"])
        // bash itself completes `weatherd now P`, asking the data dir's daemon for the names.
        let binary = URL(fileURLWithPath: RunningWeatherd.binaryPath).deletingLastPathComponent().path
        let completed = try await runCommand(
            [
                "-c",
                bashScript
                    + "\nCOMP_WORDS=(weatherd now P); COMP_CWORD=2; _weatherd; printf '%s\\n' \"${COMPREPLY[@]}\"",
            ],
            environment: shared.environment.merging([
                "PATH": binary + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "WEATHERD_DATA_DIR": shared.directory.path,
            ]) { $1 },
            executable: "/bin/bash")
        #expect(completed.lines == ["Paris"], "\(completed.output) \(completed.errors)")
        try await shared.stopDaemon()
    }
}
