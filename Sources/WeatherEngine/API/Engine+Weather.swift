import EventLog
import Providers
import WeatherDomain
import WeatherRuntime

/// Current weather at a place, for a reader of these units.
package struct CurrentWeather: Sendable {
    /// The report (its place named as `answerPlace` says) and where it came from.
    package var answer: FetchAnswer<CurrentReport>
    package var units: UnitChoice
}

/// A forecast at a place, for a reader of these units, and the part of it asked for.
package struct ForecastWeather: Sendable {
    /// The report (its place named as `answerPlace` says) and where it came from.
    package var answer: FetchAnswer<ForecastReport>
    package var units: UnitChoice
    /// When it was answered: what ended by then is past.
    package var now: Timestamp
    /// The days asked for (all when nil), how much of them, and the steps of which type.
    package var days: Int?
    package var detail: ForecastDetail
    package var type: ForecastType
    /// The 1991–2020 normal of each day's date, by local date, when the place's climate is already cached
    /// (`weather/climate`); empty otherwise. Reading it never calls the archive.
    package var normals: [String: Climate] = [:]
    /// The spread of the place's forecast when one fetched in the last day is cached (`weather/confidence`); nil
    /// otherwise. Reading it never calls the ensemble.
    package var spread: EnsembleSummary? = nil
}

/// The favorites with their latest cached current weather, for a map.
package struct FavoritesMap: Sendable {
    package var favorites: [Favorite]
    /// Each favorite's cached current weather (nil: none yet), in the order of `favorites`.
    package var weather: [Cached<CurrentReport>?]
    /// The reader's units.
    package var units: UnitChoice
}

extension Engine {
    /// Current weather at a place, from the cache when younger than `maxAgeMs` (else the TTL); in the system
    /// `units` whole when given, else in the settings' units (`units(_:)`); the place named as `answerPlace` says.
    /// What it records (a city's geocoding and history entry, the fetch) goes out as one append.
    package func current(_ place: PlaceQuery, units: Units?, maxAgeMs: Int64?, origin: Origin)
        -> Completion<CurrentWeather>
    {
        Completion {
            try await self.slices.committing { batch in
                let resolved = try await self.resolve(place, cause: origin.cause, batch: batch)
                var answer = try await self.fetcher.current(
                    at: resolved, maxAgeMs: maxAgeMs, cause: origin.cause, batch: batch)
                answer.value.place = await self.answerPlace(
                    for: place, resolved: resolved, reported: answer.value.place)
                return CurrentWeather(answer: answer, units: try await self.units(units))
            }
        }
    }

    /// The forecast at a place: `days` days (all when nil) with `detail`, its steps of `type`; the place named
    /// as `answerPlace` says. What it records goes out as one append, as for `current`.
    ///
    /// - Throws: `EngineError.unsupportedForecastType` when the provider cannot give `type` (hourly steps
    ///   from OpenWeatherMap), before anything is fetched, with the types it can give.
    package func forecast(
        _ place: PlaceQuery, units: Units?, maxAgeMs: Int64?, days: Int?, detail: ForecastDetail,
        type: ForecastType = .threeHourly, origin: Origin
    ) throws(EngineError) -> Completion<ForecastWeather> {
        let supported = forecastTypes
        guard supported.contains(type) else {
            throw .unsupportedForecastType(provider: fetcher.providerName, requested: type, supported: supported)
        }
        return Completion {
            let (answer, normals, resolved) = try await self.slices.committing { batch in
                let resolved = try await self.resolve(place, cause: origin.cause, batch: batch)
                var answer = try await self.fetcher.forecast(
                    at: resolved, maxAgeMs: maxAgeMs, cause: origin.cause, batch: batch)
                answer.value.place = await self.answerPlace(
                    for: place, resolved: resolved, reported: answer.value.place)
                let normals = await self.cachedClimates(at: resolved.key, dates: answer.value.daily.map(\.date))
                return (answer, normals, resolved)
            }
            let now = self.clock.timestamp()
            return ForecastWeather(
                answer: answer, units: try await self.units(units), now: now, days: days, detail: detail, type: type,
                normals: normals,
                spread: await self.cache.read { [model = self.configuration.ensembleModel] in
                    $0.confidence.spread(
                        carriedBy: answer.value, key: resolved.key, model: model, around: answer.fetchedAt)
                })
        }
    }

    /// The forecast types the provider can give: all but `hourly` when its forecast has no hourly steps.
    package var forecastTypes: [ForecastType] {
        ForecastType.allCases.filter { $0 != .hourly || fetcher.providerHasHourlyForecast }
    }

    /// City candidates for `query` (at least 3 characters), best first.
    package func searchCities(_ query: String, limit: Int, origin: Origin) throws(FieldError) -> Completion<[Place]> {
        let query = query.trimmingWhitespace
        guard query.count >= 3 else {
            throw FieldError(path: "params.query", problem: "must have at least 3 characters")
        }
        return Completion { try await self.fetcher.geocode(query, limit: limit, cause: origin.cause).value }
    }

    /// The favorites with their cached current weather, in the reader's units.
    package func mapFavorites() async -> Completion<FavoritesMap> {
        let barrier = await favorites.barrier()
        return Completion {
            await barrier?.settled()
            let items = await self.favorites.read { $0.items }
            let weather = await self.cache.read { cache in
                items.map { cache.current[Place.key(lat: $0.lat, lon: $0.lon)] }
            }
            return FavoritesMap(favorites: items, weather: weather, units: await self.readerUnits())
        }
    }

    /// Turns a place into coordinates: the client's own (rounded, so the events of the fetch do not
    /// record them exactly), geocoding a city (and recording it in the history), looking up a favorite
    /// by id or name, or taking the current location (already rounded when it was set).
    ///
    /// - Parameter batch: the request's batch, which takes a city's events (else they go out as one append now).
    func resolve(_ place: PlaceQuery, cause: String, batch: ChangeBatch? = nil) async throws -> Place {
        switch place {
        case .coordinates(let point):
            return Place.fromClient(lat: point.lat, lon: point.lon, precision: locationPrecision)
        case .favorite(let text):
            await favorites.barrier()?.settled()
            guard let favorite = await favorites.read({ $0.favorite(idOrName: text) }) else {
                throw DomainError.favoriteNotFound(text)
            }
            return Place(
                name: favorite.name, country: favorite.country, state: nil, lat: favorite.lat, lon: favorite.lon)
        case .currentLocation(let auto):
            let location = try await currentLocation(auto: auto ?? autoLocationDefault, cause: cause)
            return Place(name: location.name, country: nil, state: nil, lat: location.lat, lon: location.lon)
        case .city(let name):
            return try await lookUpCity(name, cause: cause, batch: batch)
        }
    }

    /// Geocodes a city name to its best candidate and records it in the search history (unless it is at its
    /// top already): in `batch`, or else in a batch of its own, appended as one before it returns.
    func lookUpCity(_ name: String, cause: String, batch: ChangeBatch? = nil) async throws -> Place {
        guard let batch else {
            return try await slices.committing { try await self.lookUpCity(name, cause: cause, batch: $0) }
        }
        let answer = try await fetcher.geocode(name, limit: 1, cause: cause, batch: batch)
        guard let place = answer.value.first else {
            throw DomainError.placeNotFound(name)
        }
        let entry = HistoryEntry(
            name: place.name ?? name, country: place.country, state: place.state, lat: place.lat, lon: place.lon,
            searchedAt: clock.timestamp())
        batch.add(history.part(cause: cause, corr: nil) { HistoryDecisions.record($0, entry) })
        return place
    }

    /// The cache key of a place's weather, for following its fetches; a city is geocoded (cached, audited).
    package func placeKey(of place: PlaceQuery, cause: String) async -> String? {
        switch place {
        case .coordinates(let point):
            return Place.key(lat: point.lat, lon: point.lon)
        case .favorite(let text):
            await favorites.barrier()?.settled()
            return await favorites.read { state in
                state.favorite(idOrName: text).map { Place.key(lat: $0.lat, lon: $0.lon) }
            }
        case .currentLocation(let auto):
            do {
                let here = try await currentLocation(auto: auto ?? autoLocationDefault, cause: cause)
                return Place.key(lat: here.lat, lon: here.lon)
            } catch {
                logger.info("cannot follow the weather of the current location: \(error)")
                return nil
            }
        case .city(let name):
            do {
                return try await lookUpCity(name, cause: cause).key
            } catch {
                logger.warning("cannot follow the weather of \(name): \(error)")
                return nil
            }
        }
    }

    /// Place names that complete `typed`: favorites whose id or name starts with it first, then, from 3
    /// characters on, the geocoder's candidates.
    package func completePlace(_ typed: String, cause: String) async throws -> [String] {
        let prefix = typed.trimmingWhitespace.lowercased()
        await favorites.barrier()?.settled()
        var values = await favorites.read { state in
            state.items.filter { prefix.isEmpty || $0.name.lowercased().hasPrefix(prefix) || $0.id.hasPrefix(prefix) }
                .map(\.name)
        }
        if prefix.count >= 3 {
            do {
                let candidates = try await fetcher.geocode(typed.trimmingWhitespace, limit: 5, cause: cause).value
                for candidate in candidates {
                    if let city = candidate.name, !values.contains(city) { values.append(city) }
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                logger.info("completion without city search: \(error)")
            }
        }
        return values
    }
}
