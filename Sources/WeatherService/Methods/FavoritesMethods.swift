import WeatherDomain

extension ServiceContext {
    /// `favorites/*` and `history/*`.
    var favoritesMethods: [String: MethodHandler] {
        [
            "favorites/add": MethodHandler(changesState: true, params: ["name", "lat", "lon", "country", "city"]) {
                call in
                let p = call.params
                if let city = try p.nonEmptyString("city") {
                    guard !p.has("name"), !p.has("lat"), !p.has("lon") else {
                        throw FieldError(path: "params", problem: "must give either city, or name with lat and lon")
                    }
                    return { try await addCity(city, call: call) }
                }
                guard let name = try p.nonEmptyString("name") else {
                    throw FieldError(path: "params.name", problem: "is required (with lat and lon)")
                }
                guard let lat = try p.double("lat", in: -90...90) else {
                    throw FieldError(path: "params.lat", problem: "is required")
                }
                guard let lon = try p.double("lon", in: -180...180) else {
                    throw FieldError(path: "params.lon", problem: "is required")
                }
                let country = try p.nonEmptyString("country", maxLength: 3)
                let now = clock.now()
                let maxCount = maxFavorites
                return try await favorites.change(call) { state in
                    try FavoritesDecisions.add(
                        state, name: name, country: country, lat: lat, lon: lon, now: now, maxCount: maxCount)
                } unchanged: { _ in
                    .null
                }
            },
            "favorites/remove": MethodHandler(changesState: true, params: ["id"]) { call in
                let id = try call.params.string("id")
                return try await favorites.change(call) { state in
                    try FavoritesDecisions.remove(state, id: id)
                } unchanged: { _ in
                    .null
                }
            },
            "favorites/update": MethodHandler(changesState: true, params: ["id", "name", "notify"]) { call in
                let p = call.params
                let id = try p.string("id")
                let name = try p.nonEmptyString("name")
                let notify = try p.optionalBool("notify")
                return try await favorites.change(call) { state in
                    try FavoritesDecisions.update(state, id: id, name: name, notify: notify)
                } unchanged: { state in
                    state.favorite(id: id)?.json ?? .null
                }
            },
            "favorites/list": MethodHandler(params: ["withWeather", "limit", "cursor"]) { call in
                _ = try call.params.optionalBool("withWeather")
                let window = try Paging.window(call.params, defaultLimit: 100)
                return await favorites.query { state in
                    Paging.page(count: state.count, name: "favorites", limit: window.limit, offset: window.offset) {
                        state.favorite(at: $0)?.json ?? .null
                    }
                }
            },
            "history/list": MethodHandler(params: ["limit", "cursor"]) { call in
                let window = try Paging.window(call.params, defaultLimit: Int64(HistoryState.capacity))
                return await history.query { state in
                    Paging.page(state.entries.map(\.json), name: "history", limit: window.limit, offset: window.offset)
                }
            },
            "history/clear": MethodHandler(changesState: true) { call in
                try await history.change(call) { state in
                    HistoryDecisions.clear(state)
                } unchanged: { _ in
                    .object(["history": .array([]), "cleared": .int(0)])
                }
            },
        ]
    }

    /// `favorites/add` by city: geocode (recording the history), then add the geocoder's place.
    ///
    /// The geocoding call may take seconds, so it runs in the completion, not in the dispatch loop;
    /// such an add is therefore ordered among other changes by when its geocoding finished.
    func addCity(_ city: String, call: MethodCall) async throws -> JSONValue {
        let place = try await lookUpCity(city, cause: call.cause)
        let now = clock.now()
        let maxCount = maxFavorites
        let completion = try await favorites.change(call) { state in
            try FavoritesDecisions.add(
                state, name: place.name ?? city, country: place.country, lat: place.lat, lon: place.lon, now: now,
                maxCount: maxCount)
        } unchanged: { _ in
            .null
        }
        return try await completion()
    }

    /// `settings/*` and `location/get`.
    var settingsMethods: [String: MethodHandler] {
        [
            "settings/get": MethodHandler { _ in await settings.query { $0.json } },
            "settings/set": MethodHandler(changesState: true, params: ["units"]) { call in
                guard let units = try call.params.choice("units", as: Units.self) else {
                    throw FieldError(path: "params.units", problem: "is required")
                }
                return try await settings.change(call) { state in
                    SettingsDecisions.set(state, units: units)
                } unchanged: {
                    $0.json
                }
            },
            "location/get": MethodHandler { _ in
                await location.query { state in
                    guard let current = state.current else { throw DomainError.noLocation }
                    return current.json
                }
            },
        ]
    }
}
