/// One route of the JSON API under `/v1`: an HTTP method and a path, and the engine method it calls.
struct APIRoute: Sendable {
    /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE` (`HEAD` is answered as `GET`).
    let verb: String
    /// The segments after `v1`; one in braces (`{favorite}`) takes the request's segment as that param.
    let path: [String]
    /// The JSON-RPC method it calls, with the same params and errors.
    let method: String
    /// What it is for, in `/:help` and the docs.
    let meaning: String

    init(_ verb: String, _ path: String, _ method: String, _ meaning: String) {
        self.verb = verb
        self.path = path.split(separator: "/").map(String.init)
        self.method = method
        self.meaning = meaning
    }

    /// Whether it changes state (its verb is not `GET`): such a request needs an `Origin` of this host, if any.
    var changes: Bool { verb != "GET" }

    /// `/v1/...` as written in the table.
    var written: String { "\(verb) /v1/" + path.joined(separator: "/") }

    /// The params its path binds from `segments` (those after `v1`), or nil when it does not match them.
    func bind(_ segments: ArraySlice<String>) -> [String: String]? {
        guard segments.count == path.count else { return nil }
        var bound: [String: String] = [:]
        for (pattern, segment) in zip(path, segments) {
            if pattern.hasPrefix("{") {
                bound[String(pattern.dropFirst().dropLast())] = segment
            } else if pattern != segment {
                return nil
            }
        }
        return bound
    }

    /// Every route. Queries read the place as `weather/current` does (`city`, `lat` and `lon`, `favorite`, or
    /// none for the current location) from the query; changes take their params as a JSON body.
    static let all: [APIRoute] = [
        APIRoute("GET", "current", "weather/current", "current weather for a place"),
        APIRoute("GET", "forecast", "weather/forecast", "the forecast (?type=hourly|threeHourly|twiceDaily|daily)"),
        APIRoute("GET", "nowcast", "weather/nowcast", "precipitation in the next two hours"),
        APIRoute("GET", "warnings", "warnings/list", "official warnings in force"),
        APIRoute("GET", "air-quality", "weather/airQuality", "air quality now and by the hour"),
        APIRoute("GET", "history", "weather/history", "the past days (?from=&to=)"),
        APIRoute("GET", "climate", "weather/climate", "the normal and the records of a date"),
        APIRoute("GET", "forecast-changes", "weather/forecastChanges", "how the forecast of a date changed"),
        APIRoute("GET", "confidence", "weather/confidence", "the ensemble's spread"),
        APIRoute("GET", "compare-models", "weather/compareModels", "several models side by side"),
        APIRoute("GET", "accuracy", "weather/accuracy", "how good the forecasts have been here"),
        APIRoute("GET", "cities", "cities/search", "places by name (?query=)"),
        APIRoute("GET", "favorites", "favorites/list", "the favorites"),
        APIRoute("POST", "favorites", "favorites/add", "adds a favorite ({\"city\": …} or name, lat, lon)"),
        APIRoute("PATCH", "favorites/{favorite}", "favorites/update", "renames a favorite or sets its notify"),
        APIRoute("DELETE", "favorites/{favorite}", "favorites/remove", "removes a favorite"),
        APIRoute("GET", "location", "location/get", "the current location"),
        APIRoute("PUT", "location", "location/set", "sets it ({\"lat\": …, \"lon\": …} or {\"address\": …})"),
        APIRoute("DELETE", "location", "location/clear", "forgets it"),
        APIRoute("GET", "settings", "settings/get", "the units"),
        APIRoute("PATCH", "settings", "settings/set", "changes them ({\"units\": \"imperial\"}, …)"),
        APIRoute("GET", "alerts", "alerts/list", "the alerts raised"),
        APIRoute("PATCH", "alerts/rules", "alerts/configure", "changes the alert rules"),
        APIRoute("GET", "searches", "history/list", "the places looked up lately"),
        APIRoute("DELETE", "searches", "history/clear", "forgets them"),
        APIRoute("POST", "refresh", "refresh", "fetches again, ignoring freshness ({\"scope\": …} or a place)"),
        APIRoute("GET", "status", "service/status", "the daemon's status"),
    ]
}
