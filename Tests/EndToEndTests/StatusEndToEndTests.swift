import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd status and the daemon's settings, end to end")
struct StatusEndToEndTests {
    @Test("status: the daemon's upstream calls, its cache ages and timeout, each upstream's base URL")
    func status() async throws {
        let server = try PeopleCommandsEndToEndTests.upstream()
        let shared = try SharedDataDir()
        let options =
            [
                "--data-dir", shared.directory.path, "--idle-exit", "120", "--open-meteo-base-url", server.baseURL,
                "--cache-ttl", "300",
            ] + quietTimers
        let now = try await runCommand(["now", "52.52,13.41"] + options, environment: shared.environment)
        #expect(now.status == 0, "\(now.errors)")
        let again = try await runCommand(["now", "52.52,13.41"] + options, environment: shared.environment)
        #expect(again.status == 0, "\(again.errors)")
        let calls = server.requests.count
        #expect(calls >= 2, "the current weather and the forecast")
        let status = try await runCommand(["status"] + options, environment: shared.environment)
        #expect(status.status == 0, "\(status.errors)")
        #expect(status.lines.contains("upstream  \(calls) calls, 2 answered from the cache"), "\(status.output)")
        #expect(
            status.lines.contains("cache     current weather 5 min, forecasts 1 h 0 min, upstream timeout 30 s"),
            "\(status.output)")
        #expect(status.lines.contains("URLs      weather     \(server.baseURL)"), "\(status.output)")
        let json = try JSONValue.parse(
            Array(try await runCommand(["status", "--json"] + options, environment: shared.environment).output.utf8))
        #expect(json["upstreamCalls"]?["calls"] == .int(Int64(calls)))
        #expect(json["baseURLs"]?["weather"] == .string(server.baseURL))
        #expect(json["upstreamTimeoutSeconds"] == 30)
        #expect(json["owmKeyDigest"] == .null)
        try await shared.stopDaemon()
    }

    @Test("status never shows the OpenWeatherMap key, only that there is one")
    func noKey() async throws {
        let directory = TemporaryDataDirectory()
        let key = ["OWM_API_KEY": "secret-key-4711"]
        let options = ["--standalone", "--data-dir", directory.path] + quietTimers
        let text = try await runCommand(["status"] + options, environment: key)
        let json = try await runCommand(["status", "--json"] + options, environment: key)
        #expect(text.lines.contains("provider  openweathermap (API 2.5, with a key)"), "\(text.output)")
        #expect(!text.output.contains("secret-key-4711") && !json.output.contains("secret-key-4711"))
        #expect(try JSONValue.parse(Array(json.output.utf8))["owmKeyDigest"]?.stringValue?.count == 16)
    }
}
