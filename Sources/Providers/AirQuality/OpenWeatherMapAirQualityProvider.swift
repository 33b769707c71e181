import WeatherDomain

/// OpenWeatherMap's air pollution API: the values now and an hourly forecast.
///
/// OpenWeatherMap gives its own 1–5 index (`owmAqi`) and the concentrations in μg/m³. It has no
/// European or US AQI, no UV index and no pollen: those stay absent, since weatherd does not
/// compute or invent an index a provider did not send.
package struct OpenWeatherMapAirQualityProvider: AirQualityProvider {
    private let apiKey: String
    /// The API's base URL, without trailing slashes.
    package let baseURL: String

    /// Creates a provider; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(apiKey: String, baseURL: String = "https://api.openweathermap.org") {
        self.apiKey = apiKey
        self.baseURL = RequestURL.base(baseURL)
    }

    /// `openweathermap`, as recorded in events.
    package var name: String { "openweathermap" }

    /// `components` members and the entry members they fill; `no` and `nh3` have none and are not read.
    static let components: [(name: String, member: AirQualityEntry.Member)] = [
        ("co", \.carbonMonoxide), ("no2", \.nitrogenDioxide), ("o3", \.ozone), ("so2", \.sulphurDioxide),
        ("pm2_5", \.pm25), ("pm10", \.pm10),
    ]

    /// `/data/2.5/air_pollution`: the values now.
    package func airQualityRequest(lat: Double, lon: Double) -> ProviderRequest {
        request("/data/2.5/air_pollution", lat, lon)
    }

    /// `/data/2.5/air_pollution/forecast`: hourly values for the next days.
    package func airQualityForecastRequest(lat: Double, lon: Double) -> ProviderRequest? {
        request("/data/2.5/air_pollution/forecast", lat, lon)
    }

    /// As `OpenWeatherMapProvider`: the audit URL leaves `appid` out altogether.
    private func request(_ path: String, _ lat: Double, _ lon: Double) -> ProviderRequest {
        let query = [("lat", RequestURL.coordinate(lat)), ("lon", RequestURL.coordinate(lon))]
        return ProviderRequest(
            url: RequestURL.make(baseURL, path, query + [("appid", RequestURL.encode(apiKey))]),
            auditURL: RequestURL.make(baseURL, path, query))
    }

    /// Reads the first entry of the current body's `list` and the forecast body's next 24 hours.
    package func decodeAirQuality(_ body: [UInt8], forecast: [UInt8]?, place: Place, now: Timestamp)
        throws(ProviderError) -> AirQualityReport
    {
        let current = try decodeEntries(body).first
        let hourly = try forecast.map { (forecast) throws(ProviderError) in try decodeEntries(forecast) } ?? []
        return AirQualityReport(
            place: place, current: current, hourly: AirQualityReport.nextHours(hourly, now: now))
    }

    /// Reads every entry of a body's `list`, in its order (current and forecast bodies alike).
    package func decodeEntries(_ body: [UInt8]) throws(ProviderError) -> [AirQualityEntry] {
        try ResponseBody.decode(body, provider: name) { (root) throws(FieldError) in try Self.entries(root) }
    }

    static func entries(_ root: JSONValue) throws(FieldError) -> [AirQualityEntry] {
        let top = try FieldReader(root, path: "$")
        var entries: [AirQualityEntry] = []
        for (index, item) in try ResponseBody.array(top, "list").enumerated() {
            let path = "$.list[\(index)]"
            let reader = try FieldReader(item, path: path)
            let main = try FieldReader(reader.members["main"], path: "\(path).main", allowAbsent: true)
            let values = try FieldReader(reader.members["components"], path: "\(path).components", allowAbsent: true)
            var entry = AirQualityEntry(
                time: try ResponseBody.time(reader.members["dt"], path: "\(path).dt", utcOffsetSeconds: 0),
                owmAqi: try main.int("aqi", in: 1...5).map(Double.init))
            for component in components { entry[keyPath: component.member] = try values.optionalDouble(component.name) }
            entries.append(entry)
        }
        return entries
    }
}
