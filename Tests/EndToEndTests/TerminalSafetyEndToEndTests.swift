import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd's commands for people show hostile names and texts harmlessly, through a pipe and on a terminal")
struct TerminalSafetyEndToEndTests {
    /// A favorite's name with what a terminal or a bar would act on: colour, a window title (OSC … BEL), a
    /// clear screen, a carriage return, a right-to-left override, a line separator, and polybar's and tmux's
    /// markup.
    static let hostileName =
        "Evil\u{1B}[31mRed\u{1B}]0;pwned\u{07}Title\u{1B}[2JClear\rCR\u{202E}RLO\u{2028}LS%{A1:touch pwned:}#[fg=blue]"

    /// What the name's first part shows as: escaped, never acted on.
    static let shownName = "Evil\\u{1B}[31mRed\\u{1B}]0;pwned\\u{7}Title\\u{1B}[2JClear\\u{D}CR\\u{202E}RLO\\u{2028}LS"

    /// A headline of an official warning with a control sequence in it.
    static let hostileHeadline = "Heat\u{1B}[5m warning\u{9B}2J\u{2066}"

    /// A stand-in for Open-Meteo (weather; a geocoder that finds nothing) and the US National Weather Service
    /// (a warning whose headline is hostile).
    static func upstream() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        server.route("/v1/search", .init(body: OpenMeteoBodies.geocode([])))
        server.route("/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 12)))
        server.route("/v1/forecast", query: "hourly=", .init(body: OpenMeteoBodies.forecast()))
        let warnings = try JSONValue.parse(try OfficialEndToEndTests.inForce("nws-alerts-point-phoenix-az.json"))
        let hostile = ProviderEndToEndTests.rewritingMembers(of: warnings) { key, _ in
            key == "headline" ? .string(hostileHeadline) : nil
        }
        server.route("/alerts/active", .init(body: hostile.jsonBytes))
        return server
    }

    /// The scalars of `text` a terminal would act on, but for line ends and weatherd's own colour (`ESC[0m`,
    /// `ESC[1m`, `ESC[2m`, `ESC[33m`): C0 controls, DEL, C1 controls, the line and paragraph separators and the
    /// bidirectional overrides and isolates.
    static func unsafeScalars(_ text: String) -> [Unicode.Scalar] {
        let ownColour = /\x{1B}\[(?:0|1|2|33)m/
        return text.replacing(ownColour, with: "").unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    /// A data dir with the hostile favorite (in the US, so that its warnings come from the stand-in NWS), its
    /// weather fetched and its official warning raised as an alert, and the options that point commands at it.
    static func prepared(_ server: LocalHTTPServer) async throws -> (TemporaryDataDirectory, [String]) {
        let directory = TemporaryDataDirectory()
        let options =
            [
                "--standalone", "--data-dir", directory.path, "--open-meteo-base-url", server.baseURL,
                "--open-meteo-geocoding-base-url", server.baseURL + "/", "--nws-base-url", server.baseURL,
            ] + quietTimers
        let weatherd = try RunningWeatherd(
            arguments: ["--standalone", "--data-dir", directory.path, "--log-level", "warning"] + quietTimers)
        let added = try await weatherd.call(
            "favorites/add", ["name": .string(hostileName), "lat": 33.45, "lon": -112.07, "country": "US"])
        #expect(added["result"]?["id"] == "fav-1", "\(added)")
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        let refreshed = try await runCommand(["refresh"] + options)
        #expect(refreshed.status == 0, "\(refreshed.errors)")
        return (directory, options)
    }

    /// The command lines checked: every command that shows names or upstream texts, every bar style, and
    /// command lines whose errors quote what was typed.
    static func commandLines(_ options: [String]) -> [(arguments: [String], bar: Bool)] {
        let bars = ["waybar", "i3blocks", "polybar", "tmux", "plain"].map { style in
            (["bar", "fav-1", "--style", style, "--format", "%l %c %t"] + options, true)
        }
        return [
            (["favorites"] + options, false), (["favorites", "--names"] + options, false),
            (["now", "fav-1", "--format", "%l %c %t"] + options, false), (["forecast", "fav-1"] + options, false),
            (["forecast", "fav-1", "--hourly"] + options, false), (["alerts"] + options, false),
            (["events", "--limit", "100"] + options, false), (["warnings", "fav-1"] + options, false),
            (["refresh", "fav-1"] + options, false), (["now", "Nowhere\u{1B}[31m\u{202E}"] + options, false),
            (["now", "--\u{1B}]0;flag\u{07}"] + options, false), (["\u{1B}[2Jfavourites"] + options, false),
        ] + bars
    }

    @Test("no control character, separator or bidi override reaches a pipe or a terminal; names show escaped")
    func nothingRaw() async throws {
        let server = try Self.upstream()
        let (directory, options) = try await Self.prepared(server)
        for (arguments, bar) in Self.commandLines(options) {
            for terminal in [false, true] {
                let run = try await runCommand(
                    arguments, terminal: terminal, errorsOnTerminal: terminal, stopAtFirstLine: bar)
                let seen = run.output + run.errors
                #expect(!seen.isEmpty, "\(arguments.prefix(2)) printed something")
                #expect(
                    Self.unsafeScalars(seen).isEmpty,
                    "\(arguments.prefix(4)) on a \(terminal ? "terminal" : "pipe"): \(seen.debugDescription)")
                if arguments.first == "bar" {
                    try Self.expectBarMarkupEscaped(run.output, style: arguments[3])
                }
            }
        }
        try Repository.checkLog(directory.path)
    }

    @Test("each command that shows the name shows it escaped, and the warning's headline too; --json stays exact")
    func shownEscaped() async throws {
        let server = try Self.upstream()
        let (directory, options) = try await Self.prepared(server)
        defer { withExtendedLifetime(directory) {} }
        for arguments in [
            ["favorites"], ["now", "fav-1", "--format", "%l"], ["forecast", "fav-1"], ["events", "--after-seq", "0"],
        ] {
            let run = try await runCommand(arguments + options, terminal: true)
            #expect(run.output.contains(Self.shownName), "\(arguments): \(run.output.debugDescription)")
        }
        let alerts = try await runCommand(["alerts"] + options, terminal: true)
        #expect(alerts.output.contains("Heat\\u{1B}[5m warning\\u{9B}2J\\u{2066}"), "\(alerts.output.debugDescription)")
        #expect(alerts.output.contains(Self.shownName), "the place in the official alert's text")
        // The name as shown finds the favorite, as the name as typed does.
        let byShownName = try await runCommand(["now", Self.shownName + "%{A1:touch pwned:}#[fg=blue]"] + options)
        #expect(byShownName.status == 0, "\(byShownName.errors)")
        let json = try await runCommand(["favorites", "--json"] + options, terminal: true)
        let favorites = try JSONValue.parse(Array(json.output.utf8))
        #expect(
            favorites["favorites"]?.arrayValue?.first?["name"] == .string(Self.hostileName),
            "JSON carries the name exactly")
        let error = try await runCommand(["now", "Nowhere\u{1B}[31m"] + options)
        #expect(error.status == 1)
        #expect(error.errors.contains("Nowhere\\u{1B}[31m"), "\(error.errors.debugDescription)")
    }

    /// A bar line keeps its own markup and never carries the name's: polybar's `%{A…}` is escaped, tmux's
    /// `#[…]` doubled; waybar's JSON decodes to safe text.
    static func expectBarMarkupEscaped(_ output: String, style: String) throws {
        let line = try #require(output.split(separator: "\n").first.map(String.init), "\(style): a line")
        switch style {
        case "polybar":
            #expect(!line.contains("%{A"), "\(line)")
            #expect(line.contains("%\\u{7B}A1:touch pwned:}"), "\(line)")
        case "tmux":
            #expect(line.contains("##[fg=blue]") && !line.contains("###[fg=blue]"), "\(line)")
        case "waybar":
            let object = try JSONValue.parse(Array(line.utf8))
            for member in ["text", "tooltip"] {
                let text = try #require(object[member]?.stringValue)
                #expect(unsafeScalars(text).isEmpty, "\(member): \(text.debugDescription)")
                #expect(text.contains(shownName), "\(member): \(text.debugDescription)")
            }
        default:
            #expect(line.contains(shownName), "\(line.debugDescription)")
        }
    }
}
