import WeatherDomain
import WeatherRuntime

extension Engine {
    /// Adds a favorite. A city is geocoded first (recording the history); the geocoding call may take
    /// seconds, so it runs in the completion, and such an add is ordered among other changes by when
    /// its geocoding finished.
    package func addFavorite(_ favorite: NewFavorite, origin: Origin) async throws -> Completion<Favorite?> {
        switch favorite {
        case .city(let city):
            return Completion {
                let place = try await self.lookUpCity(city, cause: origin.cause)
                return try await self.addFavorite(
                    name: place.name ?? city, lat: place.lat, lon: place.lon, country: place.country, origin: origin)()
            }
        case .place(let name, let point, let country):
            return try await addFavorite(name: name, lat: point.lat, lon: point.lon, country: country, origin: origin)
        }
    }

    private func addFavorite(
        name: String, lat: Double, lon: Double, country: String?, origin: Origin
    ) async throws -> Completion<Favorite?> {
        let now = clock.timestamp()
        let maxCount = maxFavorites
        return try await favorites.change(origin) { state in
            try FavoritesDecisions.add(
                state, name: name, country: country, lat: lat, lon: lon, now: now, maxCount: maxCount)
        } answer: { event in
            if case .favoriteAdded(let favorite) = event { favorite } else { nil }
        } unchanged: { _ in
            nil
        }
    }

    /// Removes a favorite named by its id or, failing that, its name; decided now, on the projected
    /// state, so a change sent after it is decided after it.
    package func removeFavorite(_ idOrName: String, origin: Origin) async throws -> Completion<Favorite?> {
        try await favorites.change(origin) { state in
            try FavoritesDecisions.remove(state, id: state.favorite(idOrName: idOrName)?.id ?? idOrName)
        } answer: { event in
            if case .favoriteRemoved(let favorite) = event { favorite } else { nil }
        } unchanged: { _ in
            nil
        }
    }

    /// Renames a favorite named by its id or, failing that, its name, or turns its alerts on or off.
    package func updateFavorite(
        _ idOrName: String, name: String?, notify: Bool?, origin: Origin
    ) async throws -> Completion<Favorite?> {
        try await favorites.change(origin) { state in
            try FavoritesDecisions.update(
                state, id: state.favorite(idOrName: idOrName)?.id ?? idOrName, name: name, notify: notify)
        } answer: { event in
            if case .favoriteUpdated(let update) = event { update.favorite } else { nil }
        } unchanged: { state in
            state.favorite(idOrName: idOrName)
        }
    }

    /// The favorites, most recent first, once every change submitted before it is durable.
    package func listFavorites() async -> Completion<[Favorite]> {
        await favorites.query { $0.items }
    }

    /// Every favorite, most recent first, once every change submitted before it is durable.
    package func allFavorites() async -> [Favorite] {
        await favorites.barrier()?.settled()
        return await favorites.read { $0.items }
    }

    /// When the current weather of each favorite was last fetched (nil: never).
    package func currentFetchedAt(_ items: [Favorite]) async -> [Timestamp?] {
        await cache.read { cache in items.map { cache.current[Place.key(lat: $0.lat, lon: $0.lon)]?.fetchedAt } }
    }

    /// The search history, most recent first.
    package func listHistory() async -> Completion<[HistoryEntry]> {
        await history.query { $0.entries }
    }

    /// Clears the search history; answers how many entries it held.
    package func clearHistory(origin: Origin) async throws -> Completion<Int64> {
        try await history.change(origin) { state in
            HistoryDecisions.clear(state)
        } answer: { event in
            if case .historyCleared(let count) = event { count } else { nil }
        } unchanged: { _ in
            0
        }
    }

    /// Clears the current location: the location it cleared, or nil when none was set (nothing is written).
    package func clearLocation(origin: Origin) async throws -> Completion<Location?> {
        try await location.change(origin) { state in
            LocationDecisions.clear(state)
        } answer: { event in
            if case .locationCleared(let cleared) = event { .some(cleared) } else { nil }
        } unchanged: { _ in
            nil
        }
    }
}

extension Engine {
    /// The favorite with this id or, failing that, this name (case-insensitive), once every change
    /// submitted before it is durable.
    package func favorite(idOrName text: String) async -> Favorite? {
        await favorites.barrier()?.settled()
        return await favorites.read { $0.favorite(idOrName: text) }
    }
}
