import Foundation
import Testing
import WeatherDomain
import WeatherTesting

/// `weatherd chart` on the real binary against a stand-in OpenWeatherMap serving the recorded London
/// answers, moved by whole days so that the forecast lies ahead.
@Suite("weatherd chart, end to end")
struct ChartEndToEndTests {
    /// A stand-in OpenWeatherMap with the recorded London answers moved to now.
    static func owm() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        let now = Date()
        server.route(
            "/data/2.5/weather",
            .init(body: try ProviderEndToEndTests.metric("owm-current-london.json", movedTo: now)))
        server.route(
            "/data/2.5/forecast",
            .init(body: try ProviderEndToEndTests.metric("owm-forecast-london.json", movedTo: now)))
        return server
    }

    @Test("chart --out writes a well-formed SVG with every day's low and high; --json prints the forecast")
    func writesTheChart() async throws {
        let server = try Self.owm()
        let directory = TemporaryDataDirectory()
        let options = ["--standalone", "--data-dir", directory.path, "--owm-base-url", server.baseURL]
        let json = try await runCommand(
            ["chart", "51.5085,-0.1257", "--json"] + options, environment: CommandsEndToEndTests.owmKey)
        #expect(json.status == 0, "\(json.errors)")
        let forecast = try JSONValue.parse(Array(json.output.utf8))
        let daily = try #require(forecast["daily"]?.arrayValue)
        #expect((4...6).contains(daily.count), "every local date from today on that the 40 steps reach")

        let file = URL(fileURLWithPath: directory.root).appendingPathComponent("chart.svg").path
        let run = try await runCommand(
            ["chart", "51.5085,-0.1257", "--out", file] + options, environment: CommandsEndToEndTests.owmKey)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.lines == ["wrote \(file) (London, \(daily.count) days)"])
        #expect(run.errors.isEmpty)
        let svg = try String(contentsOfFile: file, encoding: .utf8)
        let root = try XMLCheck.parse(svg)
        #expect(root.name == "svg")
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root.attributes["version"] == "1.1")
        let lower = svg.lowercased()
        for forbidden in ["<script", "href", "url(http", "@import"] { #expect(!lower.contains(forbidden)) }
        let texts = root.elements(named: "text").map(\.text)
        #expect(texts.contains("London, GB"))
        #expect(texts.contains { $0.contains("temperature in °C") })
        let description = root.elements(named: "desc").first?.text ?? ""
        for (index, day) in daily.enumerated() {
            let low = Int(try #require(day["min"]?.doubleValue).rounded())
            let high = Int(try #require(day["max"]?.doubleValue).rounded())
            #expect(description.contains("low \(low)°, high \(high)°"), "\(day)")
            // The first day may lie wholly before the steps still ahead (then it is not drawn); the others
            // carry their labels above the plot.
            if index > 0 { #expect(texts.contains("↓\(low)° ↑\(high)°"), "\(day)") }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.root).filter {
            $0.hasSuffix(".tmp")
        }
        #expect(leftovers.isEmpty, "no temporary file is left behind")

        let standardOutput = try await runCommand(
            ["chart", "51.5085,-0.1257"] + options, environment: CommandsEndToEndTests.owmKey)
        #expect(standardOutput.status == 0)
        _ = try XMLCheck.parse(standardOutput.output)
    }

    @Test("a file that cannot be written: exit 1, the reason on stderr, nothing on stdout")
    func unwritable() async throws {
        let server = try Self.owm()
        let directory = TemporaryDataDirectory()
        let run = try await runCommand(
            [
                "chart", "51.5085,-0.1257", "--out", "/nonexistent-dir/x.svg", "--standalone", "--data-dir",
                directory.path, "--owm-base-url", server.baseURL,
            ], environment: CommandsEndToEndTests.owmKey)
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("weatherd chart: cannot write /nonexistent-dir/x.svg"), "\(run.errors)")
    }

    @Test("usage errors exit 64 with the usage line; --help has the usage and an example")
    func usage() async throws {
        let directory = TemporaryDataDirectory()
        for arguments in [["--days", "0"], ["--days", "17"], ["--days", "x"], ["--units", "furlongs"]] {
            let run = try await runCommand(["chart"] + arguments + ["--standalone", "--data-dir", directory.path])
            #expect(run.status == 64, "\(arguments)")
            #expect(run.errors.contains("usage: weatherd chart"), "\(arguments)")
            #expect(run.output.isEmpty)
        }
        #expect(directory.logBytes().isEmpty, "a usage error opens nothing")
        let help = try await runCommand(["chart", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: weatherd chart"))
        #expect(help.output.contains("example:"))
        let overview = try await runCommand(["--help"])
        #expect(overview.output.contains("chart"))
    }
}
