import WeatherDomain
import WeatherEngine

/// `warnings/list` and `weather/airQuality`: official warnings and air quality at a place.
struct OfficialController: Controller {
    let engine: Engine

    var methods: [String: MethodHandler] {
        [
            "warnings/list": MethodHandler(params: PlaceParams.names) { [engine] call in
                engine.warnings(try PlaceParams(call.params).place, origin: call.origin)
            },
            "weather/airQuality": MethodHandler(params: PlaceParams.names.union(["maxAgeSeconds"])) { [engine] call in
                let request = try PlaceParams(call.params)
                return engine.airQuality(request.place, maxAgeMs: request.maxAgeMs, origin: call.origin)
            },
        ]
    }
}
