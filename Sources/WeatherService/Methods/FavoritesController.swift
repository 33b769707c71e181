import WeatherDomain
import WeatherEngine

/// `favorites/*` and `history/*`.
struct FavoritesController: Controller {
    let favorites: any FavoritesFacet

    var methods: [String: MethodHandler] {
        [
            "favorites/add": MethodHandler(changesState: true, params: ["name", "lat", "lon", "country", "city"]) {
                [favorites] call in
                try await favorites.addFavorite(try Self.newFavorite(call.params), origin: call.origin).map(
                    favoriteJSON)
            },
            "favorites/remove": MethodHandler(changesState: true, params: ["id", "favorite"]) { [favorites] call in
                try await favorites.removeFavorite(try Self.favoriteRef(call.params), origin: call.origin).map(
                    favoriteJSON)
            },
            "favorites/update": MethodHandler(changesState: true, params: ["id", "favorite", "name", "notify"]) {
                [favorites] call in
                let p = call.params
                return try await favorites.updateFavorite(
                    try Self.favoriteRef(p), name: try p.nonEmptyString("name"), notify: try p.optionalBool("notify"),
                    origin: call.origin
                ).map(favoriteJSON)
            },
            "favorites/list": MethodHandler(params: ["withWeather", "limit", "cursor"]) { [favorites] call in
                _ = try call.params.optionalBool("withWeather")
                let page = try PageParams.read(call.params, defaultLimit: 100)
                return await favorites.listFavorites().map { $0.page(page) }
            },
            "history/list": MethodHandler(params: ["limit", "cursor"]) { [favorites] call in
                let page = try PageParams.read(call.params, defaultLimit: Int64(HistoryState.capacity))
                return await favorites.listHistory().map { $0.page(page) }
            },
            "history/clear": MethodHandler(changesState: true) { [favorites] call in
                try await favorites.clearHistory(origin: call.origin).map(clearedJSON)
            },
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
        guard let point = try p.coordinates() else {
            throw FieldError(path: "\(p.path).lat", problem: "is required (with lon)")
        }
        return .place(name: name, at: point, country: try p.nonEmptyString("country", maxLength: 3))
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
