import WeatherDomain
import WeatherEngine

/// `weather/*`, `cities/search` and `map/*`.
struct WeatherController: Controller {
    let weather: any WeatherFacet

    var methods: [String: MethodHandler] {
        let placeParams = PlaceParams.names.union(["units", "maxAgeSeconds"])
        return [
            "weather/current": MethodHandler(params: placeParams) { [weather] call in
                let request = try PlaceParams(call.params)
                return weather.current(
                    request.place, units: request.units, maxAgeMs: request.maxAgeMs, origin: call.origin
                ).map { $0.json }
            },
            "weather/forecast": MethodHandler(params: placeParams.union(["days", "detail", "type"])) { [weather] call in
                let request = try PlaceParams(call.params)
                let shape = try PlaceParams.forecastShape(call.params, defaultDetail: .full)
                return try weather.forecast(
                    request.place, units: request.units, maxAgeMs: request.maxAgeMs, days: shape.days,
                    detail: shape.detail, type: shape.type, origin: call.origin
                ).map { $0.json }
            },
            "cities/search": MethodHandler(params: ["query", "limit"]) { [weather] call in
                let query = try call.params.string("query")
                let limit = Int(try call.params.int("limit", in: 1...5) ?? 5)
                return try weather.searchCities(query, limit: limit, origin: call.origin).map(candidatesJSON)
            },
            "map/favorites": MethodHandler { [weather] _ in await weather.mapFavorites().map { $0.json } },
            "map/layers": MethodHandler { _ in Completion { MapFeatures.layers } },
        ]
    }
}
