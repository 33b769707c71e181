extension WeatherFetched {
    /// The members of a `weather.fetched` payload that `init(auditOf:)` reads: all but the report (the call's
    /// facts, with what its answer said about asking again: `expires` and `lastModified`).
    package static let auditMembers: Set<String> = [
        "key", "kind", "provider", "url", "status", "latencyMs", "bytes", "attempt", "fetchedAt", "expires",
        "lastModified",
    ]

    /// The fetch's key, kind and audit facts, with an empty report of its kind.
    ///
    /// Enough for the cache to place a fetch the way the full event does (which entry, when, from whom);
    /// replay reads only this for a fetch that a later one replaces, and fills in the report of the last
    /// fetch per key with `WeatherCache.fill`.
    ///
    /// - Parameter members: the payload's `auditMembers` (others are ignored).
    /// - Throws: `FieldError` when one of them is missing or malformed.
    package init(auditOf members: [String: JSONValue]) throws(FieldError) {
        let r = try FieldReader(.object(members), path: "data")
        let nowhere = Place(name: nil, country: nil, state: nil, lat: 0, lon: 0)
        let call = try UpstreamCall(r)
        let report: Report
        switch try r.choice("kind", as: WeatherKind.self) {
        case .current?:
            report = .current(
                CurrentReport(
                    place: nowhere, timezone: nil, utcOffsetSeconds: 0,
                    current: CurrentConditions(observedAt: call.at, temperature: 0, condition: .wmo(0))))
        case .forecast?:
            report = .forecast(
                ForecastReport(place: nowhere, timezone: nil, utcOffsetSeconds: 0, entries: [], daily: []))
        case nil:
            throw FieldError(path: "data.kind", problem: "is required")
        }
        self.init(key: try r.string("key"), call: call, report: report)
    }
}

extension WeatherFetched {
    /// What log compaction may strip from a `weather.fetched` line once a later fetch of the same cache entry
    /// (`kind` and `key`) replaced it: the report and its spread, which are cache; the place, time zone and audit
    /// facts stay.
    package static let payloadMembers: Set<String> = ["current", "entries", "hourly", "daily", "spread"]
    /// The payload compaction keeps in reduced form: a forecast's `daily`, each day with only its date, low,
    /// high, condition, chance and amount of precipitation (a few hundred bytes a forecast), so every forecast
    /// of a date can still be read from the log past the payload window; and a current fetch's `current` with
    /// only its time, temperature, precipitation and condition, so the log's readings of a day still verify
    /// forecasts (`weather/accuracy`). `entries` and `hourly` are removed wholly.
    package static let reducedMembers: [String: [String]] = [
        "daily": ["date", "min", "max", "condition", "pop", "precipitation"],
        "current": ["observedAt", "temperature", "precipitation", "condition"],
    ]
    /// The members naming the cache entry a fetch fills.
    package static let entryMembers = ["kind", "key"]
}

extension WeatherCache {
    /// Puts `fetched`'s report into the entry that fetch made, if the entry is still that fetch's (same
    /// key, kind and time); changes nothing else.
    package mutating func fill(_ fetched: WeatherFetched) {
        guard holds(fetched.kind, key: fetched.key, at: fetched.call.at) else { return }
        switch fetched.report {
        case .current(let report): current[fetched.key]?.value = report
        case .forecast(let report): forecast[fetched.key]?.value = report
        }
    }

    /// Whether the entry for `kind` and `key` was made by a fetch at `at`.
    package func holds(_ kind: WeatherKind, key: String, at: Timestamp) -> Bool {
        switch kind {
        case .current: current[key]?.fetchedAt == at
        case .forecast: forecast[key]?.fetchedAt == at
        }
    }
}
