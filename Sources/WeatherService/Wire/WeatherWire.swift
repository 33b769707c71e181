import WeatherDomain
import WeatherEngine

extension CurrentWeather {
    /// `weather/current`'s answer, as MCP's `get_current_weather` and the weather resources give it too.
    var json: JSONValue { WeatherFormatting.current(answer, units: units) }
}

extension ForecastWeather {
    /// `weather/forecast`'s answer, as MCP's `get_forecast` and the forecast resources give it too.
    var json: JSONValue {
        WeatherFormatting.forecast(
            answer, units: units, now: now, days: days, detail: detail, type: type, normals: normals, spread: spread)
    }
}

extension FavoritesMap {
    /// `map/favorites`: a GeoJSON FeatureCollection.
    var json: JSONValue { MapFeatures.collection(favorites, weather: weather, units: units) }
}

/// `cities/search`'s answer: `{candidates}`, best first.
func candidatesJSON(_ places: [Place]) -> JSONValue { .object(["candidates": .array(places.map(\.json))]) }
