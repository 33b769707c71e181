/// A current-weather answer from a provider, normalized.
package struct CurrentReport: Sendable, Equatable {
    package var place: Place
    /// The IANA zone name when the provider gives one.
    package var timezone: String?
    /// The place's offset from UTC at fetch time, in seconds east.
    package var utcOffsetSeconds: Int64
    package var current: CurrentConditions
    /// The fields left out of the provider's answer, each with why (an unknown unit label, a value out of range):
    /// recorded in the fetch event, never kept in the cache.
    package var warnings: [String] = []

    package init(place: Place, timezone: String?, utcOffsetSeconds: Int64, current: CurrentConditions) {
        self.place = place
        self.timezone = timezone
        self.utcOffsetSeconds = utcOffsetSeconds
        self.current = current
    }
}

/// A forecast from a provider, normalized: 3-hourly steps, hourly steps where the provider has them,
/// and the days by local date.
package struct ForecastReport: Sendable, Equatable {
    package var place: Place
    package var timezone: String?
    package var utcOffsetSeconds: Int64
    /// The 3-hourly steps, oldest first, at most 40 (5 days).
    package var entries: [ForecastEntry]
    /// The hourly steps, oldest first: as fetched, at most `maxHours` from the hour of the fetch
    /// (`hoursKept(_:at:)`); as decoded, at most `decodedHours`. Empty where the provider gives none
    /// (OpenWeatherMap's 5-day / 3-hour forecast) and in fetches logged before they were kept.
    package var hourly: [ForecastEntry]
    package var daily: [DailySummary]
    /// The spread the provider published in the same answer (MET Norway's percentiles), per day and per hour; nil
    /// from a provider that publishes none.
    ///
    /// It comes with the forecast, so the forecast's one call serves `weather/confidence` too: it is logged in
    /// the forecast's `weather.fetched` and cached with it, never asked for again.
    package var spread: EnsembleSummary? = nil
    /// The fields left out of the provider's answer, each with why: recorded in the fetch event, never
    /// kept in the cache.
    package var warnings: [String] = []

    /// The most hourly steps a fetched report keeps: three days from the hour of the fetch, so that the next
    /// 48 hours are in it for a day after it was fetched, whenever in the day that was (served from the
    /// cache, or stale while the provider cannot be reached).
    package static let maxHours = 72

    /// The most hourly steps a provider's answer is read into: a local day more than `maxHours`, since
    /// Open-Meteo's hours begin at local midnight and up to a day of them has passed when it is fetched.
    package static let decodedHours = maxHours + 24

    /// The hourly steps a report fetched at `now` keeps: from the hour running then, at most `maxHours`.
    package static func hoursKept(_ hours: [ForecastEntry], at now: Timestamp) -> [ForecastEntry] {
        Array(hours.drop { $0.time.milliseconds + 3_600_000 <= now.milliseconds }.prefix(maxHours))
    }

    package init(
        place: Place, timezone: String?, utcOffsetSeconds: Int64, entries: [ForecastEntry],
        hourly: [ForecastEntry] = [], daily: [DailySummary]
    ) {
        self.place = place
        self.timezone = timezone
        self.utcOffsetSeconds = utcOffsetSeconds
        self.entries = entries
        self.hourly = hourly
        self.daily = daily
    }
}

/// The audit facts of one upstream call: who was asked what, and how it went.
package struct UpstreamCall: Sendable, Equatable {
    /// `open-meteo` or `openweathermap`.
    package var provider: String
    /// The request URL with the API key removed.
    package var url: String
    /// The HTTP status, when a response arrived.
    package var status: Int64?
    package var latencyMs: Int64
    /// The response body's size.
    package var bytes: Int64
    /// 1 for the first attempt, 2 for the first retry, …
    package var attempt: Int64
    /// When the answer (or the failure) came.
    package var at: Timestamp
    /// Until when the answer's own headers (`Expires`, `Cache-Control: max-age`) say it is fresh: weatherd
    /// asks again for it no earlier. Nil when the answer says neither.
    package var expiresAt: Timestamp? = nil
    /// The answer's `Last-Modified`, exactly as sent: the next call repeats it in `If-Modified-Since`.
    package var lastModified: String? = nil

    package init(
        provider: String, url: String, status: Int64?, latencyMs: Int64, bytes: Int64, attempt: Int64, at: Timestamp,
        expiresAt: Timestamp? = nil, lastModified: String? = nil
    ) {
        self.provider = provider
        self.url = url
        self.status = status
        self.latencyMs = latencyMs
        self.bytes = bytes
        self.attempt = attempt
        self.at = at
        self.expiresAt = expiresAt
        self.lastModified = lastModified
    }

    func write(into object: inout [String: JSONValue]) {
        object["provider"] = .string(provider)
        object["url"] = .string(url)
        if let status { object["status"] = .int(status) }
        object["latencyMs"] = .int(latencyMs)
        object["bytes"] = .int(bytes)
        object["attempt"] = .int(attempt)
        object["fetchedAt"] = .string(at.description)
        if let expiresAt { object["expires"] = .string(expiresAt.description) }
        if let lastModified { object["lastModified"] = .string(lastModified) }
    }

    init(_ r: FieldReader) throws(FieldError) {
        self.init(
            provider: try r.string("provider"), url: try r.string("url"), status: try r.optionalInt("status"),
            latencyMs: try r.int("latencyMs"), bytes: try r.int("bytes"), attempt: try r.int("attempt"),
            at: try r.timestamp("fetchedAt"), expiresAt: try r.optionalTimestamp("expires"),
            lastModified: try r.optionalString("lastModified"))
    }
}

/// What was fetched: current conditions or a forecast.
package enum WeatherKind: String, Sendable, CaseIterable {
    case current, forecast
}

/// Payload of `weather.fetched`: the normalized answer (so the cache rebuilds offline) and the audit facts.
package struct WeatherFetched: Sendable, Equatable {
    package enum Report: Sendable, Equatable {
        case current(CurrentReport)
        case forecast(ForecastReport)
    }

    /// The cache key the fetch was for.
    package var key: String
    package var call: UpstreamCall
    package var report: Report
    /// The fields left out of the answer, each with why (absent from the payload when none).
    package var warnings: [String]

    package init(key: String, call: UpstreamCall, report: Report, warnings: [String] = []) {
        self.key = key
        self.call = call
        self.report = report
        self.warnings = warnings
    }

    package var kind: WeatherKind {
        if case .current = report { return .current }
        return .forecast
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = ["key": .string(key), "kind": .string(kind.rawValue)]
        call.write(into: &object)
        switch report {
        case .current(let report):
            object["place"] = report.place.json
            object["utcOffsetSeconds"] = .int(report.utcOffsetSeconds)
            if let timezone = report.timezone { object["timezone"] = .string(timezone) }
            object["current"] = report.current.json
        case .forecast(let report):
            object["place"] = report.place.json
            object["utcOffsetSeconds"] = .int(report.utcOffsetSeconds)
            if let timezone = report.timezone { object["timezone"] = .string(timezone) }
            object["entries"] = .array(report.entries.map(\.json))
            // Written only when there are any, so a fetch without hourly steps reads as it always did.
            if !report.hourly.isEmpty { object["hourly"] = .array(report.hourly.map(\.json)) }
            object["daily"] = .array(report.daily.map(\.json))
            if let spread = report.spread { object["spread"] = spread.json }
        }
        if !warnings.isEmpty { object["warnings"] = .array(warnings.map { .string($0) }) }
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        let place = try Place(json: r.members["place"] ?? .null, path: "data.place")
        let offset = try r.int("utcOffsetSeconds")
        let timezone = try r.optionalString("timezone")
        let report: Report
        switch try r.choice("kind", as: WeatherKind.self) {
        case .current?:
            let current = try CurrentConditions(json: r.members["current"] ?? .null, path: "data.current")
            report = .current(
                CurrentReport(place: place, timezone: timezone, utcOffsetSeconds: offset, current: current))
        case .forecast?:
            var entries: [ForecastEntry] = []
            for (index, item) in (r.members["entries"]?.arrayValue ?? []).enumerated() {
                entries.append(try ForecastEntry(json: item, path: "data.entries[\(index)]"))
            }
            var hourly: [ForecastEntry] = []
            for (index, item) in (r.members["hourly"]?.arrayValue ?? []).enumerated() {
                hourly.append(try ForecastEntry(json: item, path: "data.hourly[\(index)]"))
            }
            var daily: [DailySummary] = []
            for (index, item) in (r.members["daily"]?.arrayValue ?? []).enumerated() {
                daily.append(try DailySummary(json: item, path: "data.daily[\(index)]"))
            }
            var forecast = ForecastReport(
                place: place, timezone: timezone, utcOffsetSeconds: offset, entries: entries, hourly: hourly,
                daily: daily)
            forecast.spread = try r.members["spread"].map { spread throws(FieldError) in
                try EnsembleSummary(try FieldReader(spread, path: "data.spread"))
            }
            report = .forecast(forecast)
        case nil:
            throw FieldError(path: "data.kind", problem: "is required")
        }
        self.init(
            key: try r.string("key"), call: try UpstreamCall(r), report: report,
            warnings: try r.optionalStrings("warnings") ?? [])
    }
}

/// Payload of `weather.fetch_failed` and `geocode.failed`: the audit facts and the error kind.
package struct FetchFailed: Sendable, Equatable {
    /// The cache key (`weather.fetch_failed`) or the normalized query (`geocode.failed`).
    package var key: String
    /// `current`, `forecast` or `geocode`.
    package var kind: String
    package var call: UpstreamCall
    /// The stable error kind: `offline`, `timeout`, `not_found`, `rate_limited`, …
    package var error: String
    package var message: String
    /// For `rate_limited`: how long the provider asked us to wait.
    package var retryAfterSeconds: Int64?

    package init(
        key: String, kind: String, call: UpstreamCall, error: String, message: String, retryAfterSeconds: Int64? = nil
    ) {
        self.key = key
        self.kind = kind
        self.call = call
        self.error = error
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "key": .string(key), "kind": .string(kind), "error": .string(error), "message": .string(message),
        ]
        call.write(into: &object)
        if let retryAfterSeconds { object["retryAfterSeconds"] = .int(retryAfterSeconds) }
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        self.init(
            key: try r.string("key"), kind: try r.string("kind"), call: try UpstreamCall(r),
            error: try r.string("error"), message: try r.string("message"),
            retryAfterSeconds: try r.optionalInt("retryAfterSeconds"))
    }
}

/// Payload of `geocode.fetched`: the candidates for a query, and the audit facts.
package struct GeocodeFetched: Sendable, Equatable {
    /// The query as typed.
    package var query: String
    /// The normalized query used as the cache key (trimmed, lowercased).
    package var key: String
    package var call: UpstreamCall
    package var candidates: [Place]

    package init(query: String, key: String, call: UpstreamCall, candidates: [Place]) {
        self.query = query
        self.key = key
        self.call = call
        self.candidates = candidates
    }

    package static func key(for query: String) -> String { query.trimmingWhitespace.lowercased() }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "query": .string(query), "key": .string(key), "candidates": .array(candidates.map(\.json)),
        ]
        call.write(into: &object)
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        var candidates: [Place] = []
        for (index, item) in (r.members["candidates"]?.arrayValue ?? []).enumerated() {
            candidates.append(try Place(json: item, path: "data.candidates[\(index)]"))
        }
        self.init(
            query: try r.string("query"), key: try r.string("key"), call: try UpstreamCall(r), candidates: candidates)
    }
}
