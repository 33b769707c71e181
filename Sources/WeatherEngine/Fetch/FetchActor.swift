import EventLog
import Providers
import WeatherDomain
import WeatherRuntime

/// The only code that calls a weather provider.
///
/// For each request it first asks the cache (fresh data, a remembered `not_found`, a provider's
/// `Retry-After`), then joins a call already in flight for the same (place, kind), and only then
/// calls: within the token bucket, with retries and backoff for `upstream_error`, `timeout` and
/// `offline`, all inside one overall deadline. Every attempt is appended to the log
/// (`weather.fetched`, `weather.fetch_failed`, `geocode.fetched`, `geocode.failed`) through the
/// cache's actor, so the cache only ever holds what the log holds. When the provider cannot be
/// reached, the cache's older data is served, marked stale.
package actor FetchActor {
    /// The provider asked.
    let provider: any WeatherProvider
    /// The warning and air-quality sources, called through the same path.
    let sources: OfficialSources
    /// The network.
    let transport: HTTPTransport
    /// The cache slice, which appends and applies the fetch events.
    let cache: StateActor<WeatherCache>
    /// The wall clock, for freshness and audit times.
    let clock: any RuntimeClock
    /// The limits.
    let policy: FetchPolicy
    /// The rate limit.
    var bucket: TokenBucket
    /// Calls in flight by `<kind>|<key>`, which identical requests join: the call's task (for cutting it at
    /// shutdown) and its outcome (for its waiters, each of whom may stop waiting alone).
    var inFlight: [String: Flight] = [:]

    typealias Outcome = Result<Cached<FetchedValue>, FetchFailure>

    struct Flight {
        var task: Task<Void, Never>
        /// The call's outcome once its events are durable, for whoever joined it.
        var outcome: Promise<Outcome>
        /// The call's outcome as soon as it is over, for the request that started it with a batch (nil without).
        var answered: Promise<Outcome>?
        /// The batch of the request that started the call, which holds the call's events until that request appends
        /// them with its own; nil without one, and once someone joined (from then on they are appended at once).
        var batch: ChangeBatch?
        /// The newest of the call's events staged in `batch`.
        var staged: StagedChange?
    }
    /// Set by `abandonAll` at shutdown: from then on no new upstream call starts.
    private var closing = false
    /// Counters for `service/status`.
    var counts = UpstreamCounts()
    /// The nowcast sources that failed at a place, by cache entry (`<source>|<key>`): not asked again there
    /// before their backoff ends (`FetchActor+Nowcast.swift`).
    var nowcastBackoff: [String: NowcastBackoff] = [:]

    package init(
        provider: any WeatherProvider, sources: OfficialSources, transport: HTTPTransport,
        cache: StateActor<WeatherCache>, clock: any RuntimeClock, policy: FetchPolicy
    ) {
        self.provider = provider
        self.sources = sources
        self.transport = transport
        self.cache = cache
        self.clock = clock
        self.policy = policy
        bucket = TokenBucket(perMinute: policy.callsPerMinute)
    }

    /// The provider's name.
    package nonisolated var providerName: String { provider.name }

    /// Whether the provider's forecast has hourly steps.
    package nonisolated var providerHasHourlyForecast: Bool { provider.hasHourlyForecast }

    /// The counters so far.
    package var upstreamCounts: UpstreamCounts { counts }

    /// Current weather at `place`.
    ///
    /// - Parameters:
    ///   - maxAgeMs: the client's freshness limit, which can only shorten the TTL.
    ///   - refresh: fetch even when fresh data is cached (the rate limit still applies).
    ///   - batch: the request's batch, which holds the call's events until the request appends them with its own.
    package func current(
        at place: Place, maxAgeMs: Int64? = nil, refresh: Bool = false, cause: String, batch: ChangeBatch? = nil
    ) async throws -> FetchAnswer<CurrentReport> {
        let answer = try await weather(
            .current, at: place, maxAgeMs: maxAgeMs, refresh: refresh, cause: cause, batch: batch)
        guard case .weather(.current(let report)) = answer.value else {
            throw EngineError.inconsistent("a weather fetch answered with another kind")
        }
        return answer.map(report)
    }

    /// The forecast at `place`: its 3-hourly and hourly steps and its days (`batch` as for `current`).
    package func forecast(
        at place: Place, maxAgeMs: Int64? = nil, refresh: Bool = false, cause: String, batch: ChangeBatch? = nil
    ) async throws -> FetchAnswer<ForecastReport> {
        let answer = try await weather(
            .forecast, at: place, maxAgeMs: maxAgeMs, refresh: refresh, cause: cause, batch: batch)
        guard case .weather(.forecast(let report)) = answer.value else {
            throw EngineError.inconsistent("a weather fetch answered with another kind")
        }
        return answer.map(report)
    }

    private func weather(
        _ kind: WeatherKind, at place: Place, maxAgeMs: Int64?, refresh: Bool, cause: String, batch: ChangeBatch?
    ) async throws -> FetchAnswer<FetchedValue> {
        let request =
            kind == .current
            ? provider.currentRequest(lat: place.lat, lon: place.lon)
            : provider.forecastRequest(lat: place.lat, lon: place.lon)
        let key = place.key
        // The report records the provider's own description of the point, not the name it was asked under
        // (a favorite's, which may be renamed): answers name their place when they are given.
        let asked = Place(name: nil, country: nil, state: nil, lat: place.lat, lon: place.lon)
        return try await fetch(
            kind: kind.rawValue, key: key, maxAgeMs: maxAgeMs, refresh: refresh, cause: cause, batch: batch,
            request: request, source: provider.name,
            ttlMs: (kind == .current ? policy.ttl : policy.forecastTTL).milliseconds,
            cached: { cache in
                switch kind {
                case .current:
                    cache.current[key].map {
                        Cached(value: .weather(.current($0.value)), fetchedAt: $0.fetchedAt, provider: $0.provider)
                    }
                case .forecast:
                    cache.forecast[key].map {
                        Cached(value: .weather(.forecast($0.value)), fetchedAt: $0.fetchedAt, provider: $0.provider)
                    }
                }
            }
        ) { [provider] (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            // The decoder's warnings go to the fetch event only: the cache and replay keep the report alone.
            let report: WeatherFetched.Report
            let warnings: [String]
            if kind == .current {
                var current = try ReportCheck.screened(
                    provider.decodeCurrent(body, place: asked), provider: provider.name)
                (warnings, current.warnings) = (current.warnings, [])
                report = .current(current)
            } else {
                var forecast = try ReportCheck.screened(
                    provider.decodeForecast(body, place: asked), provider: provider.name)
                (warnings, forecast.warnings) = (forecast.warnings, [])
                // The hours from this one on: the next 48 are in the report for a day, however late it is.
                forecast.hourly = ForecastReport.hoursKept(forecast.hourly, at: call.at)
                report = .forecast(forecast)
            }
            let event = WeatherFetched(key: key, call: call, report: report, warnings: warnings)
            return (.weather(report), .weatherFetched(event))
        }
    }

    /// Geocoding candidates for `query` (at most `limit`); `batch` as for `current`.
    package func geocode(
        _ query: String, limit: Int, cause: String, batch: ChangeBatch? = nil
    ) async throws -> FetchAnswer<[Place]> {
        let key = GeocodeFetched.key(for: query)
        let request = provider.geocodeRequest(query: query, limit: 5)
        let outcome = try await fetch(
            kind: "geocode", key: key, maxAgeMs: nil, refresh: false, cause: cause, batch: batch, request: request,
            source: provider.geocodingName, ttlMs: policy.ttl.milliseconds,
            cached: {
                $0.geocodes[key].map {
                    Cached(value: FetchedValue.places($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { [provider] (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let places = Array(try provider.decodeGeocode(body).prefix(5))
            try ReportCheck.check(places, provider: provider.geocodingName)
            return (
                .places(places), .geocodeFetched(GeocodeFetched(query: query, key: key, call: call, candidates: places))
            )
        }
        guard case .places(let places) = outcome.value else {
            throw EngineError.inconsistent("a geocoding call answered with another kind")
        }
        return outcome.map(Array(places.prefix(limit)))
    }

    /// The decoded value of any fetch, so one code path serves every kind.
    enum FetchedValue: Sendable, Equatable {
        case weather(WeatherFetched.Report)
        case places([Place])
        case warnings([OfficialWarning])
        /// A source asked for a point that may answer it is not its own (Bright Sky), with its warnings.
        case coveredWarnings(covered: Bool, [OfficialWarning])
        case listing(WarningsListed.Listing)
        case airQuality(AirQualityReport)
        case point(PointFetched.Facts)
        case nowcast(Nowcast)
        case past(PastPage)
        case climate(ClimateTable)
        case ensemble(EnsembleSummary)
        case models(ModelsPage)
    }

    /// A failed fetch: the error to answer with.
    struct FetchFailure: Error, Sendable {
        var error: any Error
    }

    typealias Decode = @Sendable ([UInt8], UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent)

    /// Answers from the cache, a call in flight, or a new call to `source` (the weather provider or one of
    /// `sources`), whose data stays fresh for `ttlMs`.
    ///
    /// With a `batch`, a new call's events are staged in it rather than appended, and the answer comes as soon as
    /// the call is over: the request appends them with its own and answers once they are durable. Whoever joins
    /// the call waits until they are durable.
    func fetch(
        kind: String, key: String, maxAgeMs: Int64?, refresh: Bool, cause: String, batch: ChangeBatch? = nil,
        request: ProviderRequest,
        source: String, ttlMs: Int64, cached: @escaping @Sendable (WeatherCache) -> Cached<FetchedValue>?,
        decode: @escaping Decode
    ) async throws -> FetchAnswer<FetchedValue> {
        let now = clock.timestamp()
        let state = await cache.read { $0 }
        let entry = cached(state)
        let validity = state.validity[WeatherCache.validityEntry(kind: kind, provider: source, key: key)]
        // The answer's own Expires (or max-age) wins over a refresh: no call for it before then.
        if let entry, let expiresAt = validity?.expiresAt, now < expiresAt {
            counts.cacheHits += 1
            return FetchAnswer(entry, source: "cache", stale: false)
        }
        // With a Last-Modified, the call asks for the answer only if it changed (a 304 keeps `entry`).
        let conditional = entry.flatMap { entry in validity?.lastModified.map { (entry, $0) } }
        if !refresh, case .fresh(let fresh) = CachePolicy.lookup(entry, now: now, ttlMs: ttlMs, maxAgeMs: maxAgeMs) {
            counts.cacheHits += 1
            return FetchAnswer(fresh, source: "cache", stale: false)
        }
        if CachePolicy.knownNotFound(state, kind: kind, key: key, now: now, ttlMs: policy.notFoundTTL.milliseconds) {
            counts.notFoundHits += 1
            throw ProviderError(
                .notFound, "\(source) knows no such place (remembered for \(policy.notFoundTTL)).",
                remedy: .searchCities)
        }
        if let until = CachePolicy.rateLimitedUntil(state, provider: source, now: now) {
            let error = ProviderError(
                .rateLimited, "\(source) asked weatherd to wait until \(until).", advice: "Try again then.")
            return try staleOr(entry, error)
        }
        let flightKey = "\(kind)|\(source)|\(key)"
        // A call whose events its starter's batch has made durable is over, whether or not its task has ended it.
        if let running = inFlight[flightKey], running.answered?.current != nil, running.staged?.isSettled != false {
            inFlight[flightKey] = nil
        }
        let outcome: Promise<Outcome>
        if let running = inFlight[flightKey] {
            counts.sharedCalls += 1
            // A joiner waits until the call's events are durable: what the starter's batch holds goes out now.
            inFlight[flightKey]?.batch = nil
            try running.batch?.flush()
            outcome = running.outcome
        } else {
            // A cancelled caller, or any caller once shutdown has cut the calls in flight, starts no new call.
            if closing || Task.isCancelled { throw CancellationError() }
            let durable = Promise<Outcome>()
            let answered = batch.map { _ in Promise<Outcome>() }
            let task = Task {
                let result = await self.call(
                    kind: kind, key: key, cause: cause, flight: flightKey, request: request, source: source,
                    conditional: conditional, decode: decode)
                await self.endFlight(flightKey, durable: durable, answered: answered, with: result)
            }
            inFlight[flightKey] = Flight(task: task, outcome: durable, answered: answered, batch: batch)
            outcome = answered ?? durable
        }
        // A cancelled waiter stops waiting; the call goes on for the others and still fills the cache.
        guard let result = await outcome.waitUnlessCancelled() else { throw CancellationError() }
        switch result {
        case .success(let fetched):
            return FetchAnswer(fetched, source: "network", stale: false)
        case .failure(let failure):
            // A refresh asked for new data: older data would hide that the call failed.
            if refresh { throw failure.error }
            return try staleOr(entry, failure.error)
        }
    }

    /// Waits for every upstream call in flight (each is bounded by the deadline), so their audit
    /// events are written before `service.stopped`.
    package func drain() async {
        while let flight = inFlight.values.first { await flight.task.value }
    }

    /// Cuts every upstream call in flight short (at shutdown, after a grace period): each records
    /// its attempt as a `timeout` and makes no further attempt, and no new call starts after it.
    package func abandonAll() {
        closing = true
        for flight in inFlight.values { flight.task.cancel() }
    }

    /// Older data when the provider cannot be reached, else the error.
    private func staleOr(_ entry: Cached<FetchedValue>?, _ error: any Error) throws -> FetchAnswer<FetchedValue> {
        let unreachable: Set<ProviderError.Kind> = [
            .offline, .timeout, .upstreamError, .rateLimited, .badUpstreamResponse,
        ]
        if let entry, let providerError = error as? ProviderError, unreachable.contains(providerError.kind) {
            counts.staleAnswers += 1
            return FetchAnswer(entry, source: "cache", stale: true)
        }
        throw error
    }
}

extension FetchAnswer {
    /// The same answer with another value.
    func map<Other>(_ value: Other) -> FetchAnswer<Other> {
        FetchAnswer<Other>(Cached(value: value, fetchedAt: fetchedAt, provider: provider), source: source, stale: stale)
    }
}
