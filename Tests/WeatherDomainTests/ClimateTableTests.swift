import Testing
import WeatherDomain

@Suite("The climate kept: each calendar day's normal and records, not the days, and at most a bounded number of places")
struct ClimateTableTests {
    static func climateFetched(key: String, minute: Int64, days: [PastDay] = ClimateTests.past) -> DomainEvent {
        let call = UpstreamCall(
            provider: "open-meteo", url: "http://archive.test/v1/archive", status: 200, latencyMs: 5, bytes: 10,
            attempt: 1, at: Timestamp(milliseconds: 1_795_348_800_000 + minute * 60_000))
        let page = PastPage(from: "1940-01-01", to: days.last?.date ?? "1940-01-01", final: true, days: days)
        return .pastFetched(PastFetched(kind: .climate, key: key, page: page, call: call))
    }

    @Test("every calendar day of the table is the climate computed from the days, 29 February included")
    func sameAnswers() throws {
        let page = PastPage(from: "1940-01-01", to: "2025-12-31", final: true, days: ClimateTests.past)
        let table = ClimateTable(page)
        #expect(table.days.count == 366)
        #expect(table.through == "2025-12-31")
        #expect(table.since == 1940)
        let past = Climate.Past(ClimateTests.past)
        for month in 1...12 {
            for day in 1...31 {
                let climate = table.climate(month: month, day: day)
                guard day <= [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] else {
                    #expect(climate == nil, "\(month)-\(day)")
                    continue
                }
                #expect(climate == Climate(past, month: month, day: day), "\(month)-\(day)")
            }
        }
        #expect(try ClimateTable(json: JSONValue.parse(table.json.jsonBytes), path: "table") == table)
    }

    @Test("the cache keeps the table, not the ~31,000 days, and its canonical form rebuilds it exactly")
    func noDays() throws {
        var cache = WeatherCache()
        cache.apply(Self.climateFetched(key: "52.22,6.89", minute: 0))
        #expect(cache.past.isEmpty, "no page of days")
        let table = try #require(cache.climates["52.22,6.89"]?.value)
        #expect(table.climate(month: 2, day: 29)?.recordHigh != nil)
        let text = cache.json.jsonBytes
        #expect(text.count < 100_000, "\(text.count) bytes for a place's climate")
        #expect(try WeatherCache(json: JSONValue.parse(text)) == cache)
    }

    @Test("past the capacity, the climate fetched longest ago goes; replay keeps the same")
    func bounded() throws {
        var cache = WeatherCache()
        let days = Array(ClimateTests.past.prefix(800))
        let extra = 5
        for number in 0..<(WeatherCache.climateCapacity + extra) {
            cache.apply(Self.climateFetched(key: "\(number).0,0.0", minute: Int64(number), days: days))
        }
        #expect(cache.climates.count == WeatherCache.climateCapacity)
        #expect((0..<extra).allSatisfy { cache.climates["\($0).0,0.0"] == nil }, "the oldest fetches went")
        #expect(cache.climates["\(extra).0,0.0"] != nil)
        #expect(try WeatherCache(json: JSONValue.parse(cache.json.jsonBytes)) == cache)
    }

    @Test("a snapshot from when climate pages were kept whole reads as their tables")
    func oldSnapshot() throws {
        var replayed = WeatherCache()
        replayed.apply(Self.climateFetched(key: "52.22,6.89", minute: 0))
        let page = PastPage(from: "1940-01-01", to: "2025-12-31", final: true, days: ClimateTests.past)
        var old = try #require(WeatherCache().json.objectValue)
        old["climates"] = nil
        old["past"] = [
            "climate|52.22,6.89": [
                "fetchedAt": "2026-11-22T12:00:00.000Z", "provider": "open-meteo", "value": page.json,
            ]
        ]
        let read = try WeatherCache(json: JSONValue.parse(JSONValue.object(old).jsonBytes))
        #expect(read == replayed)
    }
}
