import WeatherDomain
import WeatherEngine

extension RefreshOutcome {
    /// How the answer names the place: `current`, the favorite's id, or another place's key (`lat,lon`).
    var label: String {
        switch target {
        case .current: "current"
        case .favorite(let id): id
        case .place: place.key
        }
    }

    /// `{place, lat, lon, ok, name?, error?}`: `error` is the stable kind of what went wrong.
    var json: JSONValue {
        var result: [String: JSONValue] = [
            "place": .string(label), "lat": .double(place.lat), "lon": .double(place.lon), "ok": .bool(failure == nil),
        ]
        if let name = place.name { result["name"] = .string(name) }
        if let failure { result["error"] = .string(failure) }
        return .object(result)
    }
}

extension RefreshReport {
    /// `refresh`'s answer: `{scope, results}`; `scope` is `place` when the refresh named one.
    var json: JSONValue {
        .object(["scope": .string(scope?.rawValue ?? "place"), "results": .array(results.map(\.json))])
    }
}
