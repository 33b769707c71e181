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
                // The daemon lives through the test however slow the run: an idle exit between two commands would
                // start a new daemon whose counters begin at zero. The cache keeps its answers a day, so the
                // second `now` is answered from it however long the first one took (a busy machine took minutes).
                "--data-dir", shared.directory.path, "--idle-exit", "3600", "--open-meteo-base-url", server.baseURL,
                "--cache-ttl", "86400", "--forecast-ttl", "86400",
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
            status.lines.contains("cache     current weather 1 d 0 h, forecasts 1 d 0 h, upstream timeout 30 s"),
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

    @Test("a command or relay whose upstream settings differ from the running daemon's says so in one line")
    func settingsDiffer() async throws {
        let shared = try SharedDataDir()
        // The daemon the first command starts must outlive every step, however slow the machine: one that
        // idled out would be started again by the relay with the relay's own settings, and nothing would differ.
        let options = ["--data-dir", shared.directory.path, "--idle-exit", "3600"] + quietTimers
        let started = try await runCommand(["favorites"] + options, environment: shared.environment)
        #expect(started.status == 0 && started.errors.isEmpty, "\(started.errors)")
        let same = try await runCommand(["favorites"] + options, environment: shared.environment)
        #expect(same.errors.isEmpty, "the same settings: nothing said")

        let other = try await runCommand(
            ["favorites", "--cache-ttl", "60", "--provider", "open-meteo"] + options,
            environment: shared.environment.merging(["OWM_API_KEY": "secret-key-4711"]) { $1 })
        #expect(other.status == 0)
        #expect(other.output == same.output, "stdout is the same")
        let lines = other.errors.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(other.errors)")
        let line = String(lines.first ?? "")
        #expect(line.contains("--cache-ttl (daemon: 600 s, here: 60 s)"), "\(line)")
        #expect(line.contains("OWM_API_KEY (the daemon has none)"), "\(line)")
        #expect(line.contains("`weatherd stop`"), "\(line)")
        #expect(!line.contains("secret-key-4711"))

        let relay = try shared.client(["--upstream-timeout", "5"])
        let answer = try await relay.call("favorites/list")
        #expect(answer["result"]?["favorites"] == [], "the relay's answers are the daemon's, as ever")
        try relay.closeInput()
        #expect(await relay.waitForExit() == 0)
        #expect(relay.standardError.contains("--upstream-timeout (daemon: 30 s, here: 5 s)"), "\(relay.standardError)")
        #expect(relay.standardError.split(separator: "\n").count == 1, "\(relay.standardError)")
        try await shared.stopDaemon()
    }
}
