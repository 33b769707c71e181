import WeatherDomain
import WeatherRuntime

extension Engine {
    /// Adds a favorite. A city is geocoded first (recording the history); the geocoding call may take
    /// seconds, so it runs in the completion, and such an add is ordered among other changes by when
    /// its geocoding finished: it is decided then, and goes out in one append with the geocoding's events.
    package func addFavorite(_ favorite: NewFavorite, origin: Origin) async throws -> Completion<Favorite?> {
        switch favorite {
        case .city(let city):
            return Completion {
                let added = try await self.slices.committing { batch in
                    let place = try await self.lookUpCity(city, cause: origin.cause, batch: batch)
                    let now = self.clock.timestamp()
                    return batch.add(
                        self.favorites.part(cause: origin.cause, corr: origin.corr) { state in
                            try self.decideAdd(
                                state, name: place.name ?? city, lat: place.lat, lon: place.lon,
                                country: place.country, now: now)
                        })
                }
                return Self.added(try await added.committed().last?.event)
            }
        case .place(let name, let point, let country):
            let now = clock.timestamp()
            return try await favorites.change(origin) { state in
                try self.decideAdd(state, name: name, lat: point.lat, lon: point.lon, country: country, now: now)
            } answer: { event in
                if case .favoriteAdded(let favorite) = event { favorite } else { nil }
            } unchanged: { _ in
                nil
            }
        }
    }

    private func decideAdd(
        _ state: FavoritesState, name: String, lat: Double, lon: Double, country: String?, now: Timestamp
    ) throws -> [DomainEvent] {
        try FavoritesDecisions.add(
            state, name: name, country: country, lat: lat, lon: lon, now: now, maxCount: maxFavorites)
    }

    /// The favorite an add by city answers: the one it added (nil when it added none).
    private static func added(_ event: DomainEvent?) -> Favorite? {
        if case .favoriteAdded(let favorite) = event { favorite } else { nil }
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
