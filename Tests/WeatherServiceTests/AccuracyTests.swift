import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

/// A month of forecasts and readings for Berlin in the log, and ERA5 for its days, verified.
enum AccuracyFixture {
    /// 1 November 2026, 00:00 UTC (01:00 in Berlin).
    static let start: Int64 = 1_793_491_200_000
    static let days = 30
    static let firstDate = "2026-11-01"

    static func date(_ day: Int) -> String { LocalDate.adding(Int64(day), to: firstDate) ?? firstDate }

    /// The days read in each quarter (01, 07, 13, 19 local), by index: three of ERA5's gap, one ERA5 has too,
    /// and one read in three quarters only (so not observed by the log).
    static let readDays: [Int: [Int]] = [
        9: [0, 1, 2, 3], 25: [0, 1, 2, 3], 26: [0, 1, 2, 3], 27: [0, 1, 2, 3], 28: [0, 1, 2],
    ]

    static func reading(_ day: Int, _ quarter: Int) -> Double { 2 + Double(day) * 0.1 + Double(quarter) * 1.5 }

    /// ERA5 reaches 2026-11-25; the days after it come as nulls.
    static let era5Through = "2026-11-25"

    /// The forecast fetched on day `k` (at 07:00 local): Open-Meteo's generated 16 days from that midnight, day `i`
    /// of it `i + 30.75` °C high, `i − 10.25` low, a 65 % chance.
    static func forecast(_ day: Int) -> [UInt8] {
        OpenMeteoBodies.forecast(
            start: Timestamp(milliseconds: start - 3_600_000 + Int64(day) * 86_400_000), hours: 48)
    }

    /// Fetches a month into `service`: each day its forecast at 07:00, and its readings where `readDays` says.
    static func fill(_ service: InProcessWeatherd, _ clock: ManualClock) async throws {
        var params = ConfidenceFixture.berlin
        params["maxAgeSeconds"] = 0
        for day in 0..<days {
            for quarter in 0..<4 {
                let at = start + Int64(day) * 86_400_000 + Int64(quarter) * 21_600_000
                clock.advance(milliseconds: at - clock.timestamp.milliseconds)
                if quarter == 1 { _ = try await service.result("weather/forecast", .object(ConfidenceFixture.berlin)) }
                if readDays[day]?.contains(quarter) == true {
                    _ = try await service.result("weather/current", .object(params))
                }
            }
        }
    }

    static func network() throws -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "hourly=", replies: (0..<days).map { InMemoryTransport.ok(forecast($0)) })
        var readings: [InMemoryTransport.Reply] = []
        for day in 0..<days {
            for quarter in readDays[day] ?? [] {
                let at = Timestamp(milliseconds: start + Int64(day) * 86_400_000 + Int64(quarter) * 21_600_000)
                readings.append(
                    InMemoryTransport.ok(OpenMeteoBodies.current(temperature: reading(day, quarter), time: at)))
            }
        }
        network.route("/v1/forecast", query: "current=", replies: readings)
        network.route(
            "/v1/archive",
            InMemoryTransport.ok(try PastFixture.body(from: "2026-11-02", to: "2026-11-30", nullFrom: "2026-11-26")))
        return network
    }

    /// What happened on a date, by definition: ERA5 through `era5Through`, else the day's readings when they reach
    /// every quarter, else nothing yet.
    static func observed(_ date: String) -> (high: Double, low: Double, rain: Double?)? {
        let number = LocalDate.dayNumber(of: date) ?? 0
        if date <= era5Through { return (PastFixture.high(number), PastFixture.low(number), Double(number % 4)) }
        guard let index = (0..<days).first(where: { Self.date($0) == date }), readDays[index]?.count == 4 else {
            return nil
        }
        return (reading(index, 3), reading(index, 0), nil)
    }

    /// Each lead's (high errors, low errors, (chance, wet) pairs), by definition: the forecast fetched on day `k` has
    /// lead `L`'s high at `L + 30.75`, its low at `L − 10.25`, its chance at 0.65.
    static func expected(lead: Int) -> (highs: [Double], lows: [Double], wet: [(Double, Bool)]) {
        var (highs, lows, wet) = ([Double](), [Double](), [(Double, Bool)]())
        for day in 0..<days {
            let target = date(day + lead)
            guard target < date(days), let seen = observed(target) else { continue }
            highs.append(Double(lead) + 30.75 - seen.high)
            lows.append(Double(lead) - 10.25 - seen.low)
            if let rain = seen.rain { wet.append((0.65, rain >= 1)) }
        }
        return (highs, lows, wet)
    }

    /// Checks a `weather/accuracy` answer against `expected`, figures to the answer's two decimals.
    static func check(_ answer: JSONValue) throws {
        let provider = try #require(answer["providers"]?.arrayValue?.first)
        #expect(answer["providers"]?.arrayValue?.count == 1)
        #expect(provider["provider"] == "open-meteo" && provider["name"] == "Open-Meteo")
        let leads = try #require(provider["leads"]?.arrayValue)
        #expect(leads.count == 7)
        for lead in leads {
            let number = Int(lead["lead"]?.intValue ?? 0)
            let (highs, lows, wet) = expected(lead: number)
            let count = Double(highs.count)
            #expect(lead["high"]?["count"]?.intValue == Int64(highs.count), "lead \(number)")
            #expect(lead["low"]?["count"]?.intValue == Int64(lows.count))
            if highs.count >= 10 {
                #expect(
                    close(lead["high"]?["meanAbsoluteError"], highs.map(abs).reduce(0, +) / count), "lead \(number)")
                #expect(close(lead["high"]?["bias"], highs.reduce(0, +) / count))
                #expect(close(lead["low"]?["meanAbsoluteError"], lows.map(abs).reduce(0, +) / count))
                #expect(close(lead["low"]?["bias"], lows.reduce(0, +) / count))
            } else {
                #expect(lead["high"]?["meanAbsoluteError"] == nil, "below the minimum: the count alone")
            }
            let wetDays = wet.filter(\.1)
            #expect(lead["wetDay"]?["days"]?.intValue == Int64(wet.count))
            #expect(lead["wetDay"]?["wetDays"]?.intValue == Int64(wetDays.count))
            if wet.count >= 10 {
                let brier =
                    wet.map { ($0.0 - ($0.1 ? 1 : 0)) * ($0.0 - ($0.1 ? 1 : 0)) }.reduce(0, +) / Double(wet.count)
                #expect(close(lead["wetDay"]?["brier"], brier, tolerance: 0.000_51), "three decimals")
            }
            if wetDays.count >= 5 {
                #expect(lead["wetDay"]?["hitRate"]?.doubleValue == 1, "a 65 % chance calls every day wet")
            }
        }
        #expect(answer["observed"]?["era5"] == 23 && answer["observed"]?["era5t"] == 1)
        #expect(answer["observed"]?["weatherd-log"] == 3, "the 26th to the 28th; the 10th is ERA5's")
        #expect(answer["pending"] == 2, "the 29th (three quarters read) and the 30th: not observed yet")
        #expect(answer["sentence"]?.stringValue?.hasPrefix("Open-Meteo's day-3 highs here were off by ") == true)
    }

    static func close(_ value: JSONValue?, _ expected: Double, tolerance: Double = 0.005) -> Bool {
        guard let value = value?.doubleValue else { return false }
        return abs(value - expected) <= tolerance
    }
}

@Suite("weather/accuracy: the forecasts in the log against ERA5 and the log's readings, on the manual clock")
struct AccuracyTests {
    @Test("MAE, bias, hit rate and Brier by lead against a direct computation; unobserved days left out and counted")
    func verifies() async throws {
        let network = try AccuracyFixture.network()
        let clock = ManualClock(start: Timestamp(milliseconds: AccuracyFixture.start))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await AccuracyFixture.fill(service, clock)
            clock.advance(
                milliseconds: AccuracyFixture.start + 30 * 86_400_000 + 21_600_000 - clock.timestamp.milliseconds)
            let answer = try await service.result("weather/accuracy", .object(ConfidenceFixture.berlin))
            try AccuracyFixture.check(answer)
            #expect(answer["today"] == "2026-12-01" && answer["calls"] == 1)
            let archive = try #require(network.requests.first { $0.contains("/v1/archive") })
            #expect(archive.contains("start_date=2026-11-02") && archive.contains("end_date=2026-11-30"))
            var imperial = ConfidenceFixture.berlin
            imperial["units"] = "imperial"
            let inFahrenheit = try await service.result("weather/accuracy", .object(imperial))
            let lead = try #require(inFahrenheit["providers"]?.arrayValue?.first?["leads"]?.arrayValue?.first)
            let (highs, _, _) = AccuracyFixture.expected(lead: 1)
            #expect(
                AccuracyFixture.close(
                    lead["high"]?["meanAbsoluteError"], highs.map(abs).reduce(0, +) / Double(highs.count) * 9 / 5),
                "a difference in °F is scaled, never offset")
            #expect(inFahrenheit["sentence"]?.stringValue?.contains(" °F ") == true)
        }
    }

    @Test("a log compacted before the days were observed verifies the same: the reduced days and readings are enough")
    func compactedLog() async throws {
        let directory = TemporaryDataDirectory()
        let network = try AccuracyFixture.network()
        let clock = ManualClock(start: Timestamp(milliseconds: AccuracyFixture.start))
        let service = try InProcessWeatherd(directory: directory, clock: clock, network: network)
        // The segment's first line stays whole: an event before the fetches lets compaction reach them all.
        _ = try await service.result("favorites/add", ["name": "Berlin", "lat": 52.52, "lon": 13.41])
        try await AccuracyFixture.fill(service, clock)
        await service.stop()
        #expect(network.requests.filter { $0.contains("/v1/archive") }.isEmpty, "nothing observed yet")
        let (compacted, report) = try await onThread {
            let compacted = try OfficialFixture.sealedCopy(of: directory)
            return (
                compacted,
                try LogMaintenance.compact(directory: compacted.path, retainPayloads: .zero, now: clock.timestamp)
            )
        }
        #expect(report.eventsStripped == 29 + 18, "every forecast but the last, every reading but the last")
        var reduced: [String: Int] = [:]
        for envelope in try await onThread({ try LogRetentionTests.envelopes(compacted.path) }) {
            let data = try envelope.decodedData()
            guard let kinds = data["compacted"]?["reduced"]?.arrayValue else { continue }
            for kind in kinds { reduced[kind.stringValue ?? "", default: 0] += 1 }
            if data["kind"] == "current" {
                #expect(
                    data["current"]?.objectValue?.keys.sorted() == [
                        "condition", "observedAt", "precipitation", "temperature",
                    ]
                        || data["current"]?.objectValue?.keys.sorted() == ["condition", "observedAt", "temperature"])
            }
        }
        #expect(reduced == ["daily": 29, "current": 18])
        clock.advance(milliseconds: AccuracyFixture.start + 30 * 86_400_000 + 21_600_000 - clock.timestamp.milliseconds)
        let reopened = try InProcessWeatherd(directory: compacted, clock: clock, network: network)
        let answer = try await reopened.result("weather/accuracy", .object(ConfidenceFixture.berlin))
        await reopened.stop()
        try AccuracyFixture.check(answer)
        _ = try await onThread {
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: compacted.path)
        }
    }

    @Test("a place with too little history says how much there is; one never fetched has none")
    func tooLittle() async throws {
        let network = try AccuracyFixture.network()
        let clock = ManualClock(start: Timestamp(milliseconds: AccuracyFixture.start))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            for day in 0..<3 {
                clock.advance(
                    milliseconds: AccuracyFixture.start + Int64(day) * 86_400_000 + 21_600_000
                        - clock.timestamp.milliseconds)
                _ = try await service.result("weather/forecast", .object(ConfidenceFixture.berlin))
            }
            clock.advance(milliseconds: 5 * 86_400_000)
            let answer = try await service.result("weather/accuracy", .object(ConfidenceFixture.berlin))
            let sentence = try #require(answer["sentence"]?.stringValue)
            #expect(sentence.hasPrefix("Too little history here yet: at most 3 days of forecast highs"), "\(sentence)")
            let never = try await service.result("weather/accuracy", ["lat": -33.87, "lon": 151.21])
            #expect(never["providers"] == [])
            #expect(never["sentence"]?.stringValue?.hasPrefix("No forecast weatherd fetched here") == true)
            #expect(network.requests.filter { $0.contains("/v1/archive") }.count == 1, "none for a place never fetched")
        }
    }
}
