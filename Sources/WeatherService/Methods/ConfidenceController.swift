import WeatherDomain
import WeatherEngine

/// `weather/confidence`, `weather/compareModels` and `weather/accuracy`: how sure the forecast at a place is, how
/// the models agree there, and how good the forecasts weatherd fetched for it have been.
struct ConfidenceController: Controller {
    let weather: any WeatherFacet

    var methods: [String: MethodHandler] {
        [
            "weather/confidence": MethodHandler(params: PlaceParams.names.union(["days", "units"])) {
                [weather] call in
                let request = try PlaceParams(call.params)
                let days = try call.params.optionalInt("days").map { Int(clamping: $0) }
                return weather.confidence(request.place, days: days, units: request.units, origin: call.origin).map {
                    $0.json
                }
            },
            "weather/compareModels": MethodHandler(params: PlaceParams.names.union(["days", "models", "units"])) {
                [weather] call in
                let request = try PlaceParams(call.params)
                let days = try call.params.optionalInt("days").map { Int(clamping: $0) }
                let models = try call.params.optionalStrings("models")
                return weather.compareModels(
                    request.place, models: models, days: days, units: request.units, origin: call.origin
                ).map { $0.json }
            },
            "weather/accuracy": MethodHandler(params: PlaceParams.names.union(["units"])) { [weather] call in
                let request = try PlaceParams(call.params)
                return weather.accuracy(request.place, units: request.units, origin: call.origin).map { $0.json }
            },
        ]
    }
}
