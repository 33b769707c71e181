import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a command printed and its exit status.
struct CommandRun: Sendable {
    var status: Int32
    var output: String
    var errors: String

    var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast() }
}

/// Runs `weatherd ARGUMENTS` (or `executable`) to its end on a thread of its own (never blocking the tests'
/// shared threads); with `terminal`, its standard output is a pseudo-terminal (whose line ends are read back as
/// `\n`), and with `errorsOnTerminal` its standard error too (read back in `output`). `input` is its standard
/// input (else /dev/null), `directory` its working directory. With `stopAtFirstLine` it is sent SIGTERM once its
/// first line has come (for a command that runs until told to stop, `bar`).
func runCommand(
    _ arguments: [String], environment: [String: String] = [:], terminal: Bool = false,
    errorsOnTerminal: Bool = false, stopAtFirstLine: Bool = false,
    executable: String = RunningWeatherd.binaryPath, input: [UInt8]? = nil, directory: String? = nil
) async throws -> CommandRun {
    var variables = RunningWeatherd.environment(environment)
    if environment["NO_COLOR"] == nil { variables["NO_COLOR"] = nil }
    let pseudoTerminal = terminal ? try PseudoTerminal.open() : nil
    let device = pseudoTerminal.map { TestProcess.Stream.descriptor($0.device.fileDescriptor) }
    let process = try TestProcess(
        executable, arguments: arguments, environment: variables, standardInput: input == nil ? .null : .pipe,
        standardOutput: device ?? .pipe, standardError: errorsOnTerminal ? device ?? .pipe : .pipe,
        directory: directory)
    let reading = pseudoTerminal?.controller ?? process.output!
    if let writing = process.input, let input {
        Thread {
            try? writing.write(contentsOf: Data(input))
            try? writing.close()
        }.start()
    }
    // Only the child holds the terminal's device now, so reading ends when the child exits.
    try pseudoTerminal?.device.close()
    // The blocking reads run on threads of their own, never on the tests' shared threads.
    let (outputData, errorData) = await withCheckedContinuation { continuation in
        Thread {
            let group = DispatchGroup()
            nonisolated(unsafe) var errorData = Data()
            if let errors = process.errors {
                group.enter()
                Thread {
                    errorData = errors.readDataToEndOfFile()
                    group.leave()
                }.start()
            }
            var stopped = false
            let outputData = PseudoTerminal.readAll(reading) { data in
                guard stopAtFirstLine, !stopped, data.contains(UInt8(ascii: "\n")) else { return }
                stopped = true
                process.send(SIGTERM)
            }
            group.wait()
            continuation.resume(returning: (outputData, errorData))
        }.start()
    }
    let status = await process.exit()
    var text = String(decoding: outputData, as: UTF8.self)
    if terminal { text = text.replacingOccurrences(of: "\r\n", with: "\n") }
    return CommandRun(status: status, output: text, errors: String(decoding: errorData, as: UTF8.self))
}

/// A pseudo-terminal, to run a command whose standard output is a terminal.
enum PseudoTerminal {
    /// A new pseudo-terminal: the controlling side (read what the child prints) and the device (the child's
    /// standard output).
    static func open() throws -> (controller: FileHandle, device: FileHandle) {
        // posix_openpt, grantpt and unlockpt, as Linux does them: open the multiplexer, unlock the new
        // terminal (TIOCSPTLCK) and ask its number (TIOCGPTN).
        let controller = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard controller >= 0, ioctl(controller, 0x4004_5431, &unlock) == 0,
            ioctl(controller, 0x8004_5430, &number) == 0
        else { throw POSIXError(.ENXIO) }
        let device = Glibc.open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard device >= 0 else { throw POSIXError(.ENXIO) }
        return (
            FileHandle(fileDescriptor: controller, closeOnDealloc: true),
            FileHandle(fileDescriptor: device, closeOnDealloc: true)
        )
    }

    /// Everything printed on the terminal until its last device closes (a read then fails with `EIO`), or in
    /// a pipe until its end; `received` sees what has come so far after each read.
    static func readAll(_ controller: FileHandle, received: (Data) -> Void = { _ in }) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(controller.fileDescriptor, &buffer, buffer.count)
            if count > 0 {
                data.append(contentsOf: buffer[..<count])
                received(data)
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return data
            }
        }
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
            ("2", "🌤️ 🌡️+15°C 🌬️←6m/s"),
            ("3", "London: 🌤️ +15°C"),
            ("4", "London: 🌤️ 🌡️+15°C 🌬️←6m/s"),
            (
                "%C|%h|%t|%f|%w|%l|%P|%S|%s|%Z|100%%",
                "Few clouds|58%|+15°C|+14°C|←6m/s|London|1031hPa|04:55:09|21:00:12|UTC+01:00|100%"
            ),
            // What neither answer has (precipitation now, UV) prints as "?", never as 0.
            ("%p %u", "? ?"),
        ]
        for (format, line) in golden {
            let run = try await runCommand(base + (format.map { ["--format", $0] } ?? []), environment: Self.owmKey)
            #expect(run.status == 0, "\(format ?? "default"): \(run.errors)")
            #expect(run.lines == [line], "format \(format ?? "default")")
        }
        // The line prints the units the settings choose: km/h and mmHg once they are set.
        let weatherd = try RunningWeatherd(
            arguments: ["--standalone", "--data-dir", directory.path, "--owm-base-url", server.baseURL] + quietTimers,
            environment: Self.owmKey)
        let set = try await weatherd.call("settings/set", ["windSpeed": "km/h", "pressure": "mmHg"])
        #expect(set["result"]?["resolved"]?["windSpeed"] == "km/h", "\(set)")
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        let chosen = try await runCommand(base + ["--format", "%w %P"], environment: Self.owmKey)
        #expect(chosen.lines == ["←22km/h 773mmHg"], "\(chosen.output)")
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

    /// A stand-in OpenWeatherMap serving the recorded London answers moved by whole days to now, so the
    /// forecast's steps lie ahead.
    static func owmNow() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        let now = Date()
        server.route(
            "/data/2.5/weather", .init(body: try ProviderEndToEndTests.metric("owm-current-london.json", movedTo: now)))
        server.route(
            "/data/2.5/forecast",
            .init(body: try ProviderEndToEndTests.metric("owm-forecast-london.json", movedTo: now)))
        return server
    }

    /// The columns a line takes on a terminal: two for an emoji, one for any other character.
    static func width(_ line: Substring) -> Int {
        line.reduce(0) { total, character in
            let emoji = character.unicodeScalars.contains { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }
            return total + (emoji ? 2 : 1)
        }
    }

    /// `Fri 26 May` for `2023-05-26`, by Foundation's calendar (not weatherd's own code).
    static func dayLabel(_ date: String) -> String {
        let parse = DateFormatter()
        parse.locale = Locale(identifier: "en_US_POSIX")
        parse.timeZone = TimeZone(identifier: "UTC")
        parse.dateFormat = "yyyy-MM-dd"
        let print = DateFormatter()
        print.locale = parse.locale
        print.timeZone = parse.timeZone
        print.dateFormat = "EEE d MMM"
        return parse.date(from: date).map(print.string(from:)) ?? "?"
    }

    @Test("forecast: a row per local date in aligned columns, a row per step with --hourly; colour only on a terminal")
    func forecast() async throws {
        let server = try Self.owmNow()
        let directory = TemporaryDataDirectory()
        let base = [
            "forecast", "51.5085,-0.1257", "--standalone", "--data-dir", directory.path, "--owm-base-url",
            server.baseURL,
        ]
        let json = try JSONValue.parse(
            Array(try await runCommand(base + ["--json"], environment: Self.owmKey).output.utf8))
        let days = try #require(json["daily"]?.arrayValue)
        let entries = try #require(json["entries"]?.arrayValue)
        #expect((4...6).contains(days.count), "every local date from today on that the 40 steps reach")
        #expect(!entries.isEmpty)

        let plain = try await runCommand(base, environment: Self.owmKey)
        #expect(plain.status == 0, "\(plain.errors)")
        #expect(!plain.output.contains("\u{1B}"), "no colour off a terminal")
        #expect(plain.lines.first?.hasPrefix("London, GB · fetched ") == true, "\(plain.output)")
        let header = try #require(plain.lines.dropFirst().first)
        #expect(header.hasPrefix("day ") && header.hasSuffix("sunset"), "\(header)")
        let rows = Array(plain.lines.dropFirst(2))
        #expect(rows.count == days.count)
        for (day, row) in zip(days, rows) {
            let date = day["date"]?.stringValue ?? ""
            #expect(row.hasPrefix(Self.dayLabel(date) + " "), "\(row) is \(date)")
            for key in ["min", "max"] {
                let degrees = Int((day[key]?.doubleValue ?? .nan).rounded())
                #expect(row.contains(" \(degrees)°C "), "\(row) has the \(key) \(degrees)°C")
            }
            // The last column (sunset, HH:MM) starts where its heading does: every column before is aligned.
            #expect(Self.width(row[...]) - 5 == Self.width(header[...]) - 6, "aligned: \(row)")
        }

        let hourly = try await runCommand(base + ["--hourly", "--days", "2"], environment: Self.owmKey)
        #expect(hourly.status == 0, "\(hourly.errors)")
        let twoDays = try JSONValue.parse(
            Array(try await runCommand(base + ["--days", "2", "--json"], environment: Self.owmKey).output.utf8))
        let steps = twoDays["entries"]?.arrayValue ?? []
        let stepLines = hourly.lines.filter { $0.hasPrefix("  ") }
        #expect(stepLines.count == steps.count)
        for (step, line) in zip(steps, stepLines) {
            // London's offset is 0: local time is UTC.
            let time = String((step["time"]?.stringValue ?? "").dropFirst(11).prefix(5))
            #expect(line.hasPrefix("  \(time)  "), "\(line) is the step at \(time)")
        }
        let dates = Array(Set(steps.map { String(($0["time"]?.stringValue ?? "").prefix(10)) })).sorted()
        let headings = hourly.lines.dropFirst().filter { !$0.hasPrefix("  ") }
        #expect(headings == dates.map(Self.dayLabel), "a heading per local date, in order")

        let terminal = try await runCommand(base, environment: Self.owmKey, terminal: true)
        #expect(terminal.status == 0, "\(terminal.errors)")
        #expect(terminal.output.contains("\u{1B}["), "colour on a terminal")
        let noColor = try await runCommand(
            base, environment: Self.owmKey.merging(["NO_COLOR": "1"]) { $1 }, terminal: true)
        #expect(noColor.status == 0)
        #expect(!noColor.output.contains("\u{1B}"), "never with NO_COLOR")
        #expect(noColor.lines == plain.lines, "the same text, without colour")

        let zero = try await runCommand(base + ["--days", "0"])
        #expect(zero.status == 64)
        #expect(zero.errors.contains("usage: weatherd forecast"))
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
        for command in [
            "now", "forecast", "chart", "bar", "status", "favorites", "alerts", "events",
            "log verify|dump|stats|compact",
            "serve",
        ] {
            #expect(overview.output.contains(command), "lists \(command)")
        }
        for command in ["now", "forecast", "chart", "bar", "status", "favorites", "alerts", "events"] {
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
