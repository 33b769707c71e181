import Testing
import WeatherDomain

@Suite("The spread a forecast carries: its own, else the configured model's cached within a day of the forecast")
struct ConfidenceCacheTests {
    static let key = "52.52,13.41"
    static let fetched = Timestamp(milliseconds: 1_795_348_800_000)

    static func summary(model: String, high: Double) -> EnsembleSummary {
        EnsembleSummary(
            model: model, method: .members, members: 51, timezone: "Europe/Berlin", utcOffsetSeconds: 3600,
            days: [
                ConfidenceDay(
                    date: "2026-11-22", members: 51, high: Spread(p10: high, p90: high + 4),
                    low: Spread(p10: 0, p90: 2))
            ], hours: [])
    }

    /// A cache holding `model`'s spread at `key`, fetched at `at`.
    static func cache(model: String, at: Timestamp) -> ConfidenceCache {
        var cache = ConfidenceCache()
        let call = UpstreamCall(
            provider: "open-meteo", url: "http://ensemble.test/v1/ensemble", status: 200, latencyMs: 1, bytes: 1,
            attempt: 1, at: at)
        cache.apply(.ensembleFetched(EnsembleFetched(key: key, summary: summary(model: model, high: 5), call: call)))
        return cache
    }

    static func forecast(spread: EnsembleSummary? = nil) -> ForecastReport {
        var report = ForecastReport(
            place: Place(name: nil, country: nil, state: nil, lat: 52.52, lon: 13.41), timezone: "Europe/Berlin",
            utcOffsetSeconds: 3600, entries: [], daily: [])
        report.spread = spread
        return report
    }

    @Test(
        "the cached spread serves within a day of the forecast's fetch, before or after it, and not from a day on",
        arguments: [
            (-ConfidenceCache.spreadReach + 1, true), (-3_600_000, true), (0, true), (3_600_000, true),
            (ConfidenceCache.spreadReach - 1, true), (ConfidenceCache.spreadReach, false),
            (-ConfidenceCache.spreadReach, false),
        ])
    func reach(offset: Int64, carried: Bool) {
        let cache = Self.cache(model: "ecmwf_ifs025", at: Self.fetched)
        let time = Timestamp(milliseconds: Self.fetched.milliseconds + offset)
        let spread = cache.spread(carriedBy: Self.forecast(), key: Self.key, model: "ecmwf_ifs025", around: time)
        #expect((spread != nil) == carried)
        if carried { #expect(spread?.days.first?.high.p10 == 5) }
    }

    @Test("a forecast's own spread wins over the cache; another model's or place's spread is never carried")
    func ownAndOthers() {
        let cache = Self.cache(model: "ecmwf_ifs025", at: Self.fetched)
        let own = Self.summary(model: "met-norway", high: 9)
        let carried = cache.spread(
            carriedBy: Self.forecast(spread: own), key: Self.key, model: "ecmwf_ifs025", around: Self.fetched)
        #expect(carried == own)
        #expect(cache.spread(carriedBy: Self.forecast(), key: Self.key, model: "gfs025", around: Self.fetched) == nil)
        #expect(
            cache.spread(carriedBy: Self.forecast(), key: "59.91,10.75", model: "ecmwf_ifs025", around: Self.fetched)
                == nil)
    }
}
