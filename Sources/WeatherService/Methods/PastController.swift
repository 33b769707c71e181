import WeatherDomain
import WeatherEngine

/// `weather/history`, `weather/climate` and `weather/forecastChanges`: the past at a place, what is normal
/// there, and how its forecast moved.
struct PastController: Controller {
    let weather: any WeatherFacet

    var methods: [String: MethodHandler] {
        [
            "weather/history": MethodHandler(params: PlaceParams.names.union(["from", "to", "hourly", "units"])) {
                [weather] call in
                let request = try PlaceParams(call.params)
                let from = try Self.date(call.params, "from")
                let to = try Self.date(call.params, "to")
                let hourly = try call.params.optionalBool("hourly") ?? false
                return weather.history(
                    request.place, from: from, to: to, hourly: hourly, units: request.units, origin: call.origin
                ).map { $0.json }
            },
            "weather/climate": MethodHandler(params: PlaceParams.names.union(["date", "units"])) { [weather] call in
                let request = try PlaceParams(call.params)
                let date = try call.params.optionalString("date")
                return weather.climate(request.place, date: date, units: request.units, origin: call.origin).map {
                    $0.json
                }
            },
            "weather/forecastChanges": MethodHandler(params: PlaceParams.names.union(["date", "days", "units"])) {
                [weather] call in
                let request = try PlaceParams(call.params)
                let date = try call.params.optionalString("date")
                let days = try call.params.optionalInt("days").map { Int(clamping: $0) }
                return weather.forecastChanges(
                    request.place, date: date, days: days, units: request.units, origin: call.origin
                ).map { $0.json }
            },
        ]
    }

    /// A required `YYYY-MM-DD` member; the engine checks its range.
    private static func date(_ params: FieldReader, _ key: String) throws(FieldError) -> String {
        guard let text = try params.optionalString(key) else {
            throw FieldError(path: "\(params.path).\(key)", problem: "is required (a date such as 2025-11-26)")
        }
        return text
    }
}
