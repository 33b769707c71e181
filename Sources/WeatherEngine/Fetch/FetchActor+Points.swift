import Providers
import WeatherDomain

extension FetchActor {
    /// How long what a source said about a point is used without asking again (`PointFetched.validityMs`).
    static let pointTTL: Duration = .milliseconds(PointFetched.validityMs)

    /// Whether the weather provider can name the place at a point (OpenWeatherMap can, Open-Meteo cannot).
    package nonisolated var canReverseGeocode: Bool { provider.reverseGeocodeRequest(lat: 0, lon: 0) != nil }

    /// The language a warning given in several is kept in (nil: English where given, else the first).
    package nonisolated var warningsLanguage: String? { sources.language }

    /// The countries the time zone table lists for the zone nearest `(lat, lon)`: those a point without a
    /// country is likely in (candidates for routing its warnings, never an answer on their own).
    package nonisolated func zoneCountries(lat: Double, lon: Double) -> [String] {
        sources.zones.countries(lat: lat, lon: lon)
    }

    /// Whether NWS covers the point of `place`, from its `/points` answer: cached 30 days, one call however
    /// many ask at once, audited as `point.fetched` (`weather.fetch_failed` with `kind` `nws_point` when it
    /// fails). The point is the place's cache key, so no more exact coordinates reach NWS or the log.
    package func nwsPoint(at place: Place, cause: String) async throws -> FetchAnswer<PointFetched.Facts> {
        let nws = sources.nws
        let (lat, lon) = Self.keyPoint(place)
        return try await point(
            .nwsPoint, at: place, request: nws.pointRequest(lat: lat, lon: lon), source: nws.name, cause: cause
        ) {
            body, call throws(ProviderError) in
            PointFetched.Facts(covered: try nws.decodePoint(status: Int(call.status ?? 200), body: body))
        }
    }

    /// The place the weather provider names at the point of `place` (its reverse geocoding, first candidate),
    /// cached and audited as `nwsPoint` is (`kind` `reverse_geocode`). Its country and region choose the
    /// warning source; the candidate's own coordinates are those of the named place, not the client's.
    ///
    /// - Throws: `EngineError` when the provider has no reverse geocoding (see `canReverseGeocode`).
    package func reverseGeocode(at place: Place, cause: String) async throws -> FetchAnswer<PointFetched.Facts> {
        let provider = self.provider
        let (lat, lon) = Self.keyPoint(place)
        guard let request = provider.reverseGeocodeRequest(lat: lat, lon: lon) else {
            throw EngineError.inconsistent("\(provider.name) has no reverse geocoding")
        }
        return try await point(.reverseGeocode, at: place, request: request, source: provider.name, cause: cause) {
            body, _ throws(ProviderError) in
            let candidates = try provider.decodeGeocode(body)
            try ReportCheck.check(candidates, provider: provider.name)
            return PointFetched.Facts(place: candidates.first)
        }
    }

    private func point(
        _ kind: PointFetched.Kind, at place: Place, request: ProviderRequest, source: String, cause: String,
        decode: @escaping @Sendable ([UInt8], UpstreamCall) throws(ProviderError) -> PointFetched.Facts
    ) async throws -> FetchAnswer<PointFetched.Facts> {
        let key = place.key
        let entry = PointFetched.entry(kind: kind, key: key)
        let answer = try await fetch(
            kind: kind.rawValue, key: key, maxAgeMs: nil, refresh: false, cause: cause, request: request,
            source: source, ttlMs: Self.pointTTL.milliseconds,
            cached: { cache in
                cache.points[entry].map {
                    Cached(value: .point($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let facts = try decode(body, call)
            return (.point(facts), .pointFetched(PointFetched(kind: kind, key: key, call: call, facts: facts)))
        }
        guard case .point(let facts) = answer.value else {
            throw EngineError.inconsistent("a point's call answered with another kind")
        }
        return answer.map(facts)
    }

    /// The coordinates of the place's cache key (2 decimals).
    static func keyPoint(_ place: Place) -> (Double, Double) {
        (
            Rounding.round(place.lat, decimals: Place.keyDecimals),
            Rounding.round(place.lon, decimals: Place.keyDecimals)
        )
    }
}
