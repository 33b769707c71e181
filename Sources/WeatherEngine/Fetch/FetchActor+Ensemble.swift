import Providers
import WeatherDomain

extension FetchActor {
    /// The spread of the forecast at `place`: MET Norway's own percentiles when it is the provider (its forecast's
    /// request, fresh as its `Expires` says), else the members of `sources.model` from Open-Meteo's Ensemble API,
    /// asked once per place and model in each of a model run's 6-hour windows (00, 06, 12, 18 UTC) however many
    /// ask, as every fetch: joined when in flight, within the rate limit, audited (`ensemble.fetched`, or
    /// `weather.fetch_failed` of kind `ensemble`).
    package func ensemble(at place: Place, sources: ConfidenceSources, cause: String) async throws
        -> FetchAnswer<EnsembleSummary>
    {
        let key = place.key
        let asked = Place(name: nil, country: nil, state: nil, lat: place.lat, lon: place.lon)
        let model = sources.metNorway?.name ?? sources.model
        let entry = EnsembleFetched.entry(model: model, key: key)
        let request: ProviderRequest
        let source: String
        let ttlMs: Int64
        let read: @Sendable ([UInt8], Timestamp) throws(ProviderError) -> EnsembleSummary
        if let metNorway = sources.metNorway {
            request = metNorway.request(lat: place.lat, lon: place.lon)
            (source, ttlMs) = (metNorway.name, policy.forecastTTL.milliseconds)
            read = { body, at throws(ProviderError) in try metNorway.decodeSpread(body, place: asked, now: at) }
        } else {
            let ensemble = sources.ensemble
            request = ensemble.request(lat: place.lat, lon: place.lon, model: model)
            source = ensemble.name
            let fetchedAt = await cache.read { $0.confidence.ensembles[entry]?.fetchedAt }
            ttlMs = fetchedAt.map(Self.runWindowTTL) ?? 0
            read = { body, at throws(ProviderError) in try ensemble.decode(body, model: model, now: at) }
        }
        let answer = try await fetch(
            kind: EnsembleFetched.fetchKind, key: entry, maxAgeMs: nil, refresh: false, cause: cause, request: request,
            source: source, ttlMs: ttlMs,
            cached: { cache in
                cache.confidence.ensembles[entry].map {
                    Cached(value: .ensemble($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let summary = try read(body, call.at)
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
