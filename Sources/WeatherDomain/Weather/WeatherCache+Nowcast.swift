/// What an answer's own headers said about asking for it again (`UpstreamCall.expiresAt`, `lastModified`).
package struct Validity: Sendable, Equatable {
    /// No call for the entry before this time.
    package var expiresAt: Timestamp?
    /// Sent back as `If-Modified-Since`, byte for byte.
    package var lastModified: String?

    package init(expiresAt: Timestamp?, lastModified: String?) {
        self.expiresAt = expiresAt
        self.lastModified = lastModified
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [:]
        if let expiresAt { object["expires"] = .string(expiresAt.description) }
        if let lastModified { object["lastModified"] = .string(lastModified) }
        return .object(object)
    }

    init(_ r: FieldReader) throws(FieldError) {
        self.init(expiresAt: try r.optionalTimestamp("expires"), lastModified: try r.optionalString("lastModified"))
    }
}

extension WeatherCache {
    /// The `validity` entry of a fetch: `<kind>|<provider>|<key>`.
    package static func validityEntry(kind: String, provider: String, key: String) -> String {
        "\(kind)|\(provider)|\(key)"
    }

    /// Keeps a nowcast fetch as its (source, place)'s latest.
    mutating func apply(_ fetched: NowcastFetched) {
        nowcasts[NowcastFetched.entry(source: fetched.nowcast.source, key: fetched.key)] = Cached(
            value: fetched.nowcast, fetchedAt: fetched.call.at, provider: fetched.call.provider)
        Self.trim(&nowcasts)
    }

    /// A `304 Not Modified`: the cached answer stands, confirmed at the time of the call.
    mutating func apply(_ confirmed: NotModified) {
        let at = confirmed.call.at
        let key = confirmed.key
        func touch<V>(_ map: inout [String: Cached<V>], _ entry: String) {
            map[entry]?.fetchedAt = at
        }
        switch confirmed.kind {
        case WeatherKind.current.rawValue: touch(&current, key)
        case WeatherKind.forecast.rawValue: touch(&forecast, key)
        case "geocode": touch(&geocodes, key)
        case NowcastFetched.fetchKind: touch(&nowcasts, "\(confirmed.call.provider)|\(key)")
        case WarningsFetched.failureKind: touch(&warnings, "\(confirmed.call.provider)|\(key)")
        default:
            if let kind = AirQualityFetched.Kind(rawValue: confirmed.kind) {
                touch(&airQuality, AirQualityFetched.entry(kind: kind, key: key))
            } else if let kind = PointFetched.Kind(rawValue: confirmed.kind) {
                touch(&points, PointFetched.entry(kind: kind, key: key))
            } else if let kind = WarningsListed.Kind.allCases.first(where: {
                WarningsListed.fetchKind($0) == confirmed.kind
            }),
                let source = OfficialWarning.Source(rawValue: confirmed.call.provider)
            {
                touch(&warningLists, WarningsListed.entry(source: source, kind: kind, key: key))
            }
        }
    }

    /// Records what a call's answer said about asking again; an answer that says nothing clears the entry.
    mutating func noteValidity(kind: String, key: String, call: UpstreamCall) {
        let entry = Self.validityEntry(kind: kind, provider: call.provider, key: key)
        if call.expiresAt == nil && call.lastModified == nil {
            validity[entry] = nil
        } else {
            validity[entry] = Validity(expiresAt: call.expiresAt, lastModified: call.lastModified)
            while validity.count > Self.capacity * 4, let oldest = validity.min(by: { $0.key < $1.key }) {
                validity[oldest.key] = nil
            }
        }
    }

    static func trim(_ map: inout [String: NowcastChanged]) {
        while map.count > capacity, let oldest = map.min(by: { ($0.value.at, $0.key) < ($1.value.at, $1.key) }) {
            map[oldest.key] = nil
        }
    }

    /// Reads the `nowcasts`, `nowcastReadings` and `validity` members; a snapshot written before they existed
    /// lacks them, and was taken before any event that fills them.
    mutating func decodeNowcasts(_ reader: FieldReader) throws(FieldError) {
        if reader.members["nowcasts"] != nil {
            nowcasts = try reader.values("nowcasts") { item, itemPath throws(FieldError) in
                let entry = try FieldReader(item, path: itemPath)
                let fetched = try NowcastFetched(json: Self.nowcastPayload(entry))
                return Cached(
                    value: fetched.nowcast, fetchedAt: try entry.timestamp("fetchedAt"),
                    provider: try entry.string("provider"))
            }
        }
        if reader.members["nowcastReadings"] != nil {
            nowcastReadings = try reader.values("nowcastReadings") { item, _ throws(FieldError) in
                try NowcastChanged(json: item)
            }
        }
        if reader.members["validity"] != nil {
            validity = try reader.values("validity") { item, itemPath throws(FieldError) in
                try Validity(FieldReader(item, path: itemPath))
            }
        }
    }

    /// A snapshot's nowcast entry read as a `nowcast.fetched` payload (its value is one, without the call).
    private static func nowcastPayload(_ entry: FieldReader) -> JSONValue {
        guard case .object(var members) = entry.members["value"] ?? .null else { return .null }
        members["provider"] = entry.members["provider"]
        members["fetchedAt"] = entry.members["fetchedAt"]
        members["url"] = .string("")
        members["latencyMs"] = .int(0)
        members["bytes"] = .int(0)
        members["attempt"] = .int(1)
        return .object(members)
    }
}

extension Nowcast {
    /// `{key: "", source, resolutionMinutes, steps, precipitation?, radarCoverage?}`: the canonical form kept in
    /// snapshots, the shape of a `nowcast.fetched` payload without its call.
    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "key": .string(""), "source": .string(source.rawValue),
            "resolutionMinutes": .int(Int64(resolutionMinutes)), "steps": .array(steps.map(\.json)),
        ]
        if let kind { object["precipitation"] = .string(kind.rawValue) }
        if let radarCoverage { object["radarCoverage"] = .string(radarCoverage) }
        return .object(object)
    }
}

extension DomainEvent {
    /// The fetch an event records a successful call of, as (kind, key, call): the entry its answer's validity
    /// belongs to. Nil for every other event.
    package var upstreamEntry: (kind: String, key: String, call: UpstreamCall)? {
        switch self {
        case .weatherFetched(let fetched): (fetched.kind.rawValue, fetched.key, fetched.call)
        case .geocodeFetched(let fetched): ("geocode", fetched.key, fetched.call)
        case .warningsFetched(let fetched): (WarningsFetched.failureKind, fetched.key, fetched.call)
        case .warningsListed(let listed): (WarningsListed.fetchKind(listed.kind), listed.key, listed.call)
        case .airQualityFetched(let fetched): (fetched.kind.rawValue, fetched.key, fetched.call)
        case .pointFetched(let fetched): (fetched.kind.rawValue, fetched.key, fetched.call)
        case .nowcastFetched(let fetched): (NowcastFetched.fetchKind, fetched.key, fetched.call)
        case .pastFetched(let fetched): (PastFetched.fetchKind, fetched.entry, fetched.call)
        case .notModified(let confirmed): (confirmed.kind, confirmed.key, confirmed.call)
        case .ensembleFetched(let fetched): (EnsembleFetched.fetchKind, fetched.entry, fetched.call)
        case .modelsFetched(let fetched): (ModelsFetched.fetchKind, fetched.entry, fetched.call)
        default: nil
        }
    }
}
