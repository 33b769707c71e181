import WeatherDomain
import WeatherEngine

/// A page of the alerts raised and the official warnings in force, as MCP's `get_alerts` answers them.
struct AlertsOverview: Sendable, Equatable {
    /// The page of `alerts/list`: `{alerts, nextCursor?}`.
    var page: JSONValue
    var inForce: WarningsInForce

    /// The page with `warnings`, the places with alerts on and their warnings in force.
    var json: JSONValue {
        guard case .object(var object) = page else { return page }
        object["warnings"] = inForce.json["places"] ?? []
        return .object(object)
    }

    /// One line for people: how many alerts the page holds (how many official), then the warnings in force.
    var summary: String {
        let alerts = page["alerts"]?.arrayValue ?? []
        let official = alerts.filter { $0["origin"] == "official" }.count
        return "\(alerts.count) alert(s) on this page, \(official) of them official warnings. \(inForce.summary)"
    }
}
