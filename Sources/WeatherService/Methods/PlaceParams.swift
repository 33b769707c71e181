import WeatherDomain
import WeatherEngine

/// The place arguments both faces take: exactly one of `city`, `lat`+`lon`, `favorite` (an id or a
/// name; JSON-RPC also accepts `favoriteId`), or none for the current location, which JSON-RPC's
/// `autoLocation` lets weatherd find when none is set (MCP's tools declare no such argument).
struct PlaceParams: Sendable {
    /// The members that name a place.
    static let names: Set<String> = ["city", "lat", "lon", "favorite", "favoriteId", "autoLocation"]

    var place: PlaceQuery
    var units: Units?
    var maxAgeMs: Int64?

    init(_ params: FieldReader) throws(FieldError) {
        let city = try params.nonEmptyString("city")
        let byEither = try params.nonEmptyString("favorite")
        let byID = try params.nonEmptyString("favoriteId")
        let favorite = byEither ?? byID
        let byPoint = params.has("lat") || params.has("lon")
        let forms = [city != nil, byPoint, favorite != nil].filter { $0 }.count
        guard forms <= 1, !(params.has("favorite") && params.has("favoriteId")) else {
            throw FieldError(path: params.path, problem: "must name one place: city, lat and lon, or favorite")
        }
        if let city {
            place = .city(city)
        } else if let point = try params.coordinates() {
            place = .coordinates(point)
        } else if let favorite {
            place = .favorite(favorite)
        } else {
            place = .currentLocation(autoLocation: try params.optionalBool("autoLocation"))
        }
        units = try params.choice("units", as: Units.self)
        maxAgeMs = try params.int("maxAgeSeconds", in: 0...(365 * 86_400)).map { $0 * 1000 }
    }

    /// The forecast's `days` (`ForecastDetail.days`), `detail` and `type`, defaulting to all days,
    /// `defaultDetail` and 3-hourly steps.
    static func forecastShape(_ params: FieldReader, defaultDetail: ForecastDetail) throws(FieldError) -> (
        days: Int?, detail: ForecastDetail, type: ForecastType
    ) {
        let range = ForecastDetail.days
        let days = try params.int("days", in: Int64(range.lowerBound)...Int64(range.upperBound)).map { Int($0) }
        return (
            days, try params.choice("detail", as: ForecastDetail.self) ?? defaultDetail,
            try params.choice("type", as: ForecastType.self) ?? .threeHourly
        )
    }
}

/// `limit` and `cursor` of a paged list.
enum PageParams {
    static func read(_ params: FieldReader, defaultLimit: Int64, max: Int64 = 1000) throws(FieldError) -> PageRequest {
        let limit = try params.int("limit", in: 1...max) ?? defaultLimit
        var offset = 0
        if let cursor = try params.optionalString("cursor") {
            guard cursor.hasPrefix("o"), let value = Int(cursor.dropFirst()), value >= 0 else {
                throw FieldError(path: "params.cursor", problem: "is not a cursor this method returned")
            }
            offset = value
        }
        return PageRequest(limit: Int(limit), offset: offset)
    }
}
