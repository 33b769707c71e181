import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("the documentation's shell examples, run")
struct DocExamplesTests {
    /// Where the examples run: a working directory of their own (where `./wd-data` is made), `weatherd` and
    /// `weatherd-check-log` on the PATH, a runtime dir for the daemon's socket, and every provider (and NWS)
    /// pointed at a stand-in serving recorded answers for Berlin.
    final class Stage: Sendable {
        let directory = TemporaryDataDirectory()
        let server: LocalHTTPServer
        let runtime = "/tmp/wd-\(UUID().uuidString.prefix(8))"
        /// The port the HTTP face's examples listen on here, in place of the 9466 the docs name (which another
        /// program may hold).
        let httpPort: Int

        init() throws {
            httpPort = try NATSServerProcess.freePort()
            server = try LocalHTTPServer()
            server.route(
                "/v1/search",
                .init(
                    body: OpenMeteoBodies.geocode([
                        ("Berlin", "DE", "State of Berlin", 52.52437, 13.41053),
                        ("Berlin", "US", "New Hampshire", 44.46867, -71.18508),
                    ])))
            server.route(
                "/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 4.2, code: 2)))
            // The weather session's forecast begins at today's local midnight, as Open-Meteo's does, whatever day
            // the suite runs on (a fixed day would leave no step ahead a few days later).
            let now = Int64(Date().timeIntervalSince1970)
            let midnight = (now + 3600) / 86_400 * 86_400 - 3600
            server.route(
                "/v1/forecast", query: "hourly=",
                .init(body: OpenMeteoBodies.forecast(start: Timestamp(milliseconds: midnight * 1000))))
            // An ensemble whose 51 members agree within 2 °C and stay dry, for 15 days; five models, one missing.
            server.route(
                "/v1/ensemble",
                .init(
                    body: OpenMeteoBodies.ensemble(
                        start: Timestamp(milliseconds: midnight * 1000), members: 50, days: 16,
                        temperature: { member, hour in
                            hour < 15 * 24 ? Double(hour % 24) / 4 + Double(member) / 25 : nil
                        }, precipitation: { _, hour in hour < 15 * 24 ? 0 : nil })))
            server.route(
                "/v1/forecast", query: "models=",
                .init(
                    body: OpenMeteoBodies.models(
                        start: Timestamp(milliseconds: midnight * 1000), models: ModelComparison.defaultModels, days: 16
                    ) { model, day in
                        switch model {
                        case "ecmwf_ifs025": (8 + Double(day), 1, 0.5, 61)
                        case "gfs_seamless": (8.5 + Double(day), 1.5, 1, 63)
                        case "icon_seamless": (12 + Double(day), 5, 0, 3)
                        case "gem_seamless": (7.5 + Double(day), 0.5, 2, 61)
                        default: nil
                        }
                    }))
            // Official warnings: Bright Sky (none in force in Berlin's cell) and the FOSS Public Alert Server (the
            // feeds of the countries near Tokyo, and one warning there, in force whenever the suite runs).
            server.route("/alerts", .init(body: Array(#"{"alerts":[],"location":{"warn_cell_id":111000000}}"#.utf8)))
            CAPSamples.serveTokyo(on: server)
            let bin = directory.path + "/bin"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            let built = URL(fileURLWithPath: RunningWeatherd.binaryPath).deletingLastPathComponent()
            for tool in ["weatherd", "weatherd-check-log"] {
                try FileManager.default.createSymbolicLink(
                    atPath: "\(bin)/\(tool)", withDestinationPath: built.appendingPathComponent(tool).path)
            }
        }

        deinit {
            // The daemons the examples started, each named in its data dir's LOCK: those under the working
            // directory, and the one of the default data dir under the stage's HOME.
            let work = directory.path + "/work"
            let dataDirectories =
                ((try? FileManager.default.contentsOfDirectory(atPath: work)) ?? []).map { "\(work)/\($0)" }
                + [directory.path + "/home/.local/share/weatherd"]
            for dataDirectory in dataDirectories {
                if let pid = lockHolderPID(dataDirectory: dataDirectory) { kill(pid, SIGTERM) }
            }
            server.stop()
            try? FileManager.default.removeItem(atPath: runtime)
        }

        /// The environment of every example.
        var environment: [String: String] {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            return [
                "PATH": directory.path + "/bin:" + path, "XDG_RUNTIME_DIR": runtime, "NO_COLOR": "1",
                // The default data dir lives under HOME: the stage's, never the user's.
                "HOME": directory.path + "/home", "XDG_DATA_HOME": directory.path + "/home/.local/share",
                "XDG_STATE_HOME": directory.path + "/home/.local/state",
                "OPEN_METEO_BASE_URL": server.baseURL, "OPEN_METEO_GEOCODING_BASE_URL": server.baseURL,
                "OPEN_METEO_ENSEMBLE_BASE_URL": server.baseURL,
                // NWS too: the stand-in answers 404 for a point, as NWS does outside its area.
                "NWS_BASE_URL": server.baseURL, "BRIGHTSKY_BASE_URL": server.baseURL, "FPAS_BASE_URL": server.baseURL,
            ]
        }

        /// The examples' working directory.
        var work: String { directory.path + "/work" }

        /// Runs `command` with `/bin/sh` in the working directory.
        func run(_ command: String) async throws -> CommandRun {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            let command = command.replacingOccurrences(of: "127.0.0.1:9466", with: "127.0.0.1:\(httpPort)")
            return try await runCommand(
                ["-c", command], environment: environment, executable: "/bin/sh", directory: work)
        }

        /// Runs a session: its one command (`weatherd` and options, relative paths from the working directory),
        /// each line sent in turn, each answer waited for, each event made to happen; returns what it printed.
        func session(_ example: DocExample) async throws -> [String] {
            let words = (example.commands.first ?? "").split(separator: " ").map(String.init)
            try #require(words.first == "weatherd", "\(example): a session's command is weatherd")
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            let arguments = words.dropFirst().map { $0.hasPrefix("./") ? work + $0.dropFirst() : $0 }
            let weatherd = try RunningWeatherd(arguments: Array(arguments), environment: environment)
            var answers = 0
            for step in example.session {
                switch step {
                case .send(let line): try weatherd.send(line: line)
                case .receive:
                    answers += 1
                    #expect(await weatherd.output.wait(for: answers), "\(example): answer \(answers) never came")
                case .event("(the provider becomes unreachable)"): server.stop()
                case .event(let text): Issue.record("\(example): the stage cannot make \(text) happen")
                }
            }
            try weatherd.closeInput()
            #expect(await weatherd.waitForExit() == 0, "\(example): \(weatherd.standardError)")
            return weatherd.output.lines.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test("every shell example of the README and the articles runs, exits 0 and prints what the docs show")
    func examples() async throws {
        var ran = 0
        for document in DocExample.documents {
            // Each document is read from its start in a directory of its own, as a reader would follow it,
            // once the README's first command has made `./wd-data`.
            let stage = try Stage()
            let first = try await stage.run("weatherd now Berlin --data-dir ./wd-data")
            try #require(first.status == 0, "the README's first command: \(first.errors)")
            for example in try DocExample.examples(in: document) {
                var printed: [String] = []
                if example.session.isEmpty {
                    for command in example.commands where DocExample.skipReason(command) == nil {
                        let runnable = DocExample.runnable(command)
                        let run = try await stage.run(runnable)
                        #expect(run.status == 0, "\(example): `\(runnable)` exited \(run.status): \(run.errors)")
                        printed += run.lines
                        ran += 1
                    }
                } else {
                    printed = try await stage.session(example)
                    ran += 1
                }
                if let shown = example.expected {
                    #expect(
                        DocExample.matches(printed, shown),
                        "\(example) prints\n\(printed.joined(separator: "\n"))\nwhere the docs show\n\(shown.joined(separator: "\n"))"
                    )
                }
            }
        }
        #expect(ran >= 10, "the examples run: \(ran)")
    }

    @Test("what the docs show is matched line by line, … for any text, times and ports as the run gives them")
    func matching() {
        #expect(DocExample.matches(["Berlin: ⛅️ +4°C"], ["Berlin: ⛅️ +4°C"]))
        #expect(!DocExample.matches(["Berlin: ⛅️ +5°C"], ["Berlin: ⛅️ +4°C"]))
        #expect(DocExample.matches([#"{"a":1,"ts":"2027-01-02T03:04:05.678Z"}"#], [#"{"a":1,…}"#]))
        #expect(DocExample.matches([#"{"ts":"2027-01-02T03:04:05.678Z"}"#], [#"{"ts":"2026-11-23T01:48:52.471Z"}"#]))
        #expect(!DocExample.matches([#"{"ts":"later"}"#], [#"{"ts":"2026-11-23T01:48:52.471Z"}"#]))
        #expect(DocExample.matches(["http://127.0.0.1:4242/v1"], ["http://127.0.0.1:18931/v1"]))
        #expect(!DocExample.matches(["one", "two"], ["one"]))
    }

    @Test("blocks are read as commands, transcripts and sessions; continuations join; skips name their reason")
    func reading() {
        #expect(
            DocExample.runnable("swift build -c release && .build/release/weatherd now Berlin") == "weatherd now Berlin"
        )
        let check = DocExample.runnable(".build/release/weatherd-check-log wd-data")
        #expect(check.hasPrefix("weatherd-check-log --schemas /") && check.hasSuffix("/Events/schemas wd-data"))
        #expect(DocExample.skipReason("docker compose up -d weatherd") != nil)
        #expect(DocExample.skipReason("weatherd now Berlin") == nil)
    }
}
