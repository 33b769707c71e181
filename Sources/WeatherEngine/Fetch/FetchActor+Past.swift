import Providers
import WeatherDomain

extension FetchActor {
    /// How long a page holding preliminary days is served from the cache: ERA5T is updated daily.
    static let preliminaryPastTTL: Duration = .seconds(6 * 3600)
    /// How long a climate page (every day since 1940) is served from the cache: a year adds one year to 85.
    static let climateTTL: Duration = .seconds(365 * 86_400)

    /// Days of the past at `place` from Open-Meteo's archive: a `history` page (`from`…`to`, at most a year,
    /// hours too with `hourly`), or with `climate` every day from 1940-01-01 to `to` (low, high and
    /// precipitation). A final page is served from the cache for good, and from any cached page that covers it;
    /// one with preliminary days for `preliminaryPastTTL`.
    package func past(
        _ kind: PastFetched.Kind, at place: Place, from: String, to: String, hourly: Bool = false, final: Bool,
        cause: String
    ) async throws -> FetchAnswer<PastPage> {
        let key = place.key
        let archive = kind == .forecastHistory ? sources.historicalForecast : sources.archive
        let entry = PastFetched.entry(kind: kind, key: key, from: from, to: to, hourly: hourly)
        let request =
            kind == .climate
            ? archive.daysRequest(lat: place.lat, lon: place.lon, from: from, to: to)
            : archive.historyRequest(lat: place.lat, lon: place.lon, from: from, to: to, hourly: hourly)
        let ttl: Duration =
            switch (kind, final) {
            case (.climate, _): Self.climateTTL
            case (_, true): .seconds(100 * 365 * 86_400)
            case (_, false): Self.preliminaryPastTTL
            }
        let answer = try await fetch(
            kind: PastFetched.fetchKind, key: entry, maxAgeMs: nil, refresh: false, cause: cause, request: request,
            source: archive.name, ttlMs: ttl.milliseconds,
            cached: { cache in
                let page =
                    kind == .history
                    ? cache.pastPage(key: key, from: from, to: to, hourly: hourly, final: final) : cache.past[entry]
                return page.map { Cached(value: .past($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider) }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let (days, hours) = try archive.decode(body, hourly: hourly)
            let page = PastPage(from: from, to: to, final: final, days: days, hours: hours)
            return (.past(page), .pastFetched(PastFetched(kind: kind, key: key, page: page, call: call)))
        }
        guard case .past(var page) = answer.value else {
            throw EngineError.inconsistent("an archive fetch answered with another kind")
        }
        // A covering page holds more than was asked: keep what was.
        if kind == .history {
            page.days = page.days.filter { from <= $0.date && $0.date <= to }
            page.hours = page.hours?.filter { from <= String($0.time.prefix(10)) && String($0.time.prefix(10)) <= to }
            (page.from, page.to) = (from, to)
        }
        return answer.map(page)
    }
}
