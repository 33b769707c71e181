/// An hour of the past at a place, by its local wall-clock time, in canonical units (°C, mm, m/s).
package struct PastHour: Sendable, Equatable {
    /// `YYYY-MM-DDTHH:MM`, the place's local time.
    package var time: String
    package var temperature: Double?
    package var precipitation: Double?
    package var windSpeed: Double?
    package var condition: Condition?

    package init(
        time: String, temperature: Double?, precipitation: Double? = nil, windSpeed: Double? = nil,
        condition: Condition? = nil
    ) {
        self.time = time
        self.temperature = temperature
        self.precipitation = precipitation
        self.windSpeed = windSpeed
        self.condition = condition
    }
}

/// A run of consecutive past days (and, when asked, their hours) as one archive call answered them.
package struct PastPage: Sendable, Equatable {
    /// The first and last local dates asked for, inclusive.
    package var from: String
    package var to: String
    /// Whether every day is final (ERA5, not its preliminary ERA5T): such a page never changes and is kept for
    /// good; a preliminary one only until its days would be final.
    package var final: Bool
    package var days: [PastDay]
    /// The hours, when they were asked for; nil otherwise.
    package var hours: [PastHour]?

    package init(from: String, to: String, final: Bool, days: [PastDay], hours: [PastHour]? = nil) {
        self.from = from
        self.to = to
        self.final = final
        self.days = days
        self.hours = hours
    }
}

/// Payload of `past.fetched`: one call to Open-Meteo's Historical Weather API (ERA5), and the audit facts of
/// the call.
///
/// A `history` page is at most a year of a `weather/history` range; a `climate` page is every day from 1940
/// to the last final one, low, high and precipitation only, for `weather/climate`. Values are stored in
/// columns (one array per variable, one entry per day from `from` on) to keep the ~31,000 days of a climate
/// page small in the log.
package struct PastFetched: Sendable, Equatable {
    /// What the page is for.
    package enum Kind: String, Sendable, CaseIterable {
        case history
        case climate
        /// Days of a `weather/history` range that neither ERA5 nor weatherd's log has, from Open-Meteo's
        /// Historical Forecast API (the forecasts its models made for those days).
        case forecastHistory = "forecast_history"
    }

    package var kind: Kind
    /// The place's cache key.
    package var key: String
    package var page: PastPage
    package var call: UpstreamCall

    package init(kind: Kind, key: String, page: PastPage, call: UpstreamCall) {
        self.kind = kind
        self.key = key
        self.page = page
        self.call = call
    }

    /// The fetch kind of an archive call, in `weather.fetch_failed`.
    package static let fetchKind = "past"

    /// The cache entry a page fills: `climate|<key>`, `history|<key>|<from>|<to>` (`|hourly` with hours), or
    /// `forecast_history|<key>|<from>|<to>`.
    package static func entry(kind: Kind, key: String, from: String = "", to: String = "", hourly: Bool = false)
        -> String
    {
        switch kind {
        case .climate: "climate|\(key)"
        case .history: "history|\(key)|\(from)|\(to)\(hourly ? "|hourly" : "")"
        case .forecastHistory: "forecast_history|\(key)|\(from)|\(to)"
        }
    }

    /// This payload's cache entry.
    package var entry: String {
        Self.entry(kind: kind, key: key, from: page.from, to: page.to, hourly: page.hours != nil)
    }

    /// What log compaction may strip once a later fetch of the same entry replaced this one (a climate page
    /// refetched after a year).
    package static let payloadMembers: Set<String> = ["daily", "hourly"]
    /// The member naming the cache entry a fetch fills.
    package static let entryMembers = ["entry"]

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "key": .string(key), "entry": .string(entry),
            "from": .string(page.from), "to": .string(page.to), "final": .bool(page.final),
            "daily": Self.columns(page.days),
        ]
        if let hours = page.hours { object["hourly"] = Self.columns(hours) }
        call.write(into: &object)
        return .object(object)
    }

    /// Reads a payload; one whose columns compaction stripped (it carries `compacted`) reads with no days.
    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        guard let kind = try r.choice("kind", as: Kind.self) else {
            throw FieldError(path: "data.kind", problem: "is required")
        }
        let from = try r.string("from")
        var days: [PastDay] = []
        if r.has("daily") || !r.has("compacted") {
            days = try Self.days(FieldReader(r.members["daily"], path: "data.daily"), from: from)
        }
        let hours = try r.members["hourly"].map { value throws(FieldError) in
            try Self.hours(FieldReader(value, path: "data.hourly"))
        }
        self.init(
            kind: kind, key: try r.string("key"),
            page: PastPage(from: from, to: try r.string("to"), final: try r.bool("final"), days: days, hours: hours),
            call: try UpstreamCall(r))
    }
}
