import Providers
import WeatherDomain

/// A source's warnings for a point, and whether the point is its own (Bright Sky: in one of DWD's warn cells).
package struct CellWarnings: Sendable, Equatable {
    package var covered: Bool
    package var warnings: [OfficialWarning]
}

extension FetchActor {
    /// How long the feeds the FOSS Public Alert Server relays for a country are used without asking again.
    static let feedsTTL: Duration = .seconds(86_400)
    /// How long a CAP document is kept without asking for it again: its id names one message, which never
    /// changes (an update is a new message), so it is asked for once and dropped from the cache when it ends.
    static let documentTTL: Duration = .milliseconds(PointFetched.validityMs)

    /// The DWD's warnings at the point of `place` through Bright Sky, and whether the point lies in one of DWD's
    /// warn cells (`covered` false: Bright Sky says the place is not its own, and has no warnings for it).
    /// Cached 5 minutes as every source's warnings; audited as `warnings.fetched` (with `covered: false` for
    /// Bright Sky's 404).
    package func brightSkyWarnings(at place: Place, refresh: Bool = false, cause: String) async throws -> FetchAnswer<
        CellWarnings
    > {
        let brightSky = sources.brightSky
        let key = place.key
        let entry = WarningsFetched.entry(source: .brightsky, key: key)
        let language = sources.language
        let answer = try await fetch(
            kind: WarningsFetched.failureKind, key: key, maxAgeMs: nil, refresh: refresh, cause: cause,
            request: brightSky.alertsRequest(lat: place.lat, lon: place.lon), source: brightSky.name,
            ttlMs: Self.warningsTTL.milliseconds,
            cached: { cache in
                cache.warnings[entry].map {
                    Cached(
                        value: .coveredWarnings(covered: cache.uncovered[entry] == nil, $0.value),
                        fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let (covered, all) = try brightSky.decodeAlerts(status: Int(call.status ?? 200), body: body)
            let active = WarningRules.active(all, now: call.at, language: language)
            return (
                .coveredWarnings(covered: covered, active),
                .warningsFetched(
                    WarningsFetched(source: .brightsky, key: key, call: call, warnings: active, covered: covered))
            )
        }
        guard case .coveredWarnings(let covered, let warnings) = answer.value else {
            throw EngineError.inconsistent("a Bright Sky fetch answered with another kind")
        }
        return answer.map(CellWarnings(covered: covered, warnings: warnings))
    }

    /// The ids of the alerts the FOSS Public Alert Server holds whose areas meet a small box around the point of
    /// `place` (its cache key: no more exact coordinates reach the server or the log). Cached 5 minutes, audited
    /// as `warnings.listed` (`kind` `alerts`).
    package func aggregatorAlertIDs(at place: Place, refresh: Bool = false, cause: String) async throws
        -> FetchAnswer<[String]>
    {
        let fpas = sources.fpas
        let key = place.key
        let (lat, lon) = Self.keyPoint(place)
        let answer = try await listing(
            .alerts, key: key, request: fpas.areaRequest(lat: lat, lon: lon), ttl: Self.warningsTTL, refresh: refresh,
            cause: cause
        ) { body throws(ProviderError) in WarningsListed.Listing(ids: try fpas.decodeIDs(body)) }
        return answer.map(answer.value.ids)
    }

    /// The feeds the FOSS Public Alert Server relays for `countries` (ISO codes). Cached a day, audited as
    /// `warnings.listed` (`kind` `feeds`, the key the codes joined by `,`).
    package func aggregatorFeeds(countries: [String], cause: String) async throws -> FetchAnswer<
        [WarningsListed.Feed]
    > {
        let fpas = sources.fpas
        let codes = countries.map { $0.uppercased() }
        let answer = try await listing(
            .feeds, key: codes.joined(separator: ","), request: fpas.feedsRequest(countries: codes), ttl: Self.feedsTTL,
            refresh: false, cause: cause
        ) { body throws(ProviderError) in WarningsListed.Listing(feeds: try fpas.decodeFeeds(body)) }
        return answer.map(answer.value.feeds)
    }

    /// One CAP document of the FOSS Public Alert Server, by its id there: its message in one language per id, as
    /// issued (`FPASWarningProvider.decodeAlert`). Asked for once and kept until it ends; audited as
    /// `warnings.fetched` (`source` `fpas`, the id as `key`).
    ///
    /// - Throws: `ProviderError` `not_found` for an id that is not a UUID (none is sent) or that the server
    ///   does not know.
    package func aggregatorDocument(id: String, cause: String) async throws -> FetchAnswer<[OfficialWarning]> {
        let fpas = sources.fpas
        guard let request = fpas.alertRequest(id: id) else {
            throw ProviderError(.notFound, "\(id) is not an alert id of the FOSS Public Alert Server.")
        }
        let key = id.lowercased()
        let entry = WarningsFetched.entry(source: .fpas, key: key)
        let language = sources.language
        let answer = try await fetch(
            kind: WarningsFetched.failureKind, key: key, maxAgeMs: nil, refresh: false, cause: cause, request: request,
            source: fpas.name, ttlMs: Self.documentTTL.milliseconds,
            cached: { cache in
                cache.warnings[entry].map {
                    Cached(value: .warnings($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let warnings = try fpas.decodeAlert(body, language: language)
            return (
                .warnings(warnings),
                .warningsFetched(WarningsFetched(source: .fpas, key: key, call: call, warnings: warnings))
            )
        }
        guard case .warnings(let warnings) = answer.value else {
            throw EngineError.inconsistent("a CAP document fetch answered with another kind")
        }
        return answer.map(warnings)
    }

    private func listing(
        _ kind: WarningsListed.Kind, key: String, request: ProviderRequest, ttl: Duration, refresh: Bool,
        cause: String, decode: @escaping @Sendable ([UInt8]) throws(ProviderError) -> WarningsListed.Listing
    ) async throws -> FetchAnswer<WarningsListed.Listing> {
        let entry = WarningsListed.entry(source: .fpas, kind: kind, key: key)
        let answer = try await fetch(
            kind: WarningsListed.fetchKind(kind), key: key, maxAgeMs: nil, refresh: refresh, cause: cause,
            request: request, source: sources.fpas.name, ttlMs: ttl.milliseconds,
            cached: { cache in
                cache.warningLists[entry].map {
                    Cached(value: .listing($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let listing = try decode(body)
            return (
                .listing(listing),
                .warningsListed(WarningsListed(source: .fpas, kind: kind, key: key, call: call, listing: listing))
            )
        }
        guard case .listing(let listing) = answer.value else {
            throw EngineError.inconsistent("a warnings list fetch answered with another kind")
        }
        return answer.map(listing)
    }
}
