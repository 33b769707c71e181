import WeatherDomain

/// Open-Meteo's forecast and geocoding APIs, which need no API key.
///
/// weatherd asks for m/s and unix times, but decoding also honours the unit labels and the local
/// ISO times Open-Meteo sends by default, because a proxy or a self-hosted instance may not pass
/// the query through unchanged (the recorded Berlin fixture is such a body).
package struct OpenMeteoProvider: WeatherProvider {
    /// The forecast API's base URL, without trailing slashes.
    package let baseURL: String
    /// The geocoding API's base URL, without trailing slashes.
    package let geocodingBaseURL: String

    /// Creates a provider; either base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(
        baseURL: String = "https://api.open-meteo.com",
        geocodingBaseURL: String = "https://geocoding-api.open-meteo.com"
    ) {
        self.baseURL = RequestURL.base(baseURL)
        self.geocodingBaseURL = RequestURL.base(geocodingBaseURL)
    }

    /// `open-meteo`, as recorded in events.
    package var name: String { "open-meteo" }

    /// The variables of a step, for `current` and `hourly` alike (`current` takes every hourly variable).
    static let stepVariables = [
        "temperature_2m", "apparent_temperature", "relative_humidity_2m", "dew_point_2m", "pressure_msl",
        "cloud_cover", "visibility", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "uv_index",
        "precipitation", "precipitation_probability", "weather_code", "is_day",
    ]
    /// Today's figures that `current` alone lacks.
    static let todayVariables = ["temperature_2m_max", "temperature_2m_min", "sunrise", "sunset"]
    /// The provider's own aggregates of each local day.
    static let dailyVariables = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum",
        "precipitation_probability_max", "uv_index_max", "sunrise", "sunset",
    ]
    /// Days asked for and kept: the most Open-Meteo forecasts.
    static let maxDays = 16

    /// The forecast gives hourly steps.
    package var hasHourlyForecast: Bool { true }

    /// Current conditions plus today's daily low, high and sun times, which `current` alone lacks.
    package func currentRequest(lat: Double, lon: Double) -> ProviderRequest {
        Self.request(
            RequestURL.make(
                baseURL, "/v1/forecast",
                Self.coordinates(lat, lon) + [
                    ("current", Self.stepVariables.joined(separator: ",")),
                    ("daily", Self.todayVariables.joined(separator: ",")), ("forecast_days", "1"),
                    ("timezone", "auto"), ("wind_speed_unit", "ms"), ("timeformat", "unixtime"),
                ]))
    }

    /// Hourly values and the days' own aggregates, from local midnight today for 16 days; decoding keeps
    /// the first `ForecastReport.decodedHours` hours, and every third hour for the 3-hourly steps.
    package func forecastRequest(lat: Double, lon: Double) -> ProviderRequest {
        Self.request(
            RequestURL.make(
                baseURL, "/v1/forecast",
                Self.coordinates(lat, lon) + [
                    ("hourly", Self.stepVariables.joined(separator: ",")),
                    ("daily", Self.dailyVariables.joined(separator: ",")), ("forecast_days", String(Self.maxDays)),
                    ("timezone", "auto"), ("wind_speed_unit", "ms"), ("timeformat", "unixtime"),
                ]))
    }

    /// A name search on the geocoding API, `limit` clamped to 1…5.
    package func geocodeRequest(query: String, limit: Int) -> ProviderRequest {
        Self.request(
            RequestURL.make(
                geocodingBaseURL, "/v1/search",
                [
                    ("name", RequestURL.encode(query)), ("count", String(min(max(limit, 1), 5))),
                    ("language", "en"), ("format", "json"),
                ]))
    }

    /// Open-Meteo has no reverse geocoding: its geocoding API searches by name only.
    package func reverseGeocodeRequest(lat: Double, lon: Double) -> ProviderRequest? { nil }

    private static func coordinates(_ lat: Double, _ lon: Double) -> [(String, String)] {
        [("latitude", RequestURL.coordinate(lat)), ("longitude", RequestURL.coordinate(lon))]
    }

    /// Open-Meteo takes no key, so the URL is its own audit form.
    private static func request(_ url: String) -> ProviderRequest {
        ProviderRequest(url: url, auditURL: url)
    }

    /// Reads `current` (required: `time`, `temperature_2m`) and today's entry of `daily`.
    package func decodeCurrent(_ body: [UInt8], place: Place) throws(ProviderError) -> CurrentReport {
        let root = try readable(body)
        do throws(FieldError) {
            return try Self.current(root, place: place)
        } catch {
            throw .badBody(name, error.description)
        }
    }

    /// Reads `hourly` into hourly and 3-hourly steps and `daily` into the days; a body with only `daily`
    /// arrays gives days and no steps, one with only `hourly` days summarized from every hour.
    package func decodeForecast(_ body: [UInt8], place: Place) throws(ProviderError) -> ForecastReport {
        let root = try readable(body)
        do throws(FieldError) {
            return try Self.forecast(root, place: place)
        } catch {
            throw .badBody(name, error.description)
        }
    }

    /// Reads `results`, which Open-Meteo omits when nothing matches.
    package func decodeGeocode(_ body: [UInt8]) throws(ProviderError) -> [Place] {
        let root = try readable(body)
        do throws(FieldError) {
            return try Self.places(root)
        } catch {
            throw .badBody(name, error.description)
        }
    }

    /// The parsed body, unless it is not JSON or is Open-Meteo's `{"error":true,"reason":…}`.
    private func readable(_ body: [UInt8]) throws(ProviderError) -> JSONValue {
        try ResponseBody.openMeteo(body, provider: name)
    }

    // MARK: - Geocoding

    static func places(_ root: JSONValue) throws(FieldError) -> [Place] {
        let top = try FieldReader(root, path: "$")
        // Open-Meteo leaves `results` out altogether when nothing matches.
        guard let results = try ResponseBody.optionalArray(top, "results") else { return [] }
        var places: [Place] = []
        for (index, item) in results.enumerated() {
            let result = try FieldReader(item, path: "$.results[\(index)]")
            places.append(
                Place(
                    name: try result.string("name"), country: try result.optionalString("country_code"),
                    state: try result.optionalString("admin1"), lat: try result.double("latitude"),
                    lon: try result.double("longitude")))
        }
        return places
    }
}
