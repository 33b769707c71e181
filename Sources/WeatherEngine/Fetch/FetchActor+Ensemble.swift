import Providers
import WeatherDomain

extension FetchActor {
    /// The spread of the forecast at `place`: with MET Norway as the provider, the percentiles of its forecast
    /// (`forecast(at:)`: the one call for the place in its validity window, or the cached answer, whose
    /// `weather.fetched` logs both); else the members of `sources.model` from Open-Meteo's Ensemble API, asked once per
    /// place and model in each of a model run's 6-hour windows (00, 06, 12, 18 UTC) however many ask, as every fetch:
    /// joined when in flight, within the rate limit, audited (`ensemble.fetched`, or `weather.fetch_failed` of kind
    /// `ensemble`).
    ///
    /// - Throws: the forecast's errors, or `bad_upstream_response` for a MET Norway forecast without percentiles.
    package func ensemble(at place: Place, sources: ConfidenceSources, cause: String) async throws
        -> FetchAnswer<EnsembleSummary>
    {
        if let metNorway = sources.metNorway {
            let forecast = try await forecast(at: place, cause: cause)
            guard let spread = forecast.value.spread else {
                throw ProviderError(
                    .badUpstreamResponse,
                    "\(metNorway.name)'s forecast fetched at \(forecast.fetchedAt) gives no percentiles.",
                    advice: "The forecast's fetch event (weather.fetched) says why in its warnings.")
            }
            return forecast.map(spread)
        }
        let key = place.key
        let ensemble = sources.ensemble
        let model = sources.model
        let entry = EnsembleFetched.entry(model: model, key: key)
        let fetchedAt = await cache.read { $0.confidence.ensembles[entry]?.fetchedAt }
        let answer = try await fetch(
            kind: EnsembleFetched.fetchKind, key: entry, maxAgeMs: nil, refresh: false, cause: cause,
            request: ensemble.request(lat: place.lat, lon: place.lon, model: model), source: ensemble.name,
            ttlMs: fetchedAt.map(Self.runWindowTTL) ?? 0,
            cached: { cache in
                cache.confidence.ensembles[entry].map {
                    Cached(value: .ensemble($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let summary = try ensemble.decode(body, model: model, now: call.at)
            return (.ensemble(summary), .ensembleFetched(EnsembleFetched(key: key, summary: summary, call: call)))
        }
        guard case .ensemble(let summary) = answer.value else {
            throw EngineError.inconsistent("an ensemble fetch answered with another kind")
        }
        return answer.map(summary)
    }

    /// How long an ensemble fetched at `fetchedAt` is served from the cache: to the end of its model run's window
    /// (`OpenMeteoEnsemble.runHours` hours from midnight UTC), when the next run is due.
    static func runWindowTTL(_ fetchedAt: Timestamp) -> Int64 {
        let window = OpenMeteoEnsemble.runHours * 3_600_000
        // Fetch times are after 1970: the division rounds down.
        let end = (max(0, fetchedAt.milliseconds) / window + 1) * window
        return end - fetchedAt.milliseconds
    }

    /// The days of several deterministic `models` at `place` from Open-Meteo's forecast API (`models=`), served
    /// from the cache for the forecast's TTL, audited as every fetch (`models.fetched`, or `weather.fetch_failed`
    /// of kind `models`).
    package func models(_ models: [String], at place: Place, sources: ConfidenceSources, cause: String) async throws
        -> FetchAnswer<ModelsPage>
    {
        let key = place.key
        let entry = ModelsFetched.entry(models: models, key: key)
        let client = sources.models
        let answer = try await fetch(
            kind: ModelsFetched.fetchKind, key: entry, maxAgeMs: nil, refresh: false, cause: cause,
            request: client.request(lat: place.lat, lon: place.lon, models: models), source: client.name,
            ttlMs: policy.forecastTTL.milliseconds,
            cached: { cache in
                cache.confidence.comparisons[entry].map {
                    Cached(value: .models($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let page = try client.decode(body, models: models)
            return (.models(page), .modelsFetched(ModelsFetched(key: key, page: page, call: call)))
        }
        guard case .models(let page) = answer.value else {
            throw EngineError.inconsistent("a models fetch answered with another kind")
        }
        return answer.map(page)
    }
}
