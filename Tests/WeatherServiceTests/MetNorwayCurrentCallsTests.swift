import EventLog
import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite(
    "MET Norway's current weather comes with its forecast: one call per place per validity window, counted on 127.0.0.1"
)
struct MetNorwayCurrentCallsTests {
    typealias Calls = MetNorwaySpreadCallsTests

    /// The current weather MET Norway's recorded answer gives, read by the provider directly.
    static func expectedNow() throws -> CurrentReport {
        let provider = MetNorwayProvider(
            userAgent: "weatherd/test (tests@weatherd.test)", zones: ZoneTable(tab: "NO,SJ\t+5955+01045\tEurope/Oslo\n")
        )
        return try provider.decodeCurrent(
            try Calls.body(), place: Place(name: nil, country: nil, state: nil, lat: 59, lon: 10))
    }

    /// Every `weather.fetched` in the log, read page by page (a page of `events/query` holds a few of these).
    static func fetches(_ service: InProcessWeatherd) async throws -> [JSONValue] {
        var events: [JSONValue] = []
        var cursor: JSONValue?
        repeat {
            var params: [String: JSONValue] = ["types": ["weather.fetched"]]
            params["cursor"] = cursor
            let page = try await service.result("events/query", .object(params))
            events += page["events"]?.arrayValue ?? []
            cursor = page["nextCursor"].flatMap { $0 == .null ? nil : $0 }
        } while cursor != nil
        return events
    }

    @Test("current then forecast, and forecast then current: one call each place; past Expires and the TTL, one more")
    func bothOrders() async throws {
        try await Calls.with(server: try Calls.server()) { server, service in
            let bergen: JSONValue = ["lat": 60.39, "lon": 5.32]
            let current = try await service.result("weather/current", Calls.oslo)
            let forecast = try await service.result("weather/forecast", Calls.oslo)
            #expect(server.requests.count == 1, "\(server.requests)")
            #expect(current["source"] == "network" && forecast["source"] == "cache")
            #expect(forecast["fetchedAt"] == current["fetchedAt"])
            let expected = try Self.expectedNow()
            #expect(current["current"]?["temperature"]?.doubleValue == expected.current.temperature)
            #expect(current["observedAt"] == .string(expected.current.observedAt.description))
            _ = try await service.result("weather/forecast", bergen)
            let bergenNow = try await service.result("weather/current", bergen)
            #expect(server.requests.count == 2, "\(server.requests)")
            #expect(bergenNow["source"] == "cache")

            // 31 minutes on: past the answer's Expires and current weather's TTL (10 minutes), not the forecast's
            // (an hour). The forecast is served from the cache; current weather costs one call, which renews both.
            service.clock.advance(milliseconds: 31 * 60_000)
            let kept = try await service.result("weather/forecast", Calls.oslo)
            #expect(kept["source"] == "cache" && server.requests.count == 2)
            let renewed = try await service.result("weather/current", Calls.oslo)
            #expect(renewed["source"] == "network" && server.requests.count == 3, "\(server.requests)")
            let forecastAgain = try await service.result("weather/forecast", Calls.oslo)
            #expect(forecastAgain["source"] == "cache" && forecastAgain["fetchedAt"] == renewed["fetchedAt"])
            #expect(server.requests.count == 3)
            // Replay (which reads a replaced fetch's audit facts and the current weather it carried) rebuilds the
            // same state.
            let verify = try await service.result("state/verify")
            #expect(verify["ok"] == true && verify["live"] == verify["replayed"], "\(verify)")

            let fetched = try await Self.fetches(service)
            #expect(fetched.count == 3, "each call audited once")
            let schema = try JSONSchema(contentsOf: "\(OfficialFixture.schemas)/weather.fetched.v1.json")
            for event in fetched {
                let data = try #require(event["data"])
                #expect(data["kind"] == "forecast" && data["current"]?["temperature"] != nil)
                #expect(schema.validate(data) == [])
            }
        }
    }

    @Test("clients asking at once for current weather, the forecast and its spread share the one call")
    func concurrentAskers() async throws {
        try await Calls.with(server: try Calls.server(held: true)) { server, service in
            let methods = ["weather/current", "weather/forecast", "weather/confidence"]
            for id in 0..<9 {
                let request: JSONValue = [
                    "jsonrpc": "2.0", "id": .string("a\(id)"), "method": .string(methods[id % 3]),
                    "params": Calls.oslo,
                ]
                await service.receive(request.jsonBytes)
            }
            #expect(await server.requests(atLeast: 1))
            server.release()
            #expect(await service.output.wait(for: 9))
            let answers = try service.output.messages()
            #expect(answers.count == 9 && answers.allSatisfy { $0["result"] != nil }, "\(answers)")
            let temperatures = answers.compactMap { $0["result"]?["current"]?["temperature"] }
            #expect(temperatures.count == 3 && Set(temperatures.map(\.jsonString)).count == 1)
            #expect(server.requests.count == 1, "\(server.requests)")
            #expect(try await Self.fetches(service).count == 1, "one call, one event")
        }
    }

    @Test("the current weather a forecast carries reaches the alert rules: one forecast call raises a temperature drop")
    func alerts() async throws {
        try await Calls.with(server: try Calls.server()) { server, service in
            _ = try await service.result("favorites/add", ["name": "Oslo", "lat": 59, "lon": 10])
            _ = try await service.result("alerts/configure", ["tempDropC": 1])
            let forecast = try await service.result("weather/forecast", ["favoriteId": "fav-1"])
            await service.engine.alertsCaughtUp()
            #expect(server.requests.count == 1)
            let alerts = try await service.result("alerts/list")["alerts"]?.arrayValue ?? []
            let drop = try #require(alerts.first { $0["rule"] == "temp_drop" }, "\(alerts)")
            // The drop is measured from the current weather the forecast's answer carried (its first hour).
            let now = try Self.expectedNow().current.temperature
            #expect(drop["details"]?["temperature"]?.doubleValue == now)
            let low = try #require(drop["details"]?["low"]?.doubleValue)
            #expect(forecast["entries"]?.arrayValue?.contains { $0["temperature"]?.doubleValue == low } == true)
        }
    }

    @Test("subscribed current-weather and forecast resources are both announced when one answer brings both")
    func resources() async throws {
        try await Calls.with(server: try Calls.server()) { server, service in
            try await OfficialMCPTests.initialize(service)
            let uris = ["weather://current/59,10", "weather://forecast/59,10"]
            for uri in uris {
                #expect(try await service.result("resources/subscribe", ["uri": .string(uri)]) == [:])
            }
            let lines = service.output.lines.count
            _ = try await service.result("weather/forecast", Calls.oslo)
            #expect(await service.output.wait(for: lines + 3), "the answer and two announcements")
            let updates = try service.output.messages().filter { $0["method"] == "notifications/resources/updated" }
            #expect(updates.compactMap { $0["params"]?["uri"]?.stringValue }.sorted() == uris)
            #expect(server.requests.count == 1)
        }
    }

    @Test("compaction reduces a replaced forecast's current weather as a reading's; the log replays alike and checks")
    func compaction() async throws {
        let directory = TemporaryDataDirectory()
        let server = try Calls.server()
        defer { server.stop() }
        let clock = ManualClock(start: try OfficialFixture.time(Calls.start))
        let service = try Calls.service(server, directory: directory, clock: clock)
        for _ in 0..<3 {
            _ = try await service.result("weather/current", Calls.oslo)
            clock.advance(milliseconds: 31 * 60_000)
        }
        await service.stop()
        #expect(server.requests.count == 3)
        try await onThread {
            let segments = TemporaryDataDirectory()
            try DataDirectory(path: segments.path).create()
            try FileManager.default.copyItem(
                atPath: directory.path + "/events.jsonl", toPath: segments.path + "/" + LogFiles.segmentName(1))
            let state = try Replay.run(directory: segments.path, commandWindow: 100_000).state
            let report = try LogMaintenance.compact(
                directory: segments.path, retainPayloads: .zero, now: clock.timestamp)
            #expect(
                report.eventsStripped == 1, "the second forecast: the third replaced it (a segment's first line stays)")
            let compacted = try Replay.run(directory: segments.path, commandWindow: 100_000).state
            #expect(compacted.json == state.json)
            #expect(compacted.cache.current.count == 1 && compacted.cache.forecast.count == 1)
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: segments.path)
            var second: JSONValue?
            _ = try LogReader.read(directory: segments.path) { envelope, _ in
                if envelope.seq == 2 { second = try JSONValue.parse(envelope.data) }
                return envelope.seq < 2
            }
            #expect(second?["compacted"]?["reduced"] == ["current", "daily"])
            #expect(
                second?["current"]?.objectValue?.keys.sorted() == [
                    "condition", "observedAt", "precipitation", "temperature",
                ])
        }
    }

    @Test(
        "after a restart, from the snapshot and from a replay of the log, the current weather it carried serves until Expires"
    )
    func restart() async throws {
        let server = try Calls.server()
        defer { server.stop() }
        let clock = ManualClock(start: try OfficialFixture.time(Calls.start))
        let directory = TemporaryDataDirectory()
        let first = try Calls.service(server, directory: directory, clock: clock)
        _ = try await first.result("weather/forecast", Calls.oslo)
        let before = try await first.result("weather/current", Calls.oslo)
        await first.stop()
        #expect(server.requests.count == 1)
        clock.advance(milliseconds: 300_000)
        for fromSnapshot in [true, false] {
            if !fromSnapshot { try FileManager.default.removeItem(atPath: directory.path + "/snapshots") }
            let again = try Calls.service(server, directory: directory, clock: clock)
            do {
                let status = try await again.result("service/status")
                #expect((status["startup"]?["snapshotSeq"] != .null) == fromSnapshot)
                // Even asked for fresh data: the answer's Expires (21:30), replayed with its fetch, still holds.
                let after = try await again.result("weather/current", ["lat": 59, "lon": 10, "maxAgeSeconds": 0])
                #expect(after["source"] == "cache" && after["fetchedAt"] == before["fetchedAt"])
                #expect(after["current"] == before["current"] && after["location"] == before["location"])
                #expect(server.requests.count == 1, "no call while the answer is valid")
            } catch {
                await again.stop()
                throw error
            }
            await again.stop()
        }
    }
}
