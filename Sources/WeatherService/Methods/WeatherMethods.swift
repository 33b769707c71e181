import EventLog
import Providers
import WeatherDomain

extension ServiceContext {
    /// `weather/*`, `cities/search` and `map/*`.
    var weatherMethods: [String: MethodHandler] {
        let placeParams: Set<String> = ["city", "lat", "lon", "favoriteId", "units", "maxAgeSeconds"]
        return [
            "weather/current": MethodHandler(params: placeParams) { call in
                let request = try PlaceRequest(call.params)
                return {
                    let place = try await resolve(request, cause: call.cause)
                    let answer = try await fetcher.current(at: place, maxAgeMs: request.maxAgeMs, cause: call.cause)
                    return WeatherFormatting.current(answer, units: try await units(request))
                }
            },
            "weather/forecast": MethodHandler(params: placeParams) { call in
                let request = try PlaceRequest(call.params)
                return {
                    let place = try await resolve(request, cause: call.cause)
                    let answer = try await fetcher.forecast(at: place, maxAgeMs: request.maxAgeMs, cause: call.cause)
                    return WeatherFormatting.forecast(answer, units: try await units(request), now: clock.now())
                }
            },
            "cities/search": MethodHandler(params: ["query", "limit"]) { call in
                let query = try call.params.string("query").trimmingWhitespace
                guard query.count >= 3 else {
                    throw FieldError(path: "params.query", problem: "must have at least 3 characters")
                }
                let limit = Int(try call.params.int("limit", in: 1...5) ?? 5)
                return {
                    let answer = try await fetcher.geocode(query, limit: limit, cause: call.cause)
                    return .object(["candidates": .array(answer.value.map(\.json))])
                }
            },
            "map/favorites": MethodHandler { _ in
                let barrier = await favorites.barrier()
                return {
                    await barrier?.settled()
                    let items = await favorites.read { $0.items }
                    let weather = await cache.read { cache in
                        items.map { cache.current[Place.key(lat: $0.lat, lon: $0.lon)] }
                    }
                    let units = await settings.read { $0.units }
                    return MapFeatures.collection(items, weather: weather, units: units)
                }
            },
            "map/layers": MethodHandler { _ in { MapFeatures.layers } },
        ]
    }

    /// The units of an answer: the request's, else the settings'.
    func units(_ request: PlaceRequest) async throws -> Units {
        if let units = request.units { return units }
        return await settings.read { $0.units }
    }

    /// Turns a place request into coordinates: the client's own (rounded, so the events of the fetch do not
    /// record them exactly), geocoding a city (and recording it in the history), looking up a favorite,
    /// or taking the current location (already rounded when it was set).
    func resolve(_ request: PlaceRequest, cause: String) async throws -> Place {
        switch request.form {
        case .coordinates(let lat, let lon):
            return Place.fromClient(lat: lat, lon: lon, precision: locationPrecision)
        case .favorite(let id):
            guard let favorite = await favorites.read({ $0.favorite(id: id) }) else {
                throw DomainError.favoriteNotFound(id)
            }
            return Place(
                name: favorite.name, country: favorite.country, state: nil, lat: favorite.lat, lon: favorite.lon)
        case .currentLocation:
            guard let location = await location.read({ $0.current }) else { throw DomainError.noLocation }
            return Place(name: location.name, country: nil, state: nil, lat: location.lat, lon: location.lon)
        case .city(let name):
            return try await lookUpCity(name, cause: cause)
        }
    }

    /// Geocodes a city name to its best candidate and records it in the search history.
    func lookUpCity(_ name: String, cause: String) async throws -> Place {
        let answer = try await fetcher.geocode(name, limit: 1, cause: cause)
        guard let place = answer.value.first else {
            throw DomainError.placeNotFound(name)
        }
        let entry = HistoryEntry(
            name: place.name ?? name, country: place.country, state: place.state, lat: place.lat, lon: place.lon,
            searchedAt: clock.now())
        let submission = try await history.submit(cause: cause, corr: nil) { _ in [.historyRecorded(entry)] }
        _ = try await history.commit(submission)
        return place
    }
}

/// Where a weather request is for: exactly one of `city`, `lat`+`lon`, `favoriteId`, or none.
struct PlaceRequest: Sendable {
    enum Form: Sendable {
        case city(String)
        case coordinates(Double, Double)
        case favorite(String)
        case currentLocation
    }

    var form: Form
    var units: Units?
    var maxAgeMs: Int64?

    init(_ params: FieldReader) throws(FieldError) {
        let city = try params.nonEmptyString("city")
        let lat = try params.double("lat", in: -90...90)
        let lon = try params.double("lon", in: -180...180)
        let favoriteId = try params.nonEmptyString("favoriteId")
        let forms = [city != nil, lat != nil || lon != nil, favoriteId != nil].filter { $0 }.count
        guard forms <= 1 else {
            throw FieldError(path: "params", problem: "must name one place: city, lat and lon, or favoriteId")
        }
        if let city {
            form = .city(city)
        } else if lat != nil || lon != nil {
            guard let lat, let lon else { throw FieldError(path: "params", problem: "needs both lat and lon") }
            form = .coordinates(lat, lon)
        } else if let favoriteId {
            form = .favorite(favoriteId)
        } else {
            form = .currentLocation
        }
        units = try params.choice("units", as: Units.self)
        maxAgeMs = try params.int("maxAgeSeconds", in: 0...(365 * 86_400)).map { $0 * 1000 }
    }
}
