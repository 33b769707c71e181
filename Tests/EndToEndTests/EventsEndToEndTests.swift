import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd events, the binary: the newest --limit events of a log many pages long, whatever the filter")
struct EventsEndToEndTests {
    /// A data dir whose log holds 1,200 generated events, a 5-day forecast every tenth (so a 60 KiB page of
    /// `events/query` holds a few dozen of them at most).
    static func longLog() throws -> TemporaryDataDirectory {
        let directory = TemporaryDataDirectory()
        try LogGenerator.write(mix: .mixed, count: 1200, to: directory.path)
        return directory
    }

    /// The seqs `weatherd events ARGUMENTS --json` printed.
    static func printed(_ directory: TemporaryDataDirectory, _ arguments: [String]) async throws -> [Int64] {
        let run = try await runCommand(
            ["events"] + arguments + ["--json", "--standalone", "--data-dir", directory.path] + quietTimers)
        #expect(run.status == 0, "\(run.errors)")
        return try run.lines.map { try #require(try JSONValue.parse(Array($0.utf8))["seq"]?.intValue) }
    }

    /// The log's events that the command could read: all but the `service.stopped` its own engine wrote last.
    static func readable(_ directory: TemporaryDataDirectory) throws -> [JSONValue] {
        let events = try logEvents(directory)
        #expect(events.last?["type"] == "service.stopped")
        return Array(events.dropLast())
    }

    @Test("no filter: the newest 20, then the newest 1,000, are the log's last ones, in order")
    func newest() async throws {
        let directory = try Self.longLog()
        let twenty = try await Self.printed(directory, [])
        let last20 = try Self.readable(directory).suffix(20).compactMap { $0["seq"]?.intValue }
        #expect(twenty == last20)
        let thousand = try await Self.printed(directory, ["--limit", "1000"])
        let last1000 = try Self.readable(directory).suffix(1000).compactMap { $0["seq"]?.intValue }
        #expect(thousand == last1000)
        #expect(thousand.count == 1000)
    }

    @Test("--type keeps the newest of that type however far back they are; --after-seq and --since bound them")
    func filtered() async throws {
        let directory = try Self.longLog()
        let events = try logEvents(directory)
        let forecasts = events.filter { $0["type"] == "weather.fetched" }
        #expect(forecasts.count > 50)
        let newestForecasts = try await Self.printed(directory, ["--type", "weather.fetched", "--limit", "50"])
        #expect(newestForecasts == forecasts.suffix(50).compactMap { $0["seq"]?.intValue })

        let after = try await Self.printed(directory, ["--type", "weather.fetched", "--after-seq", "1100"])
        let expectedAfter = try Self.readable(directory).filter {
            $0["type"] == "weather.fetched" && ($0["seq"]?.intValue ?? 0) > 1100
        }
        #expect(after == expectedAfter.suffix(20).compactMap { $0["seq"]?.intValue })
        #expect(!after.isEmpty)

        let since = try #require(events[400]["ts"]?.stringValue)
        let sinceThen = try await Self.printed(directory, ["--since", since, "--limit", "1000"])
        let sinceTime = try #require(Timestamp(rfc3339: since))
        let expectedSince = try Self.readable(directory).filter {
            ($0["ts"]?.stringValue.flatMap { Timestamp(rfc3339: $0) }).map { $0 >= sinceTime } ?? false
        }
        #expect(sinceThen == expectedSince.suffix(1000).compactMap { $0["seq"]?.intValue })
        #expect(sinceThen.count > 700)

        let none = try await runCommand([
            "events", "--since", "yesterday", "--standalone", "--data-dir", directory.path,
        ])
        #expect(none.status == 64)
        #expect(none.errors.contains("--since must be a time in RFC 3339"), "\(none.errors)")
    }
}
