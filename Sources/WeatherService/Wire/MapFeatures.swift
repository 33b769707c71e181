import Providers
import WeatherDomain
import WeatherEngine

/// GeoJSON (RFC 7946) and tile layers for map clients.
enum MapFeatures {
    /// A FeatureCollection of favorites, each a Point `[lon, lat]` with its latest cached weather in `units`;
    /// the collection's `units` (a foreign member, RFC 7946 §6.1) and each weather's own name the units.
    static func collection(_ favorites: [Favorite], weather: [Cached<CurrentReport>?], units: UnitChoice)
        -> JSONValue
    {
        let features: [JSONValue] = zip(favorites, weather).map { favorite, cached in
            var properties: [String: JSONValue] = [
                "id": .string(favorite.id), "name": .string(favorite.name), "notify": .bool(favorite.notify),
            ]
            if let country = favorite.country { properties["country"] = .string(country) }
            if let cached {
                let now = cached.value.current
                let isDay = WeatherFormatting.isDay(
                    now.isDay, at: now.observedAt, place: cached.value.place,
                    zone: cached.value.zone(around: now.observedAt))
                properties["weather"] = .object([
                    "temperature": .double(WeatherFormatting.temperature(now.temperature, units)),
                    "units": .object(["temperature": .string(units.temperature.rawValue)]),
                    "condition": WeatherFormatting.condition(now.condition, isDay: isDay, windSpeed: now.windSpeed),
                    "theme": .string(now.condition.theme.rawValue),
                    "observedAt": .string(now.observedAt.description),
                    "fetchedAt": .string(cached.fetchedAt.description),
                ])
            } else {
                properties["weather"] = .null
            }
            return .object([
                "type": "Feature", "id": .string(favorite.id),
                "geometry": .object([
                    "type": "Point", "coordinates": .array([.double(favorite.lon), .double(favorite.lat)]),
                ]),
                "properties": .object(properties),
            ])
        }
        return .object([
            "type": "FeatureCollection", "features": .array(features), "units": WeatherFormatting.unitNames(units),
        ])
    }

    /// OpenWeatherMap tile layers; `{apiKey}` is a placeholder the client fills in: the key is never sent.
    static let layers: JSONValue = .object([
        "layers": .array(
            [("temperature", "temp_new"), ("precipitation", "precipitation_new"), ("clouds", "clouds_new")].map {
                name, layer in
                .object([
                    "name": .string(name),
                    "url": .string("https://tile.openweathermap.org/map/\(layer)/{z}/{x}/{y}.png?appid={apiKey}"),
                    "minZoom": 0, "maxZoom": 19,
                ])
            }),
        "attribution": "Weather maps © OpenWeatherMap",
    ])
}
