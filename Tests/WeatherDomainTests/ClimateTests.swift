import Testing
import WeatherDomain

@Suite("Climate: the 1991–2020 normal and the records of a calendar day")
struct ClimateTests {
    /// Every day from 1940 to 2025 with pseudo-random lows and highs (a seasonal curve plus noise).
    static let past: [PastDay] = {
        var days: [PastDay] = []
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var date = "1940-01-01"
        var index = 0.0
        while date < "2026-01-01" {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Double(seed >> 40) / Double(1 << 24) * 8 - 4
            let season = 10 - 9 * cosine(index / 365.25 * 2 * Double.pi)
            let low = (season - 4 + noise) * 10
            days.append(
                PastDay(date: date, low: low.rounded() / 10, high: ((season + 5 + noise / 2) * 10).rounded() / 10))
            date = LocalDate.adding(1, to: date) ?? "9999-12-31"
            index += 1
        }
        return days
    }()

    /// cos(x) by its series, so that the test needs no library: good to 1e-9 for |x| ≤ 2π after reduction.
    static func cosine(_ x: Double) -> Double {
        var reduced = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if reduced > Double.pi { reduced -= 2 * Double.pi }
        var (term, sum) = (1.0, 1.0)
        for n in stride(from: 2.0, through: 40, by: 2) {
            term *= -reduced * reduced / (n * (n - 1))
            sum += term
        }
        return sum
    }

    /// The normal and records by the definition, straight from the dates as strings.
    static func direct(_ days: [PastDay], month: Int, day: Int) -> (Double, Double, Climate.Record, Climate.Record) {
        let byDate = Dictionary(days.map { ($0.date, $0) }) { first, _ in first }
        var (lows, highs) = ([Double](), [Double]())
        for year in 1991...2020 {
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            let centreDay = month == 2 && day == 29 && !leap ? 28 : day
            let centre = "\(year)-\(month < 10 ? "0" : "")\(month)-\(centreDay < 10 ? "0" : "")\(centreDay)"
            for offset in -7...7 {
                guard let date = LocalDate.adding(Int64(offset), to: centre), let past = byDate[date] else { continue }
                lows += past.low.map { [$0] } ?? []
                highs += past.high.map { [$0] } ?? []
            }
        }
        let suffix = "-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
        let same = days.filter { $0.date.hasSuffix(suffix) }.sorted { $0.date < $1.date }
        var recordLow = Climate.Record(value: .infinity, year: 0)
        var recordHigh = Climate.Record(value: -.infinity, year: 0)
        for past in same {
            let year = Int(past.date.prefix(4)) ?? 0
            if let low = past.low, low < recordLow.value { recordLow = Climate.Record(value: low, year: year) }
            if let high = past.high, high > recordHigh.value { recordHigh = Climate.Record(value: high, year: year) }
        }
        return (lows.reduce(0, +) / Double(lows.count), highs.reduce(0, +) / Double(highs.count), recordLow, recordHigh)
    }

    @Test(
        "normal and records agree with the definition computed directly, leap day included",
        arguments: [(1, 1), (2, 28), (2, 29), (3, 1), (7, 15), (11, 26), (12, 31)])
    func againstDefinition(month: Int, day: Int) throws {
        let climate = Climate(Self.past.shuffledDeterministically(), month: month, day: day)
        let (low, high, recordLow, recordHigh) = Self.direct(Self.past, month: month, day: day)
        #expect(abs((climate.normalLow ?? .nan) - low) < 1e-9)
        #expect(abs((climate.normalHigh ?? .nan) - high) < 1e-9)
        #expect(climate.normalYears == 30)
        #expect(climate.recordLow == recordLow)
        #expect(climate.recordHigh == recordHigh)
        #expect(climate.since == 1940)
    }

    @Test("a tie keeps the earlier year; missing values and bad dates are skipped; no past, no figures")
    func edges() {
        let days = [
            PastDay(date: "2001-11-26", low: -3, high: 12), PastDay(date: "1950-11-26", low: -3, high: 12),
            PastDay(date: "1999-11-26", low: nil, high: nil), PastDay(date: "2001-13-01", low: -40, high: 40),
            PastDay(date: "1991-02-29", low: -40, high: 40),
        ]
        let climate = Climate(days, month: 11, day: 26)
        #expect(climate.recordLow == Climate.Record(value: -3, year: 1950))
        #expect(climate.recordHigh == Climate.Record(value: 12, year: 1950))
        #expect(climate.normalYears == 1, "of the period, 2001 has values and 1999 none")
        let empty = Climate([], month: 6, day: 1)
        #expect(empty.normalLow == nil && empty.recordHigh == nil && empty.since == nil && empty.normalYears == 0)
    }
}

extension Array {
    /// The elements in a fixed scrambled order (every 7th, wrapping), to show that order does not matter.
    fileprivate func shuffledDeterministically() -> [Element] {
        guard count > 1 else { return self }
        return (0..<count).map { self[($0 * 7919) % count] }
    }
}

@Suite("past.fetched: pages in columns, and what a climate page costs in the log")
struct PastFetchedTests {
    @Test("a page round-trips through its payload, dates implied by from, leap day included")
    func roundTrip() throws {
        let page = PastPage(
            from: "2024-02-28", to: "2024-03-01", final: true,
            days: [
                PastDay(
                    date: "2024-02-28", low: 1, high: 5.5, precipitation: 0, mean: 3, windMax: 4, condition: .wmo(3)),
                PastDay(date: "2024-02-29", low: nil, high: nil),
                PastDay(date: "2024-03-01", low: -2.25, high: 4, precipitation: 1.2),
            ],
            hours: [PastHour(time: "2024-02-28T00:00", temperature: 1.5, precipitation: 0, windSpeed: 2)])
        let call = UpstreamCall(
            provider: "open-meteo", url: "http://archive.test/v1/archive", status: 200, latencyMs: 5, bytes: 10,
            attempt: 1, at: Timestamp(milliseconds: 1_795_348_800_000))
        let fetched = PastFetched(kind: .history, key: "52.22,6.89", page: page, call: call)
        #expect(try PastFetched(json: JSONValue.parse(fetched.json.jsonBytes)) == fetched)
        #expect(fetched.json["entry"] == "history|52.22,6.89|2024-02-28|2024-03-01|hourly")
    }

    @Test("a climate page of every day since 1940 is under 500 KB in the log (about 450 KB), in columns")
    func climateCost() throws {
        let first = try #require(LocalDate.dayNumber(of: "1940-01-01"))
        let days = (0..<31_375).map { index -> PastDay in
            let (y, m, d) = CivilDate.fromDays(first + Int64(index))
            let low = Double((index * 37) % 250 - 100) / 10
            return PastDay(
                date: PastFetched.dateText(y, m, d), low: low, high: low + Double((index * 13) % 120) / 10,
                precipitation: Double((index * 7) % 60) / 10)
        }
        let page = PastPage(from: "1940-01-01", to: days.last?.date ?? "", final: true, days: days)
        let call = UpstreamCall(
            provider: "open-meteo", url: "https://archive-api.open-meteo.com/v1/archive", status: 200,
            latencyMs: 900, bytes: 1_000_000, attempt: 1, at: Timestamp(milliseconds: 1_795_348_800_000))
        let bytes = PastFetched(kind: .climate, key: "52.22,6.89", page: page, call: call).json.jsonBytes.count
        #expect(bytes < 500_000, "\(bytes) bytes")
        #expect(bytes > 300_000, "\(bytes) bytes: the figure in the docs")
    }
}

@Suite("The past in the cache: pages kept by entry, covering ranges, and snapshots")
struct PastCacheTests {
    static func fetched(_ kind: PastFetched.Kind, from: String, to: String, final: Bool, minute: Int64)
        -> DomainEvent
    {
        let days = [PastDay(date: from, low: 1, high: 4, precipitation: 0.5, condition: .wmo(3))]
        let call = UpstreamCall(
            provider: "open-meteo", url: "http://archive.test/v1/archive", status: 200, latencyMs: 5, bytes: 10,
            attempt: 1, at: Timestamp(milliseconds: 1_795_348_800_000 + minute * 60_000))
        return .pastFetched(
            PastFetched(
                kind: kind, key: "52.22,6.89", page: PastPage(from: from, to: to, final: final, days: days), call: call)
        )
    }

    @Test("a final page answers a range inside it; a preliminary one only a preliminary ask; snapshots keep both")
    func coveringAndSnapshot() throws {
        var cache = WeatherCache()
        cache.apply(Self.fetched(.history, from: "2020-01-01", to: "2020-12-31", final: true, minute: 0))
        cache.apply(Self.fetched(.history, from: "2026-11-01", to: "2026-11-27", final: false, minute: 1))
        cache.apply(Self.fetched(.climate, from: "1940-01-01", to: "2026-11-20", final: true, minute: 2))
        let key = "52.22,6.89"
        #expect(cache.pastPage(key: key, from: "2020-03-01", to: "2020-03-31", hourly: false, final: true) != nil)
        #expect(cache.pastPage(key: key, from: "2020-03-01", to: "2021-01-01", hourly: false, final: true) == nil)
        #expect(cache.pastPage(key: key, from: "2020-03-01", to: "2020-03-31", hourly: true, final: true) == nil)
        #expect(cache.pastPage(key: key, from: "2026-11-02", to: "2026-11-05", hourly: false, final: true) == nil)
        #expect(cache.pastPage(key: key, from: "2026-11-02", to: "2026-11-05", hourly: false, final: false) != nil)
        #expect(cache.past.count == 2, "the history pages")
        #expect(cache.climates[key]?.value.through == "2026-11-20", "the climate page as its table, apart")
        let restored = try WeatherCache(json: JSONValue.parse(cache.json.jsonBytes))
        #expect(restored == cache)
    }
}
