import WeatherDomain
import WeatherEngine

/// `alerts/list` and `alerts/configure` (the feed, `alerts/subscribe`, is the connection's).
///
/// A reader that names its `units` (a system, as the weather methods take it) reads the alerts' messages and
/// figures in that system whole; else in the settings' units.
struct AlertsController: Controller {
    let alerts: any AlertsFacet

    var methods: [String: MethodHandler] {
        [
            "alerts/list": MethodHandler(params: ["limit", "cursor", "units"]) { [alerts] call in
                let page = try PageParams.read(call.params, defaultLimit: 100)
                let units = try call.params.choice("units", as: Units.self)
                return await alerts.listAlerts().map { $0.page(page, units: units) }
            },
            "alerts/configure": MethodHandler(
                changesState: true,
                params: ["dailySummary", "tempDropC", "severe", "official", "airQuality", "nowcast", "forecastChange"]
            ) { [alerts] call in
                try await alerts.configureAlerts(try Self.configuration(call.params), origin: call.origin).map {
                    $0.json
                }
            },
        ]
    }

    static func configuration(_ p: FieldReader) throws(FieldError) -> AlertConfiguration {
        var change = AlertConfiguration()
        if p.has("dailySummary") {
            let daily = try FieldReader(p.members["dailySummary"], path: "params.dailySummary")
            try daily.rejectUnknown(["enabled", "time"])
            change.dailySummaryEnabled = try daily.optionalBool("enabled")
            if let time = try daily.optionalString("time") {
                guard let value = AlertSettings.minutes(of: time) else {
                    throw FieldError(
                        path: "params.dailySummary.time", problem: "must be a local time HH:MM, e.g. 08:00")
                }
                change.dailySummaryMinutes = value
            }
        }
        change.tempDropC = try p.double("tempDropC", in: 0.1...100)
        change.severe = try p.optionalBool("severe")
        change.official = try p.optionalBool("official")
        change.nowcast = try p.optionalBool("nowcast")
        change.forecastChange = try p.optionalBool("forecastChange")
        if p.has("airQuality") {
            let airQuality = try FieldReader(p.members["airQuality"], path: "params.airQuality")
            try airQuality.rejectUnknown(["enabled", "level"])
            change.airQualityEnabled = try airQuality.optionalBool("enabled")
            change.airQualityLevel = try airQuality.choice("level", as: EuropeanAQILevel.self)
        }
        return change
    }
}
