import WeatherDomain
import WeatherEngine

/// `warnings/list`, `weather/airQuality` and `weather/nowcast`: official warnings, air quality and the next
/// minutes' precipitation at a place.
struct OfficialController: Controller {
    let weather: any WeatherFacet

    var methods: [String: MethodHandler] {
        [
            "warnings/list": MethodHandler(params: PlaceParams.names) { [weather] call in
                weather.warnings(try PlaceParams(call.params).place, origin: call.origin).map { $0.json }
            },
            "weather/airQuality": MethodHandler(params: PlaceParams.names.union(["maxAgeSeconds"])) { [weather] call in
                let request = try PlaceParams(call.params)
                return weather.airQuality(request.place, maxAgeMs: request.maxAgeMs, origin: call.origin).map {
                    $0.json
                }
            },
            "weather/nowcast": MethodHandler(params: PlaceParams.names.union(["units"])) { [weather] call in
                let request = try PlaceParams(call.params)
                return weather.nowcast(request.place, units: request.units, origin: call.origin).map { $0.json }
            },
        ]
    }
}
