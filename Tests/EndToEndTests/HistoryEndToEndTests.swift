import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd history end to end: the recorded ERA5 body from a stand-in on 127.0.0.1")
struct HistoryEndToEndTests {
    @Test("a table of the recorded days; a final range asked again makes no call; --to is required")
    func session() async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/v1/archive",
            .init(body: try ProviderEndToEndTests.fixture("openmeteo-archive-era5-enschede-1953-trimmed.json")))
        let directory = TemporaryDataDirectory()
        let base = ["--standalone", "--data-dir", directory.path, "--open-meteo-archive-base-url", server.baseURL]
        let range = ["--from", "1953-01-31", "--to", "1953-02-01"]
        let first = try await runCommand(["history", "52.22,6.89"] + range + base)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.lines.first == "52.22,6.89", "\(first.output)")
        #expect(first.lines.dropFirst().first?.hasPrefix("date") == true, "\(first.output)")
        let rows = first.lines.filter { $0.hasPrefix("1953-") }
        #expect(rows.count == 2, "\(first.output)")
        #expect(rows.first?.contains("11.9 mm") == true, "\(first.output)")
        #expect(rows.allSatisfy { $0.hasSuffix("era5") }, "\(first.output)")
        #expect(first.lines.last?.contains("Open-Meteo") == true)
        #expect(server.requests.count == 1)
        #expect(
            server.requests.first?.hasPrefix("/v1/archive?latitude=52.22&longitude=6.89&start_date=1953-01-31") == true)

        let again = try await runCommand(["history", "52.22,6.89", "--json"] + range + base)
        let answer = try JSONValue.parse(Array(again.output.utf8))
        #expect(answer["calls"] == 0)
        #expect(answer["days"]?.arrayValue?.first?["precipitation"] == 11.9)
        #expect(server.requests.count == 1, "final days are kept for good")

        let missing = try await runCommand(["history", "52.22,6.89", "--from", "1953-01-31"] + base)
        #expect(missing.status == 64, "\(missing.errors)")
        #expect(missing.errors.contains("--to DATE is required"))
        let check = try Repository.checkLog(directory.path)
        #expect(check.types["past.fetched"] == 1, "every event valid against its schema, one call audited")
    }
}
