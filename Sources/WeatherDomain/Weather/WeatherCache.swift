/// A provider answer kept in the cache, with when and from whom it came.
package struct Cached<Value: Sendable & Equatable>: Sendable, Equatable {
    package var value: Value
    package var fetchedAt: Timestamp
    package var provider: String

    package init(value: Value, fetchedAt: Timestamp, provider: String) {
        self.value = value
        self.fetchedAt = fetchedAt
        self.provider = provider
    }
}

/// The offline cache: the latest current weather, forecast and geocoding answer per key, the
/// `not_found` answers, and how long each provider asked us to wait after a `rate_limited`.
///
/// A fold over `weather.fetched`, `weather.fetch_failed`, `geocode.fetched` and `geocode.failed` (and the
/// official sources' `warnings.fetched`, `warnings.listed`, `air_quality.fetched` and `point.fetched`), so a restart with the provider unreachable still answers from it. Each map keeps at most
/// `capacity` entries, dropping the oldest fetch first, so memory follows the places used.
package struct WeatherCache: StateSlice {
    package static let capacity = 1000

    package internal(set) var current: [String: Cached<CurrentReport>] = [:]
    package internal(set) var forecast: [String: Cached<ForecastReport>] = [:]
    package internal(set) var geocodes: [String: Cached<[Place]>] = [:]
    /// `<kind>|<key>` → when the provider said `not_found`.
    package internal(set) var notFound: [String: Timestamp] = [:]
    /// Provider → no call before this time.
    package internal(set) var rateLimitedUntil: [String: Timestamp] = [:]
    /// `<source>|<key>` → the official warnings in force at the last fetch (`warnings.fetched`).
    package internal(set) var warnings: [String: Cached<[OfficialWarning]>] = [:]
    /// `<source>|<key>` → when the source last answered that the place is not its own (`warnings.fetched` with
    /// `covered: false`: Bright Sky has no DWD warn cell there).
    package internal(set) var uncovered: [String: Timestamp] = [:]
    /// `<source>|<kind>|<key>` → what an aggregator last listed for a place (`warnings.listed`).
    package internal(set) var warningLists: [String: Cached<WarningsListed.Listing>] = [:]
    /// `<kind>|<key>` → the last air-quality answer (`air_quality.fetched`).
    package internal(set) var airQuality: [String: Cached<AirQualityReport>] = [:]
    /// `<kind>|<key>` → what NWS or the provider said about a point without a country (`point.fetched`).
    package internal(set) var points: [String: Cached<PointFetched.Facts>] = [:]
    /// `<source>|<key>` → the last nowcast answer of a source for a place (`nowcast.fetched`).
    package internal(set) var nowcasts: [String: Cached<Nowcast>] = [:]
    /// Place key → the last nowcast reading said of it (`nowcast.changed`).
    package internal(set) var nowcastReadings: [String: NowcastChanged] = [:]
    /// `history|<key>|<from>|<to>[|hourly]` or `forecast_history|<key>|<from>|<to>` → an archive page
    /// (`past.fetched`).
    package internal(set) var past: [String: Cached<PastPage>] = [:]
    /// Place key → the normals and records of its calendar days, from its climate page (`past.fetched` of kind
    /// `climate`); at most `climateCapacity` places.
    package internal(set) var climates: [String: Cached<ClimateTable>] = [:]
    /// How sure forecasts are: ensemble spreads and model comparisons (`ensemble.fetched`, `models.fetched`).
    package internal(set) var confidence = ConfidenceCache()
    /// `<kind>|<provider>|<key>` → what the last answer's own headers said about asking again.
    package internal(set) var validity: [String: Validity] = [:]

    package init() {}

    package mutating func apply(_ event: DomainEvent) {
        switch event {
        case .weatherFetched(let fetched):
            notFound["\(fetched.kind.rawValue)|\(fetched.key)"] = nil
            switch fetched.report {
            case .current(let report):
                current[fetched.key] = Cached(
                    value: report, fetchedAt: fetched.call.at, provider: fetched.call.provider)
                Self.trim(&current)
            case .forecast(let report):
                forecast[fetched.key] = Cached(
                    value: report, fetchedAt: fetched.call.at, provider: fetched.call.provider)
                Self.trim(&forecast)
            }
        case .geocodeFetched(let fetched):
            notFound["geocode|\(fetched.key)"] = nil
            geocodes[fetched.key] = Cached(
                value: fetched.candidates, fetchedAt: fetched.call.at, provider: fetched.call.provider)
            Self.trim(&geocodes)
        case .weatherFetchFailed(let failed), .geocodeFailed(let failed):
            if failed.error == "not_found" {
                notFound["\(failed.kind)|\(failed.key)"] = failed.call.at
                Self.trim(&notFound)
            } else if failed.error == "rate_limited" {
                let wait = max(1, failed.retryAfterSeconds ?? 60)
                rateLimitedUntil[failed.call.provider] = Timestamp(
                    milliseconds: failed.call.at.milliseconds + wait * 1000)
            }
        case .warningsFetched(let fetched):
            apply(fetched)
        case .warningsListed(let listed):
            apply(listed)
        case .airQualityFetched(let fetched):
            apply(fetched)
        case .pointFetched(let fetched):
            apply(fetched)
        case .nowcastFetched(let fetched):
            apply(fetched)
        case .pastFetched(let fetched):
            apply(fetched)
        case .notModified(let confirmed):
            apply(confirmed)
            confidence.apply(event)
        case .ensembleFetched, .modelsFetched:
            confidence.apply(event)
        case .nowcastChanged(let changed):
            nowcastReadings[changed.key] = changed
            Self.trim(&nowcastReadings)
        default:
            break
        }
        if let (kind, key, call) = event.upstreamEntry { noteValidity(kind: kind, key: key, call: call) }
    }

    static func trim<V>(_ map: inout [String: Cached<V>], to capacity: Int = capacity) {
        while map.count > capacity,
            let oldest = map.min(by: { ($0.value.fetchedAt, $0.key) < ($1.value.fetchedAt, $1.key) })
        {
            map[oldest.key] = nil
        }
    }

    static func trim(_ map: inout [String: Timestamp]) {
        while map.count > capacity, let oldest = map.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            map[oldest.key] = nil
        }
    }

    /// The canonical form: complete, so that `WeatherCache(json:)` rebuilds the cache exactly (snapshots).
    package var json: JSONValue {
        func entries<V>(_ map: [String: Cached<V>], _ encode: (V, inout [String: JSONValue]) -> Void) -> JSONValue {
            .object(
                map.mapValues {
                    var object: [String: JSONValue] = [
                        "fetchedAt": .string($0.fetchedAt.description), "provider": .string($0.provider),
                    ]
                    encode($0.value, &object)
                    return .object(object)
                })
        }
        func located(_ place: Place, _ timezone: String?, _ offset: Int64, into object: inout [String: JSONValue]) {
            object["place"] = place.json
            object["utcOffsetSeconds"] = .int(offset)
            if let timezone { object["timezone"] = .string(timezone) }
        }
        return .object([
            "current": entries(current) { report, object in
                object["value"] = report.current.json
                located(report.place, report.timezone, report.utcOffsetSeconds, into: &object)
            },
            "forecast": entries(forecast) { report, object in
                object["value"] = .array(report.entries.map(\.json))
                if !report.hourly.isEmpty { object["hourly"] = .array(report.hourly.map(\.json)) }
                object["daily"] = .array(report.daily.map(\.json))
                if let spread = report.spread { object["spread"] = spread.json }
                located(report.place, report.timezone, report.utcOffsetSeconds, into: &object)
            },
            "geocodes": entries(geocodes) { places, object in object["value"] = .array(places.map(\.json)) },
            "notFound": .object(notFound.mapValues { .string($0.description) }),
            "rateLimitedUntil": .object(rateLimitedUntil.mapValues { .string($0.description) }),
            "warnings": entries(warnings) { list, object in object["value"] = .array(list.map(\.stateJSON)) },
            "uncovered": .object(uncovered.mapValues { .string($0.description) }),
            "warningLists": entries(warningLists) { listing, object in
                var value: [String: JSONValue] = [:]
                listing.write(into: &value, kind: .alerts)
                if !listing.feeds.isEmpty { listing.write(into: &value, kind: .feeds) }
                object["value"] = .object(value)
            },
            "airQuality": entries(airQuality) { report, object in object["value"] = report.json },
            "points": entries(points) { facts, object in object["value"] = facts.json },
            "nowcasts": entries(nowcasts) { nowcast, object in object["value"] = nowcast.json },
            "nowcastReadings": .object(nowcastReadings.mapValues(\.json)),
            "past": entries(past) { page, object in object["value"] = page.json },
            "climates": entries(climates) { table, object in object["value"] = table.json },
            "validity": .object(validity.mapValues(\.json)),
            "confidence": confidence.json,
        ])
    }
}

/// Pure rules for answering from the cache.
package enum CachePolicy {
    /// How a cache entry stands against the freshness limits.
    package enum Lookup<Value: Sendable & Equatable>: Sendable, Equatable {
        /// Younger than both the TTL and the client's `maxAgeSeconds`: answer without a call.
        case fresh(Cached<Value>)
        /// Too old to serve as fresh, but an answer when the provider cannot be reached.
        case stale(Cached<Value>)
        case missing
    }

    /// Classifies an entry; `maxAgeMs` (the client's limit) can only shorten `ttlMs`.
    package static func lookup<Value>(
        _ entry: Cached<Value>?, now: Timestamp, ttlMs: Int64, maxAgeMs: Int64? = nil
    ) -> Lookup<Value> {
        guard let entry else { return .missing }
        let limit = min(ttlMs, maxAgeMs ?? ttlMs)
        return now.milliseconds - entry.fetchedAt.milliseconds < limit ? .fresh(entry) : .stale(entry)
    }

    /// Whether the provider answered `not_found` for this key within `ttlMs`.
    package static func knownNotFound(
        _ cache: WeatherCache, kind: String, key: String, now: Timestamp, ttlMs: Int64
    ) -> Bool {
        guard let at = cache.notFound["\(kind)|\(key)"] else { return false }
        return now.milliseconds - at.milliseconds < ttlMs
    }

    /// The time before which `provider` must not be called, if it is still ahead.
    package static func rateLimitedUntil(_ cache: WeatherCache, provider: String, now: Timestamp) -> Timestamp? {
        guard let until = cache.rateLimitedUntil[provider], until > now else { return nil }
        return until
    }
}
