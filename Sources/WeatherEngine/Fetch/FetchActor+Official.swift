import Providers
import WeatherDomain

extension FetchActor {
    /// How long official warnings are served from the cache without a call.
    static let warningsTTL: Duration = .seconds(300)
    /// How long air quality is served from the cache without a call.
    static let airQualityTTL: Duration = .seconds(3600)

    /// The official warnings NWS has in force for the point of `place`, at the time of the call: replaced,
    /// cancelled and expired messages dropped (`WarningRules.active`).
    package func nwsWarnings(at place: Place, refresh: Bool = false, cause: String) async throws -> FetchAnswer<
        [OfficialWarning]
    > {
        let nws = sources.nws
        return try await warnings(
            source: .nws, key: place.key, request: nws.alertsRequest(lat: place.lat, lon: place.lon), refresh: refresh,
            cause: cause
        ) { body throws(ProviderError) in try nws.decodeAlerts(body) }
    }

    /// The official warnings in force in MeteoAlarm's feed of `country` (every region of it), at the time of
    /// the call; which concern a place is `MeteoAlarmAreas`' decision.
    ///
    /// - Throws: `ProviderError` `not_found` for a country MeteoAlarm does not serve.
    package func meteoAlarmWarnings(country: String, refresh: Bool = false, cause: String) async throws
        -> FetchAnswer<[OfficialWarning]>
    {
        let meteoAlarm = sources.meteoAlarm
        let code = country.trimmingWhitespace.uppercased()
        guard let request = meteoAlarm.feedRequest(country: code) else {
            throw ProviderError(.notFound, "MeteoAlarm has no feed for \(code).")
        }
        return try await warnings(source: .meteoalarm, key: code, request: request, refresh: refresh, cause: cause) {
            body throws(ProviderError) in try meteoAlarm.decodeFeed(body)
        }
    }

    private func warnings(
        source: OfficialWarning.Source, key: String, request: ProviderRequest, refresh: Bool, cause: String,
        decode: @escaping @Sendable ([UInt8]) throws(ProviderError) -> [OfficialWarning]
    ) async throws -> FetchAnswer<[OfficialWarning]> {
        let entry = WarningsFetched.entry(source: source, key: key)
        let language = sources.language
        let answer = try await fetch(
            kind: WarningsFetched.failureKind, key: key, maxAgeMs: nil, refresh: refresh, cause: cause,
            request: request, source: source.rawValue, ttlMs: Self.warningsTTL.milliseconds,
            cached: { cache in
                cache.warnings[entry].map {
                    Cached(value: .warnings($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let active = WarningRules.active(try decode(body), now: call.at, language: language)
            return (
                .warnings(active),
                .warningsFetched(WarningsFetched(source: source, key: key, call: call, warnings: active))
            )
        }
        guard case .warnings(let warnings) = answer.value else {
            throw EngineError.inconsistent("a warnings fetch answered with another kind")
        }
        return answer.map(warnings)
    }

    /// Air quality at `place`: the values now and the next 24 hours. With OpenWeatherMap, whose hours need a
    /// call of their own, the two calls are cached and audited apart and the answer is as old as the older.
    ///
    /// - Returns: the answer and, when the hours' own call failed with nothing cached, its error: the
    ///   answer then has the values now and no hours. A failure of the call for the values now is thrown.
    package func airQuality(
        at place: Place, maxAgeMs: Int64? = nil, refresh: Bool = false, cause: String
    ) async throws -> (answer: FetchAnswer<AirQualityReport>, hoursFailure: ProviderError?) {
        let provider = sources.airQuality
        let now = try await airQuality(
            .airQuality, request: provider.airQualityRequest(lat: place.lat, lon: place.lon), at: place,
            maxAgeMs: maxAgeMs, refresh: refresh, cause: cause
        ) { body, call throws(ProviderError) in
            try provider.decodeAirQuality(body, forecast: nil, place: place, now: call.at)
        }
        guard let forecastRequest = provider.airQualityForecastRequest(lat: place.lat, lon: place.lon) else {
            return (now, nil)
        }
        let hours: FetchAnswer<AirQualityReport>
        do {
            hours = try await airQuality(
                .forecast, request: forecastRequest, at: place, maxAgeMs: maxAgeMs, refresh: refresh, cause: cause
            ) { body, call throws(ProviderError) in
                // The forecast body read as both bodies: only its hours are kept.
                var report = try provider.decodeAirQuality(body, forecast: body, place: place, now: call.at)
                report.current = nil
                return report
            }
        } catch let failure as ProviderError {
            // The place was found (the values now came): answer them, the hours marked missing.
            var partial = now
            partial.value.hourly = []
            return (partial, failure)
        }
        var report = now.value
        report.hourly = hours.value.hourly
        let older = now.fetchedAt <= hours.fetchedAt ? now : hours.map(report)
        let answer = FetchAnswer(
            Cached(value: report, fetchedAt: older.fetchedAt, provider: now.provider),
            source: now.source == "network" || hours.source == "network" ? "network" : "cache",
            stale: now.stale || hours.stale)
        return (answer, nil)
    }

    private func airQuality(
        _ kind: AirQualityFetched.Kind, request: ProviderRequest, at place: Place, maxAgeMs: Int64?, refresh: Bool,
        cause: String, decode: @escaping @Sendable ([UInt8], UpstreamCall) throws(ProviderError) -> AirQualityReport
    ) async throws -> FetchAnswer<AirQualityReport> {
        let key = place.key
        let entry = AirQualityFetched.entry(kind: kind, key: key)
        let answer = try await fetch(
            kind: kind.rawValue, key: key, maxAgeMs: maxAgeMs, refresh: refresh, cause: cause, request: request,
            source: sources.airQuality.name, ttlMs: Self.airQualityTTL.milliseconds,
            cached: { cache in
                cache.airQuality[entry].map {
                    Cached(value: .airQuality($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            // The decoder's warnings go to the fetch event only, as a weather fetch's do.
            var report = try decode(body, call)
            let warnings = report.warnings
            report.warnings = []
            return (
                .airQuality(report),
                .airQualityFetched(
                    AirQualityFetched(kind: kind, key: key, call: call, report: report, warnings: warnings))
            )
        }
        guard case .airQuality(let report) = answer.value else {
            throw EngineError.inconsistent("an air quality fetch answered with another kind")
        }
        return answer.map(report)
    }
}
