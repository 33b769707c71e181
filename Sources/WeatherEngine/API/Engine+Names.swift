import WeatherDomain

extension Engine {
    /// The place a weather answer names, chosen when it is answered, never taken from the cache (which holds
    /// only what the provider said): a favorite's current name, the geocoder's candidate for a city, the
    /// current location's name when it was set by address, and otherwise the nearest known name
    /// (`PlaceNaming`).
    ///
    /// - Parameters:
    ///   - query: what the client asked for.
    ///   - resolved: the place the weather was fetched for.
    ///   - reported: the place as the provider described it in the report.
    func answerPlace(for query: PlaceQuery, resolved: Place, reported: Place) async -> Place {
        switch query {
        case .favorite, .city:
            return resolved
        case .currentLocation where resolved.name != nil:
            return resolved
        case .currentLocation:
            return await nearestName(resolved, near: (resolved.lat, resolved.lon), reported: reported)
        case .coordinates(let point):
            return await nearestName(resolved, near: (point.lat, point.lon), reported: reported)
        }
    }

    /// `resolved` named after the nearest favorite, searched or geocoded place, or the provider's name.
    private func nearestName(_ resolved: Place, near point: (lat: Double, lon: Double), reported: Place) async
        -> Place
    {
        await favorites.barrier()?.settled()
        let favorites = await self.favorites.read { $0 }
        var geocoded = await history.read { state in
            state.entries.map { Place(name: $0.name, country: $0.country, state: $0.state, lat: $0.lat, lon: $0.lon) }
        }
        geocoded += await cache.read { cache in cache.geocodes.values.flatMap(\.value) }
        return PlaceNaming.name(resolved, near: point, favorites: favorites, geocoded: geocoded, reported: reported)
    }
}
