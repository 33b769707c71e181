import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd forecast and chart with MET Norway: the ± column's ask for the spread costs no call of its own")
struct MetNorwaySpreadEndToEndTests {
    static let path = "/weatherapi/locationforecast/2.0/complete"

    /// MET Norway's recorded `complete` answer moved by whole days so that its first step falls within the day
    /// before `now`: its percentiles, hours and days as recorded, its steps ahead.
    static func body(movedTo now: Date) throws -> [UInt8] {
        let recorded = try JSONValue.parse(
            try ProviderEndToEndTests.fixture("metno-locationforecast-complete-59n10e-alt63-20220518.json"))
        let first = try #require(
            recorded["properties"]?["timeseries"]?.arrayValue?.first?["time"]?.stringValue.flatMap(
                Timestamp.init(rfc3339:)))
        let days = (Int64(now.timeIntervalSince1970 * 1000) - first.milliseconds) / 86_400_000
        return ProviderEndToEndTests.rewritingMembers(of: recorded) { key, member in
            guard key == "time", let time = member.stringValue.flatMap(Timestamp.init(rfc3339:)) else { return nil }
            return .string(Timestamp(milliseconds: time.milliseconds + days * 86_400_000).description)
        }.jsonBytes
    }

    @Test("weatherd forecast asks for the spread, then the forecast: one call to MET Norway, and a ± column")
    func oneCall() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route(Self.path, .init(body: try Self.body(movedTo: Date())))
        let directory = TemporaryDataDirectory()
        let options =
            [
                "--standalone", "--data-dir", directory.path, "--provider", "met-norway", "--met-norway-base-url",
                server.baseURL, "--contact", "tests@weatherd.test",
            ] + quietTimers
        let forecast = try await runCommand(["forecast", "59.91,10.75"] + options)
        #expect(forecast.status == 0, "\(forecast.errors)")
        #expect(forecast.lines.count > 2 && forecast.lines[1].contains("±"), "\(forecast.output)")
        #expect(forecast.lines.dropFirst(2).contains { $0.contains("±") }, "\(forecast.output)")
        #expect(server.requests.filter { $0.contains(Self.path) }.count == 1, "\(server.requests)")
        let chart = try await runCommand(["chart", "59.91,10.75"] + options)
        #expect(chart.status == 0, "\(chart.errors)")
        #expect(server.requests.count == 1, "the chart's ask and forecast from the cache: \(server.requests)")
    }
}
