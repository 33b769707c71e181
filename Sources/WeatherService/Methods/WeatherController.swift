import WeatherDomain
import WeatherEngine

/// `weather/*`, `cities/search` and `map/*`.
struct WeatherController: Controller {
    let engine: Engine

    var methods: [String: MethodHandler] {
        let placeParams = PlaceParams.names.union(["units", "maxAgeSeconds"])
        return [
            "weather/current": MethodHandler(params: placeParams) { [engine] call in
                let request = try PlaceParams(call.params)
                return engine.current(
                    request.place, units: request.units, maxAgeMs: request.maxAgeMs, origin: call.origin)
            },
            "weather/forecast": MethodHandler(params: placeParams.union(["days", "detail", "type"])) { [engine] call in
                let request = try PlaceParams(call.params)
                let shape = try PlaceParams.forecastShape(call.params, defaultDetail: .full)
                return try engine.forecast(
                    request.place, units: request.units, maxAgeMs: request.maxAgeMs, days: shape.days,
                    detail: shape.detail, type: shape.type, origin: call.origin)
            },
            "cities/search": MethodHandler(params: ["query", "limit"]) { [engine] call in
                let query = try call.params.string("query")
                let limit = Int(try call.params.int("limit", in: 1...5) ?? 5)
                return try engine.searchCities(query, limit: limit, origin: call.origin)
            },
            "map/favorites": MethodHandler { [engine] _ in await engine.mapFavorites() },
            "map/layers": MethodHandler { [engine] _ in Completion { engine.mapLayers } },
        ]
    }
}
