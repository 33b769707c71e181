/// The alert rules a place can trigger.
package enum AlertRule: String, Sendable, Equatable, CaseIterable {
    case tempDrop = "temp_drop"
    case severe
    case dailySummary = "daily_summary"
    /// An official warning from a national weather service (NWS, Bright Sky, MeteoAlarm, the FOSS Public Alert
    /// Server).
    case official
    /// The European Air Quality Index at or above the configured level.
    case airQuality = "air_quality"
    /// Precipitation starting, stopping or coming and going in the next minutes (the nowcast).
    case nowcast
    /// A day of the next three whose forecast high or low moved 3 °C or more, or whose precipitation chance
    /// crossed 50 %, since the forecast the reader was last told about.
    case forecastChange = "forecast_change"

    /// Where the alert comes from: `official` for a national weather service's warning, `forecast` for what
    /// weatherd itself derives from the forecast, current weather and air quality.
    package var origin: String { self == .official ? "official" : "forecast" }
}

/// Global alert settings (`alerts/configure`), persisted as `alerts.configured`.
package struct AlertSettings: Sendable, Equatable {
    package var dailySummaryEnabled = true
    /// Local time of the daily summary, in minutes after midnight (08:00 by default).
    package var dailySummaryMinutes: Int64 = 8 * 60
    /// A drop of more than this many °C raises `temp_drop`.
    package var tempDropC = 10.0
    package var severe = true
    /// Whether official warnings raise `official` alerts (on by default).
    package var official = true
    /// Whether the European AQI raises `air_quality` alerts (off by default).
    package var airQualityEnabled = false
    /// The level at which `air_quality` is raised.
    package var airQualityLevel = EuropeanAQILevel.poor
    /// Whether a change of the next minutes' precipitation raises `nowcast` alerts (off by default).
    package var nowcast = false
    /// Whether a changed forecast of the next three days raises `forecast_change` alerts (off by default).
    package var forecastChange = false

    package init() {}

    /// `HH:MM`.
    package var dailySummaryTime: String {
        let hours = dailySummaryMinutes / 60
        let minutes = dailySummaryMinutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }

    /// Reads `HH:MM` (00:00…23:59).
    package static func minutes(of time: String) -> Int64? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hours = Int64(parts[0]),
            let minutes = Int64(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    package var json: JSONValue {
        .object([
            "dailySummary": .object(["enabled": .bool(dailySummaryEnabled), "time": .string(dailySummaryTime)]),
            "tempDropC": .double(tempDropC), "severe": .bool(severe), "official": .bool(official),
            "airQuality": .object(["enabled": .bool(airQualityEnabled), "level": .string(airQualityLevel.rawValue)]),
            "nowcast": .bool(nowcast), "forecastChange": .bool(forecastChange),
        ])
    }

    /// Reads the settings; `official` and `airQuality`, which came with `alerts.configured` v2, take their
    /// defaults where absent (a snapshot's settings from before v2).
    package init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        let daily = try FieldReader(reader.members["dailySummary"], path: "data.dailySummary")
        dailySummaryEnabled = try daily.bool("enabled")
        guard let minutes = Self.minutes(of: try daily.string("time")) else {
            throw FieldError(path: "data.dailySummary.time", problem: "must be HH:MM")
        }
        dailySummaryMinutes = minutes
        tempDropC = try reader.double("tempDropC")
        severe = try reader.bool("severe")
        official = try reader.optionalBool("official") ?? true
        let airQuality = try FieldReader(reader.members["airQuality"], path: "data.airQuality", allowAbsent: true)
        airQualityEnabled = try airQuality.optionalBool("enabled") ?? false
        airQualityLevel = try airQuality.choice("level", as: EuropeanAQILevel.self) ?? .poor
        nowcast = try reader.optionalBool("nowcast") ?? false
        forecastChange = try reader.optionalBool("forecastChange") ?? false
    }
}

/// One raised alert, as `alert.raised` records it.
package struct RaisedAlert: Sendable, Equatable {
    /// `alert-<n>`.
    package var id: String
    package var rule: AlertRule
    /// The place's cache key.
    package var key: String
    package var place: Place
    /// The favorite it is for, or nil for the current location.
    package var favoriteId: String?
    /// The place's local date the alert belongs to: one alert per (place, rule, local date).
    package var localDate: String
    package var raisedAt: Timestamp
    /// A human sentence.
    package var message: String
    /// Rule-specific figures (temperatures in °C, condition).
    package var details: JSONValue

    package init(
        id: String, rule: AlertRule, key: String, place: Place, favoriteId: String?, localDate: String,
        raisedAt: Timestamp, message: String, details: JSONValue
    ) {
        self.id = id
        self.rule = rule
        self.key = key
        self.place = place
        self.favoriteId = favoriteId
        self.localDate = localDate
        self.raisedAt = raisedAt
        self.message = message
        self.details = details
    }

    /// The de-duplication key: `<key>|<rule>|<local date>`, and for `official`
    /// `<key>|official|<first id>|<severity>` (see `OfficialAlerts`).
    package var dedupKey: String {
        if rule == .official, let first = details["firstId"]?.stringValue,
            let severity = details["warning"]?["severity"]?.stringValue
        {
            // The key names the severity in lower case, however the warning spells it (v2 alerts: `severe`).
            let named = WarningSeverity(recorded: severity)?.rawValue ?? severity
            return OfficialAlerts.dedupKey(key: key, firstId: first, severity: named)
        }
        if rule == .nowcast, let at = details["at"]?.stringValue { return "\(key)|nowcast|\(at)" }
        if rule == .forecastChange, let date = details["date"]?.stringValue,
            let fetchedAt = details["fetchedAt"]?.stringValue
        {
            return "\(key)|forecast_change|\(date)|\(fetchedAt)"
        }
        return "\(key)|\(rule.rawValue)|\(localDate)"
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "rule": .string(rule.rawValue), "origin": .string(rule.origin), "key": .string(key),
            "place": place.json,
            "localDate": .string(localDate), "raisedAt": .string(raisedAt.description), "message": .string(message),
            "details": details,
        ]
        if let favoriteId { object["favoriteId"] = .string(favoriteId) }
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        guard let rule = try r.choice("rule", as: AlertRule.self) else {
            throw FieldError(path: "data.rule", problem: "is required")
        }
        self.init(
            id: try r.string("id"), rule: rule, key: try r.string("key"),
            place: try Place(json: r.members["place"] ?? .null, path: "data.place"),
            favoriteId: try r.optionalString("favoriteId"), localDate: try r.string("localDate"),
            raisedAt: try r.timestamp("raisedAt"), message: try r.string("message"),
            details: r.members["details"] ?? .object([:]))
    }
}

/// Alert settings and the alerts raised, most recent first.
package struct AlertState: StateSlice {
    /// How many raised alerts are kept for `alerts/list`.
    package static let capacity = 1000

    package internal(set) var settings = AlertSettings()
    package internal(set) var recent: [RaisedAlert] = []
    /// (place, rule, local date) keys already raised; bounded with `recent`'s horizon of a few days.
    package internal(set) var raised: Set<String> = []
    /// The keys of `raised` in the order they were raised, which is the order they are forgotten in.
    var raisedOrder: [String] = []
    package internal(set) var nextNumber: Int64 = 1
    /// `<key>|<date>` → the forecast of that local date the last `forecast_change` alert told of: what the
    /// rule compares the next forecasts with. Dates before the last alert's local date are forgotten.
    package internal(set) var forecastTold: [String: ForecastRevision] = [:]

    package init() {}

    package mutating func apply(_ event: DomainEvent) {
        switch event {
        case .alertsConfigured(let settings):
            self.settings = settings
        case .alertRaised(let alert):
            recent.insert(alert, at: 0)
            if recent.count > Self.capacity { recent.removeLast(recent.count - Self.capacity) }
            if raised.insert(alert.dedupKey).inserted { raisedOrder.append(alert.dedupKey) }
            if raisedOrder.count > 10 * Self.capacity {
                for key in raisedOrder.prefix(Self.capacity) { raised.remove(key) }
                raisedOrder.removeFirst(Self.capacity)
            }
            if alert.rule == .forecastChange, let told = ForecastChangeAlerts.told(by: alert) {
                forecastTold["\(alert.key)|\(told.day.date)"] = told
                forecastTold = forecastTold.filter { $0.value.day.date >= alert.localDate }
            }
            if alert.id.hasPrefix("alert-"), let number = Int64(alert.id.dropFirst(6)) {
                nextNumber = max(nextNumber, number + 1)
            }
        default:
            break
        }
    }

    package var json: JSONValue {
        .object([
            "settings": settings.json, "recent": .array(recent.map(\.json)),
            "raised": .array(raised.sorted().map { .string($0) }),
            "raisedOrder": .array(raisedOrder.map { .string($0) }),
            "nextNumber": .int(nextNumber),
            "forecastTold": .object(
                forecastTold.mapValues { told in
                    .object([
                        "fetchedAt": .string(told.fetchedAt.description), "day": told.day.json,
                    ])
                }),
        ])
    }
}
