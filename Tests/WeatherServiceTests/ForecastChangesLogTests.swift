import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@testable import WeatherCLI

/// Forecast bodies whose day figures for some dates are set by the test.
enum ChangesFixture {
    static let berlin: [String: JSONValue] = ["lat": 52.52, "lon": 13.41]

    /// One date's figures in a body: °C, a chance in percent, a WMO code.
    struct Day {
        var low: Double
        var high: Double
        var pop: Int64
        var code: Int64 = 3
        var rain: Double = 0.4
    }

    /// Open-Meteo's answer fetched on local date `fetched` (Berlin, UTC+1): 16 days from its midnight, the
    /// dates in `days` carrying their figures, every other date the generated ones.
    static func body(fetched: String, _ days: [String: Day]) throws -> [UInt8] {
        let midnight = try #require(LocalDate.start(of: fetched, zone: .fixed(3600)))
        guard case .object(var top) = try JSONValue.parse(OpenMeteoBodies.forecast(start: midnight, hours: 48)),
            case .object(var daily)? = top["daily"], let times = daily["time"]?.arrayValue
        else { throw NowcastFixture.FixtureError() }
        for (index, time) in times.enumerated() {
            let date = LocalDate.string(Timestamp(milliseconds: (time.intValue ?? 0) * 1000), zone: .fixed(3600))
            guard let day = days[date] else { continue }
            for (member, value) in [
                ("temperature_2m_min", JSONValue.double(day.low)), ("temperature_2m_max", .double(day.high)),
                ("precipitation_probability_max", .int(day.pop)), ("weather_code", .int(day.code)),
                ("precipitation_sum", .double(day.rain)),
            ] {
                guard case .array(var column)? = daily[member] else { continue }
                column[index] = value
                daily[member] = .array(column)
            }
        }
        top["daily"] = .object(daily)
        return JSONValue.object(top).jsonBytes
    }

    /// Friday's figures, the same in every fetch.
    static let friday = Day(low: 3, high: 11, pop: 10)

    static func network() throws -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route(
            "/v1/forecast", query: "hourly=",
            replies: [
                InMemoryTransport.ok(
                    try body(
                        fetched: "2026-11-26", ["2026-11-27": friday, "2026-11-28": Day(low: 4, high: 14, pop: 20)])),
                InMemoryTransport.ok(
                    try body(
                        fetched: "2026-11-26", ["2026-11-27": friday, "2026-11-28": Day(low: 4, high: 14, pop: 20)])),
                InMemoryTransport.ok(
                    try body(
                        fetched: "2026-11-27",
                        ["2026-11-27": friday, "2026-11-28": Day(low: 2.5, high: 9, pop: 70, code: 61)])),
            ])
        return network
    }
}

@Suite("weather/forecastChanges: every forecast of a date, from the log, on the manual clock")
struct ForecastChangesLogTests {
    /// Thursday 26 November, 08:00 in Berlin.
    static let start = "2026-11-26T07:00:00Z"

    @Test("three fetches: the one that changed Saturday, its differences and the sentence; no upstream call")
    func changes() async throws {
        let network = try ChangesFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(Self.start))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await Self.fetch(service, clock)
            let calls = network.requests.count
            var params = ChangesFixture.berlin
            params["date"] = "2026-11-28"
            let answer = try await service.result("weather/forecastChanges", .object(params))
            #expect(network.requests.count == calls, "read from the log alone")
            try Self.expectSaturday(answer)
            params["units"] = "imperial"
            let imperial = try await service.result("weather/forecastChanges", .object(params))
            let change = try #require(imperial["dates"]?.arrayValue?.first?["changes"]?.arrayValue?.first)
            #expect(change["high"] == -9, "a 5 °C drop is a 9 °F drop")
            #expect(imperial["dates"]?.arrayValue?.first?["revisions"]?.arrayValue?.first?["high"] == 57.2)
        }
    }

    /// Thursday 08:00, Thursday 20:00, Friday 09:00 (local).
    static func fetch(_ service: InProcessWeatherd, _ clock: ManualClock) async throws {
        for advance in [12, 13, 0] {
            _ = try await service.result("weather/forecast", .object(ChangesFixture.berlin))
            clock.advance(milliseconds: Int64(advance) * 3_600_000)
        }
    }

    static func expectSaturday(_ answer: JSONValue) throws {
        #expect(answer["today"] == "2026-11-27")
        let dates = try #require(answer["dates"]?.arrayValue)
        #expect(dates.count == 1)
        let saturday = dates[0]
        #expect(saturday["weekday"] == "Saturday")
        let revisions = try #require(saturday["revisions"]?.arrayValue)
        try #require(revisions.count == 3, "every fetch of Saturday")
        #expect(revisions.map { $0["high"] } == [14, 14, 9])
        #expect(revisions.map { $0["pop"] } == [0.2, 0.2, 0.7])
        #expect(revisions[0]["fetchedAt"] == "2026-11-26T07:00:00.000Z")
        #expect(revisions[2]["condition"]?["code"] == 61)
        let changes = try #require(saturday["changes"]?.arrayValue)
        try #require(changes.count == 1, "the second fetch changed nothing")
        #expect(changes[0]["fetchedAt"] == "2026-11-27T08:00:00.000Z")
        #expect(changes[0]["high"] == -5)
        #expect(changes[0]["low"] == -1.5)
        #expect(changes[0]["pop"] == 0.5)
        #expect(changes[0]["conditionWas"]?["code"] == 3)
        #expect(
            saturday["sentence"]?.stringValue
                == "Tomorrow's high has dropped from 14 °C to 9 °C since yesterday; its low has dropped from 4 °C to "
                + "2.5 °C; rain chance up from 20 % to 70 %.")
    }

    @Test("days: the next N dates from today; a date with one forecast says so")
    func days() async throws {
        let network = try ChangesFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(Self.start))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await Self.fetch(service, clock)
            var params = ChangesFixture.berlin
            params["days"] = 3
            let answer = try await service.result("weather/forecastChanges", .object(params))
            let dates = try #require(answer["dates"]?.arrayValue)
            #expect(dates.map { $0["date"] } == ["2026-11-27", "2026-11-28", "2026-11-29"])
            #expect(dates[0]["revisions"]?.arrayValue?.count == 3)
            #expect(dates[0]["sentence"] == "Today's forecast has held steady since yesterday.")
            params["days"] = nil
            params["date"] = "2026-12-12"
            let far = try await service.result("weather/forecastChanges", .object(params))
            #expect(
                far["dates"]?.arrayValue?.first?["revisions"]?.arrayValue?.count == 1, "only Friday's fetch reaches it")
            #expect(
                far["dates"]?.arrayValue?.first?["sentence"]?.stringValue?.hasPrefix(
                    "One forecast of 2026-12-12 so far") == true)
            params["date"] = "2026-12-20"
            let none = try await service.result("weather/forecastChanges", .object(params))
            #expect(
                none["dates"]?.arrayValue?.first?["sentence"] == "weatherd has fetched no forecast of 2026-12-20 yet.")
        }
    }

    @Test(
        "bad params are -32602 naming the parameter",
        arguments: [
            (["date": "2026-13-01"] as [String: JSONValue], "params.date"), (["days": 0], "params.days"),
            (["days": 17], "params.days"), (["date": "2026-11-28", "days": 2], "params.days"),
            (["date": 5], "params.date"),
        ])
    func refusals(_ extra: [String: JSONValue], _ path: String) async throws {
        try await InProcessWeatherd.with { service in
            let response = try await service.call(
                "weather/forecastChanges", .object(ChangesFixture.berlin.merging(extra) { _, new in new }))
            #expect(response["error"]?["code"] == -32602)
            #expect(response["error"]?["message"]?.stringValue?.contains(path) == true, "\(response.jsonString)")
        }
    }

    @Test("after compaction strips the payloads, the kept day summaries give the same answer")
    func compacted() async throws {
        let directory = TemporaryDataDirectory()
        let network = try ChangesFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(Self.start))
        var params = ChangesFixture.berlin
        params["date"] = "2026-11-28"
        let service = try InProcessWeatherd(directory: directory, clock: clock, network: network)
        // The segment's first line stays whole; an event before the fetches lets compaction reach both.
        _ = try await service.result("favorites/add", ["name": "Berlin", "lat": 52.52, "lon": 13.41])
        try await Self.fetch(service, clock)
        let before = try await service.result("weather/forecastChanges", .object(params))
        await service.stop()
        let (segments, report) = try await onThread {
            let segments = try OfficialFixture.sealedCopy(of: directory)
            return (
                segments,
                try LogMaintenance.compact(directory: segments.path, retainPayloads: .zero, now: clock.timestamp)
            )
        }
        #expect(report.eventsStripped == 2, "the first two forecasts were replaced")
        let reopened = try InProcessWeatherd(directory: segments, clock: clock, network: network)
        let after = try await reopened.result("weather/forecastChanges", .object(params))
        await reopened.stop()
        try Self.expectSaturday(after)
        #expect(after["dates"] == before["dates"])
        _ = try await onThread {
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: segments.path)
        }
    }

    @Test("weather/history fills the days ERA5 does not reach yet from the last forecast of each in the log")
    func historyFromTheLog() async throws {
        let network = try ChangesFixture.network()
        network.route(
            "/v1/archive",
            InMemoryTransport.ok(try PastFixture.body(from: "2026-11-25", to: "2026-11-28", nullFrom: "2026-11-26")))
        let clock = ManualClock(start: try OfficialFixture.time(Self.start))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await Self.fetch(service, clock)
            clock.advance(milliseconds: 2 * 86_400_000)
            var params = ChangesFixture.berlin
            params["from"] = "2026-11-25"
            params["to"] = "2026-11-28"
            let days = try #require(try await service.result("weather/history", .object(params))["days"]?.arrayValue)
            #expect(days.map { $0["source"] } == ["era5t", "weatherd-log", "weatherd-log", "weatherd-log"])
            #expect(days[1]["high"] == 30.75, "Thursday's own day, in Thursday's last forecast only")
            #expect(days[2]["high"] == 11 && days[2]["low"] == 3, "Friday, from Friday's forecast")
            #expect(days[3]["high"] == 9 && days[3]["low"] == 2.5, "Saturday as Friday's last forecast had it")
        }
    }

    @Test("weatherd changes prints each date's sentence, then the first forecast and the fetches that changed it")
    func cliText() async throws {
        let network = try ChangesFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(Self.start))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await Self.fetch(service, clock)
            var params = ChangesFixture.berlin
            params["date"] = "2026-11-28"
            let answer = try await service.result("weather/forecastChanges", .object(params))
            let lines = ChangesCommand.text(answer, Output(isTerminal: false, environment: [:]) { _, _ in true })
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.contains("Saturday 2026-11-28"))
            #expect(lines.contains { $0.hasPrefix("Tomorrow's high has dropped from 14 °C to 9 °C since yesterday") })
            let rows = lines.filter { $0.hasPrefix("2026-11-") }
            #expect(rows.count == 2, "the first forecast and the one fetch that changed it: \(lines)")
            #expect(rows.first?.hasPrefix("2026-11-26 08:00") == true, "the place's clock (UTC+1)")
            #expect(rows.last?.contains("9 °C") == true && rows.last?.contains("70 %") == true)
            #expect(lines.last == "3 forecasts fetched; 2 shown")
        }
    }

    @Test("days neither ERA5 nor the log has come from the Historical Forecast API, one call kept for good")
    func historicalForecast() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/archive",
            InMemoryTransport.ok(try PastFixture.body(from: "2026-11-20", to: "2026-11-24", nullFrom: "2026-11-22")))
        network.route(
            "/v1/forecast", query: "start_date=2026-11-22",
            InMemoryTransport.ok(try PastFixture.body(from: "2026-11-22", to: "2026-11-24")))
        let clock = ManualClock(start: try OfficialFixture.time(Self.start))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            var params = PastFixture.enschede
            params["from"] = "2026-11-20"
            params["to"] = "2026-11-24"
            let answer = try await service.result("weather/history", .object(params))
            let days = try #require(answer["days"]?.arrayValue)
            #expect(
                days.map { $0["source"] } == [
                    "era5t", "era5t", "historical-forecast", "historical-forecast",
                    "historical-forecast",
                ])
            let number = try #require(LocalDate.dayNumber(of: "2026-11-23"))
            #expect(days[3]["high"]?.doubleValue == Rounding.round(PastFixture.high(number), decimals: 2))
            #expect(answer["calls"] == 2, "the archive, then the historical forecast for the three days it lacks")
            let asked = network.requests.filter { $0.hasPrefix(InProcessWeatherd.historicalForecastBaseURL) }
            #expect(asked.count == 1)
            #expect(
                asked.first?.contains("/v1/forecast?") == true && asked.first?.contains("end_date=2026-11-24") == true)
            let again = try await service.result("weather/history", .object(params))
            #expect(again["days"]?.arrayValue?.last?["source"] == "historical-forecast")
            #expect(
                network.requests.filter { $0.hasPrefix(InProcessWeatherd.historicalForecastBaseURL) }.count == 1,
                "past days' archived forecasts are kept for good")
            let fetched = try await OfficialFixture.events(service, ["past.fetched"])
            #expect(fetched.map { $0["data"]?["kind"] } == ["history", "forecast_history"])
        }
    }
}
