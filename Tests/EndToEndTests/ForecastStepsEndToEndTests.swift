import Foundation
import Testing
import WeatherDomain
import WeatherTesting

/// `weatherd forecast --hourly` and `weatherd chart` against a stand-in Open-Meteo that answers as Open-Meteo
/// does: 16 days of hours from local midnight (+01:00) today, and 16 days of the days' own figures.
@Suite("weatherd forecast --hourly and chart --days, end to end: the provider's hours and days")
struct ForecastStepsEndToEndTests {
    static func openMeteo() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        let now = Int64(Date().timeIntervalSince1970)
        let midnight = (now + 3600) / 86_400 * 86_400 - 3600
        server.route(
            "/v1/forecast", query: "hourly=",
            .init(body: OpenMeteoBodies.forecast(start: Timestamp(milliseconds: midnight * 1000), hours: 384)))
        return server
    }

    static func options(_ directory: TemporaryDataDirectory, _ server: LocalHTTPServer) -> [String] {
        ["--standalone", "--data-dir", directory.path, "--open-meteo-base-url", server.baseURL] + quietTimers
    }

    @Test("forecast --hourly prints the next 48 hours, one row an hour, as weather/forecast type hourly has them")
    func hourly() async throws {
        let server = try Self.openMeteo()
        let directory = TemporaryDataDirectory()
        let run = try await runCommand(["forecast", "52.52,13.41", "--hourly"] + Self.options(directory, server))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.isEmpty)
        let rows = run.lines.filter { $0.hasPrefix("  ") }
        #expect(rows.count == 48, "\(run.output)")
        // One row an hour: the local times run 00, 01, … (the first is the hour running now).
        let hours = rows.compactMap { Int($0.dropFirst(2).prefix(2)) }
        #expect(hours.count == 48)
        for (earlier, later) in zip(hours, hours.dropFirst()) { #expect(later == (earlier + 1) % 24, "\(hours)") }
    }

    @Test("chart --days 7 draws seven days: the steps as far as they go, then the days from their own figures")
    func sevenDays() async throws {
        let server = try Self.openMeteo()
        let directory = TemporaryDataDirectory()
        let file = URL(fileURLWithPath: directory.root).appendingPathComponent("chart.svg").path
        let json = try await runCommand(
            ["chart", "52.52,13.41", "--days", "7", "--json"] + Self.options(directory, server))
        let forecast = try JSONValue.parse(Array(json.output.utf8))
        let days = try #require(forecast["daily"]?.arrayValue)
        #expect(days.count == 7)
        let run = try await runCommand(
            ["chart", "52.52,13.41", "--days", "7", "--out", file] + Self.options(directory, server))
        #expect(run.status == 0, "\(run.errors)")
        let place = try #require(forecast["location"]?["name"]?.stringValue)
        #expect(run.lines == ["wrote \(file) (\(place), 7 days)"])
        let root = try XMLCheck.parse(try String(contentsOfFile: file, encoding: .utf8))
        let texts = root.elements(named: "text").map(\.text)
        for day in days.dropFirst() {
            let low = Int(try #require(day["min"]?.doubleValue).rounded())
            let high = Int(try #require(day["max"]?.doubleValue).rounded())
            let labels = texts.filter { $0.contains("\(low)") && $0.contains("\(high)") }
            #expect(!labels.isEmpty, "day \(day["date"] ?? "?") is labelled with its low and high: \(texts)")
        }
        let description = root.elements(named: "desc").first?.text ?? ""
        #expect(
            description.contains(" day from their lows, highs") || description.contains(" days from their lows, highs"),
            "the days after the steps are drawn from their own figures: \(description)")
    }
}
