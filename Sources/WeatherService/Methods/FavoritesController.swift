import WeatherDomain
import WeatherEngine

/// `favorites/*`, `history/*` and `location/get`.
struct FavoritesController: Controller {
    let engine: Engine

    var methods: [String: MethodHandler] {
        [
            "favorites/add": MethodHandler(changesState: true, params: ["name", "lat", "lon", "country", "city"]) {
                [engine] call in
                try await engine.addFavorite(try Self.newFavorite(call.params), origin: call.origin)
            },
            "favorites/remove": MethodHandler(changesState: true, params: ["id", "favorite"]) { [engine] call in
                try await engine.removeFavorite(try Self.favoriteRef(call.params), origin: call.origin)
            },
            "favorites/update": MethodHandler(changesState: true, params: ["id", "favorite", "name", "notify"]) {
                [engine] call in
                let p = call.params
                return try await engine.updateFavorite(
                    try Self.favoriteRef(p), name: try p.nonEmptyString("name"), notify: try p.optionalBool("notify"),
                    origin: call.origin)
            },
            "favorites/list": MethodHandler(params: ["withWeather", "limit", "cursor"]) { [engine] call in
                _ = try call.params.optionalBool("withWeather")
                return await engine.listFavorites(try PageParams.read(call.params, defaultLimit: 100))
            },
            "history/list": MethodHandler(params: ["limit", "cursor"]) { [engine] call in
                await engine.listHistory(
                    try PageParams.read(call.params, defaultLimit: Int64(HistoryState.capacity)))
            },
            "history/clear": MethodHandler(changesState: true) { [engine] call in
                try await engine.clearHistory(origin: call.origin)
            },
            "location/get": MethodHandler { [engine] _ in await engine.getLocation() },
        ]
    }

    /// `favorites/add`'s params: `city`, or `name` with `lat` and `lon` (and `country`).
    static func newFavorite(_ p: FieldReader) throws(FieldError) -> NewFavorite {
        if let city = try p.nonEmptyString("city") {
            guard !p.has("name"), !p.has("lat"), !p.has("lon") else {
                throw FieldError(path: p.path, problem: "must give either city, or name with lat and lon")
            }
            return .city(city)
        }
        guard let name = try p.nonEmptyString("name") else {
            throw FieldError(path: "\(p.path).name", problem: "is required (with lat and lon)")
        }
        guard let lat = try p.double("lat", in: -90...90) else {
            throw FieldError(path: "\(p.path).lat", problem: "is required")
        }
        guard let lon = try p.double("lon", in: -180...180) else {
            throw FieldError(path: "\(p.path).lon", problem: "is required")
        }
        return .place(name: name, lat: lat, lon: lon, country: try p.nonEmptyString("country", maxLength: 3))
    }

    /// The favorite a removal names: `favorite` (an id or a name) or `id`.
    static func favoriteRef(_ p: FieldReader) throws(FieldError) -> String {
        let byID = try p.nonEmptyString("id")
        let byEither = try p.nonEmptyString("favorite")
        switch (byID, byEither) {
        case (let id?, nil): return id
        case (nil, let text?): return text
        case (nil, nil): throw FieldError(path: "\(p.path).id", problem: "is required (or favorite: an id or a name)")
        default: throw FieldError(path: p.path, problem: "must give either id or favorite, not both")
        }
    }
}
