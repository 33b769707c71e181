import Providers
import WeatherDomain

extension FetchActor {
    /// How long a page holding preliminary days is served from the cache: ERA5T is updated daily.
    static let preliminaryPastTTL: Duration = .seconds(6 * 3600)
    /// How long a climate page (every day since 1940) is served from the cache: a year adds one year to 85.
    static let climateTTL: Duration = .seconds(365 * 86_400)

    /// Days of the past at `place` from Open-Meteo's archive: a `history` page (`from`…`to`, at most a year,
    /// hours too with `hourly`), or a `forecast_history` one from its Historical Forecast API. A final page is
    /// served from the cache for good, and from any cached page that covers it; one with preliminary days for
    /// `preliminaryPastTTL`. (A `climate` page is asked for by `climate(at:through:cause:)`.)
    package func past(
        _ kind: PastFetched.Kind, at place: Place, from: String, to: String, hourly: Bool = false, final: Bool,
        cause: String
    ) async throws -> FetchAnswer<PastPage> {
        let key = place.key
        let archive = kind == .forecastHistory ? sources.historicalForecast : sources.archive
        let entry = PastFetched.entry(kind: kind, key: key, from: from, to: to, hourly: hourly)
        let request = archive.historyRequest(lat: place.lat, lon: place.lon, from: from, to: to, hourly: hourly)
        let ttl: Duration = final ? .seconds(100 * 365 * 86_400) : Self.preliminaryPastTTL
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

extension FetchActor {
    /// The normals and records of every calendar day at `place`, from one archive page of every day from
    /// 1940-01-01 to `through` (low, high and precipitation), cached for `climateTTL`. The page's days go to the
    /// log; the cache keeps the table made of them (`ClimateTable`).
    package func climate(at place: Place, through: String, cause: String) async throws -> FetchAnswer<ClimateTable> {
        let key = place.key
        let archive = sources.archive
        let from = PastRange.earliest
        let answer = try await fetch(
            kind: PastFetched.fetchKind, key: PastFetched.entry(kind: .climate, key: key), maxAgeMs: nil,
            refresh: false, cause: cause,
            request: archive.daysRequest(lat: place.lat, lon: place.lon, from: from, to: through),
            source: archive.name, ttlMs: Self.climateTTL.milliseconds,
            cached: { cache in
                cache.climates[key].map {
                    Cached(value: .climate($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let (days, _) = try archive.decode(body, hourly: false)
            let page = PastPage(from: from, to: through, final: true, days: days)
            return (
                .climate(ClimateTable(page)),
                .pastFetched(PastFetched(kind: .climate, key: key, page: page, call: call))
            )
        }
        guard case .climate(let table) = answer.value else {
            throw EngineError.inconsistent("a climate fetch answered with another kind")
        }
        return answer.map(table)
    }
}
