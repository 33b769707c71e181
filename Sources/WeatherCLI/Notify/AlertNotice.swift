import WeatherDomain

/// How one alert is told: the desktop notification's summary, body, icon and urgency, and the hook's
/// environment. Made from the alert as the reader's units render it.
struct AlertNotice: Sendable, Equatable {
    var summary: String
    var body: String
    /// A freedesktop icon-theme name (`weather-storm`).
    var icon: String
    /// `Minor`, `Moderate`, `Severe` or `Extreme`: the warning's own, else the rule's (see `severity(of:)`).
    var severity: String
    var rule: String
    var place: String

    /// The desktop urgency of `severity`: low (0), normal (1) or critical (2).
    var urgency: UInt8 {
        switch severity {
        case "Minor": 0
        case "Severe", "Extreme": 2
        default: 1
        }
    }

    /// The notice of `alert`, the JSON of a raised alert (`RaisedAlert.json(in:)`).
    init(_ alert: JSONValue) {
        let rule = alert["rule"]?.stringValue ?? ""
        let details = alert["details"] ?? .null
        let place = alert["place"]?["name"]?.stringValue ?? alert["key"]?.stringValue ?? ""
        self.rule = rule
        self.place = place
        body = alert["message"]?.stringValue ?? ""
        severity = Self.severity(of: alert)
        switch rule {
        case AlertRule.official.rawValue:
            let warning = details["warning"] ?? .null
            summary = (warning["event"]?.stringValue ?? "Official warning") + " (\(place))"
            icon = "weather-severe-alert"
        case AlertRule.tempDrop.rawValue:
            summary = "Temperature drop (\(place))"
            icon = "weather-few-clouds"
        case AlertRule.airQuality.rawValue:
            summary = "Air quality (\(place))"
            icon = "weather-fog"
        case AlertRule.dailySummary.rawValue:
            summary = "Today (\(place))"
            icon = Self.icon(of: details["condition"])
        case AlertRule.nowcast.rawValue:
            let snow = ["snow", "sleet"].contains(details["precipitation"]?.stringValue ?? "")
            summary = "Next hour (\(place))"
            icon = snow ? "weather-snow" : "weather-showers"
        case AlertRule.forecastChange.rawValue:
            let date = details["date"]?.stringValue ?? ""
            summary = "Forecast changed: \(ForecastChanges.weekday(of: date) ?? date) (\(place))"
            icon = Self.icon(of: details["condition"])
        default:
            summary = "Severe weather (\(place))"
            icon = Self.icon(of: details["condition"])
        }
    }

    /// An official warning's own severity (as CAP spells it, `Severe`; alerts raised before v3 kept it in lower
    /// case, read the same; an unknown one is told as Moderate); `severe` weather is Severe, a temperature drop and poor air Moderate, the daily summary and a
    /// changed forecast Minor.
    static func severity(of alert: JSONValue) -> String {
        switch alert["rule"]?.stringValue {
        case AlertRule.official.rawValue:
            switch WarningSeverity(cap: alert["details"]?["warning"]?["severity"]?.stringValue ?? "") {
            case .unknown: WarningSeverity.moderate.cap
            case let severity: severity.cap
            }
        case AlertRule.severe.rawValue: "Severe"
        case AlertRule.dailySummary.rawValue, AlertRule.forecastChange.rawValue: "Minor"
        default: "Moderate"
        }
    }

    /// The icon-theme name of a condition's theme.
    static func icon(of condition: JSONValue?) -> String {
        guard let condition, let scheme = condition["scheme"]?.stringValue, let code = condition["code"]?.intValue
        else { return "weather-overcast" }
        switch Condition(scheme: scheme, code: code, text: "").theme {
        case .sunny: return "weather-clear"
        case .cloudy: return "weather-overcast"
        case .rainy: return "weather-showers"
        case .snowy: return "weather-snow"
        case .stormy: return "weather-storm"
        case .foggy: return "weather-fog"
        }
    }

    /// The hook's environment.
    var environment: [String: String] {
        [
            "WEATHERD_ALERT_RULE": rule, "WEATHERD_SEVERITY": severity, "WEATHERD_PLACE": place,
            "WEATHERD_TEXT": body,
        ]
    }
}
