import WeatherDomain

/// OpenWeatherMap's One Call API 3.0 for the weather, with the direct geocoding API of
/// `OpenWeatherMapProvider` for names.
///
/// One Call answers current conditions, 48 hourly steps and 8 days in one body. Current weather and the
/// forecast are still two fetches (each cached for its own TTL and audited as its own call) of the same
/// URL: one call filling both would need one audit event for two answers. Errors come from the HTTP
/// status alone, as for `OpenWeatherMapProvider`.
package struct OpenWeatherMapOneCallProvider: WeatherProvider {
    /// The hourly steps One Call gives, and so the most kept.
    package static let maxHours = 48
    /// The days One Call gives (today and seven more), and so the most kept.
    package static let maxDays = 8
    /// What weatherd leaves out of every call: the minute-by-minute hour, and the national alerts (the official
    /// warnings come from their own sources).
    static let excluded = "minutely,alerts"

    /// The provider for geocoding, which One Call does not do, and for the request and reading rules the two
    /// APIs share.
    let classic: OpenWeatherMapProvider

    /// Creates a provider; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(
        apiKey: String, baseURL: String = "https://api.openweathermap.org",
        requestUnits: OpenWeatherMapProvider.RequestUnits = .metric
    ) {
        classic = OpenWeatherMapProvider(apiKey: apiKey, baseURL: baseURL, requestUnits: requestUnits)
    }

    /// The API's base URL, without trailing slashes.
    package var baseURL: String { classic.baseURL }
    /// The units requested, and so assumed when decoding.
    package var requestUnits: OpenWeatherMapProvider.RequestUnits { classic.requestUnits }

    /// `openweathermap`, as recorded in events, as for the 2.5 APIs: the same account, quota and key. The
    /// audited URL's path (`/data/3.0/onecall`) tells the two apart.
    package var name: String { classic.name }

    /// One Call has 48 hourly steps.
    package var hasHourlyForecast: Bool { true }

    /// `/data/3.0/onecall` in the requested units, without minutes and alerts.
    package func currentRequest(lat: Double, lon: Double) -> ProviderRequest {
        oneCallRequest(lat: lat, lon: lon)
    }

    /// The same call as `currentRequest`: One Call's answer holds both.
    package func forecastRequest(lat: Double, lon: Double) -> ProviderRequest {
        oneCallRequest(lat: lat, lon: lon)
    }

    /// `/geo/1.0/direct`, as `OpenWeatherMapProvider` asks.
    package func geocodeRequest(query: String, limit: Int) -> ProviderRequest {
        classic.geocodeRequest(query: query, limit: limit)
    }

    /// `/geo/1.0/reverse`, as `OpenWeatherMapProvider` asks.
    package func reverseGeocodeRequest(lat: Double, lon: Double) -> ProviderRequest? {
        classic.reverseGeocodeRequest(lat: lat, lon: lon)
    }

    /// The real URL ends in `appid=<key>`; the audit URL leaves the parameter out altogether, as for 2.5.
    private func oneCallRequest(lat: Double, lon: Double) -> ProviderRequest {
        classic.request(
            "/data/3.0/onecall",
            classic.coordinates(lat, lon) + [("units", requestUnits.rawValue), ("exclude", Self.excluded)])
    }

    /// Reads `current` (required: `dt`, `temp`, `weather[0]`), `timezone_offset`, and today's low and high from
    /// `daily[0]`.
    package func decodeCurrent(_ body: [UInt8], place: Place) throws(ProviderError) -> CurrentReport {
        try ResponseBody.decode(body, provider: name) { root throws(FieldError) in try current(root, place: place) }
    }

    /// Reads `hourly` (at most 48 steps, from which the 3-hourly steps are made) and `daily` (at most 8 days, by
    /// local date from `timezone_offset`); a body with only `hourly` gives days summarized from every hour.
    package func decodeForecast(_ body: [UInt8], place: Place) throws(ProviderError) -> ForecastReport {
        try ResponseBody.decode(body, provider: name) { root throws(FieldError) in try forecast(root, place: place) }
    }

    /// Reads the array of candidates, as `OpenWeatherMapProvider` does.
    package func decodeGeocode(_ body: [UInt8]) throws(ProviderError) -> [Place] {
        try classic.decodeGeocode(body)
    }
}

extension OpenWeatherMapOneCallProvider: CustomStringConvertible, CustomReflectable {
    /// The provider without its key, so interpolating or dumping it into a log cannot leak the key.
    package var description: String {
        "OpenWeatherMapOneCallProvider(baseURL: \(baseURL), requestUnits: \(requestUnits.rawValue))"
    }

    /// The mirror `dump` and the debugger use, likewise without the key.
    package var customMirror: Mirror {
        Mirror(self, children: ["baseURL": baseURL, "requestUnits": requestUnits], displayStyle: .struct)
    }
}
