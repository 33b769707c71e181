import WeatherDomain

/// OpenWeatherMap's current weather, 5-day / 3-hour forecast and direct geocoding APIs.
///
/// Errors come from the HTTP status alone (`ProviderError.from(status:…)`): the body's `cod` is a
/// number in some answers and a string in others, so decoding ignores it.
package struct OpenWeatherMapProvider: WeatherProvider {
    /// The `units` weatherd asks OpenWeatherMap for, which decides how its temperatures and wind speeds read.
    package enum RequestUnits: String, Sendable {
        /// °C and m/s: weatherd's canonical units, what the service uses.
        case metric
        /// Kelvin and m/s: OpenWeatherMap's default, what the recorded fixtures were captured in.
        case standard
        /// °F and miles per hour.
        case imperial

        var temperature: TemperatureUnit {
            switch self {
            case .metric: .celsius
            case .standard: .kelvin
            case .imperial: .fahrenheit
            }
        }

        /// Wind speeds and gusts; visibility (metres), pressure (hPa) and precipitation (mm) are the same in
        /// every `units`.
        var speed: SpeedUnit { self == .imperial ? .milesPerHour : .metresPerSecond }
    }

    private let apiKey: String
    /// The API's base URL, without trailing slashes.
    package let baseURL: String
    /// The units requested, and so assumed when decoding.
    package let requestUnits: RequestUnits

    /// Creates a provider; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(
        apiKey: String, baseURL: String = "https://api.openweathermap.org", requestUnits: RequestUnits = .metric
    ) {
        self.apiKey = apiKey
        self.baseURL = RequestURL.base(baseURL)
        self.requestUnits = requestUnits
    }

    /// `openweathermap`, as recorded in events.
    package var name: String { "openweathermap" }

    /// The 5-day / 3-hour forecast has no hourly steps.
    package var hasHourlyForecast: Bool { false }

    /// `/data/2.5/weather` in the requested units.
    package func currentRequest(lat: Double, lon: Double) -> ProviderRequest {
        request("/data/2.5/weather", coordinates(lat, lon) + [("units", requestUnits.rawValue)])
    }

    /// `/data/2.5/forecast`: all 40 three-hourly steps, the most the endpoint gives.
    package func forecastRequest(lat: Double, lon: Double) -> ProviderRequest {
        request("/data/2.5/forecast", coordinates(lat, lon) + [("units", requestUnits.rawValue)])
    }

    /// `/geo/1.0/direct`, `limit` clamped to the 1…5 the endpoint accepts.
    package func geocodeRequest(query: String, limit: Int) -> ProviderRequest {
        request("/geo/1.0/direct", [("q", RequestURL.encode(query)), ("limit", String(min(max(limit, 1), 5)))])
    }

    /// `/geo/1.0/reverse`, the one place nearest the point.
    package func reverseGeocodeRequest(lat: Double, lon: Double) -> ProviderRequest? {
        request("/geo/1.0/reverse", coordinates(lat, lon) + [("limit", "1")])
    }

    func coordinates(_ lat: Double, _ lon: Double) -> [(String, String)] {
        [("lat", RequestURL.coordinate(lat)), ("lon", RequestURL.coordinate(lon))]
    }

    /// The real URL ends in `appid=<key>`; the audit URL leaves the parameter out altogether, so
    /// neither the key nor its length can reach the log.
    func request(_ path: String, _ query: [(String, String)]) -> ProviderRequest {
        ProviderRequest(
            url: RequestURL.make(baseURL, path, query + [("appid", RequestURL.encode(apiKey))]),
            auditURL: RequestURL.make(baseURL, path, query))
    }

    /// Reads `main`, `weather[0]`, `wind`, `sys` and `timezone` (the offset); `cod` is ignored.
    package func decodeCurrent(_ body: [UInt8], place: Place) throws(ProviderError) -> CurrentReport {
        let root = try ResponseBody.parse(body, provider: name)
        do throws(FieldError) {
            return try current(root, place: place)
        } catch {
            throw .badBody(name, error.description)
        }
    }

    /// Reads `list` (at most 40 steps) and `city`, whose `timezone` offset decides the local dates; the days
    /// are summarized from every step.
    package func decodeForecast(_ body: [UInt8], place: Place) throws(ProviderError) -> ForecastReport {
        let root = try ResponseBody.parse(body, provider: name)
        do throws(FieldError) {
            return try forecast(root, place: place)
        } catch {
            throw .badBody(name, error.description)
        }
    }

    /// Reads the array of candidates; `local_names` is not used.
    package func decodeGeocode(_ body: [UInt8]) throws(ProviderError) -> [Place] {
        let root = try ResponseBody.parse(body, provider: name)
        do throws(FieldError) {
            return try Self.places(root)
        } catch {
            throw .badBody(name, error.description)
        }
    }

    // MARK: - Current

    func current(_ root: JSONValue, place: Place) throws(FieldError) -> CurrentReport {
        let top = try FieldReader(root, path: "$")
        let main = try FieldReader(top.members["main"], path: "$.main")
        let wind = try FieldReader(top.members["wind"], path: "$.wind", allowAbsent: true)
        let sys = try FieldReader(top.members["sys"], path: "$.sys", allowAbsent: true)
        let clouds = try FieldReader(top.members["clouds"], path: "$.clouds", allowAbsent: true)
        let unit = requestUnits.temperature
        let speed = requestUnits.speed
        let (condition, icon) = try Self.condition(top)
        let conditions = CurrentConditions(
            observedAt: Timestamp(milliseconds: try top.int("dt") * 1000),
            temperature: unit.celsius(try main.double("temp")),
            feelsLike: try main.optionalDouble("feels_like").map(unit.celsius),
            tempMin: try main.optionalDouble("temp_min").map(unit.celsius),
            tempMax: try main.optionalDouble("temp_max").map(unit.celsius),
            humidity: try main.optionalDouble("humidity"), pressure: try main.optionalDouble("pressure"),
            cloudCover: try clouds.optionalDouble("all"), visibility: try top.optionalDouble("visibility"),
            windSpeed: try wind.optionalDouble("speed").map(speed.metresPerSecond),
            windDirection: try wind.optionalDouble("deg"),
            windGust: try wind.optionalDouble("gust").map(speed.metresPerSecond),
            precipitation: try Self.precipitation(top, "1h"),
            isDay: Self.isDay(pod: nil, icon: icon), condition: condition,
            sunrise: try sys.optionalInt("sunrise").map { Timestamp(milliseconds: $0 * 1000) },
            sunset: try sys.optionalInt("sunset").map { Timestamp(milliseconds: $0 * 1000) })
        return CurrentReport(
            place: Self.place(place, name: try top.optionalString("name"), country: try sys.optionalString("country")),
            // OpenWeatherMap gives only the offset (`timezone`, seconds east), never a zone name.
            timezone: nil, utcOffsetSeconds: try top.optionalInt("timezone") ?? 0, current: conditions)
    }

    /// The condition of `weather[0]`, which every current and forecast answer carries, and its icon.
    static func condition(_ parent: FieldReader) throws(FieldError) -> (Condition, String?) {
        let items = try ResponseBody.array(parent, "weather")
        guard let weather = try ResponseBody.firstObject(items, path: "\(parent.path).weather") else {
            throw FieldError(path: "\(parent.path).weather", problem: "must not be empty")
        }
        let description = try weather.optionalString("description")
        let group = try weather.optionalString("main")
        return (
            Condition(scheme: "owm", code: try weather.int("id"), text: description ?? group ?? ""),
            try weather.optionalString("icon")
        )
    }

    /// Day or night: the forecast's part of the day (`sys.pod`, `d` or `n`), else the icon's last letter
    /// (`04n`); nil when neither says.
    static func isDay(pod: String?, icon: String?) -> Bool? {
        switch pod ?? icon.map({ String($0.suffix(1)) }) {
        case "d": true
        case "n": false
        default: nil
        }
    }

    /// Rain plus snow (water equivalent) over the interval `key` (`1h` now, `3h` in the forecast), in mm.
    ///
    /// OpenWeatherMap leaves `rain` and `snow` out when there is none to report; with neither, the amount
    /// is unknown (nil), as for every value a provider does not give.
    static func precipitation(_ parent: FieldReader, _ key: String) throws(FieldError) -> Double? {
        let amounts = [
            try FieldReader(parent.members["rain"], path: "\(parent.path).rain", allowAbsent: true).optionalDouble(key),
            try FieldReader(parent.members["snow"], path: "\(parent.path).snow", allowAbsent: true).optionalDouble(key),
        ].compactMap { $0 }
        return amounts.isEmpty ? nil : amounts.reduce(0, +)
    }

    /// The requested place, completed from the body where the caller knew less.
    ///
    /// The coordinates stay the requested ones: OpenWeatherMap answers with its station's, and
    /// the cache is keyed on what was asked.
    private static func place(_ requested: Place, name: String?, country: String?) -> Place {
        // OpenWeatherMap names a point at sea "", which is no name.
        let bodyName = name.flatMap { $0.isEmpty ? nil : $0 }
        let bodyCountry = country.flatMap { $0.isEmpty ? nil : $0 }
        return Place(
            name: requested.name ?? bodyName, country: requested.country ?? bodyCountry, state: requested.state,
            lat: requested.lat, lon: requested.lon)
    }

    // MARK: - Forecast

    func forecast(_ root: JSONValue, place: Place) throws(FieldError) -> ForecastReport {
        let top = try FieldReader(root, path: "$")
        let city = try FieldReader(top.members["city"], path: "$.city", allowAbsent: true)
        let offset = try city.optionalInt("timezone") ?? 0
        let unit = requestUnits.temperature
        let speed = requestUnits.speed
        var entries: [ForecastEntry] = []
        for (index, item) in try ResponseBody.array(top, "list").prefix(40).enumerated() {
            let step = try FieldReader(item, path: "$.list[\(index)]")
            let main = try FieldReader(step.members["main"], path: "\(step.path).main")
            let wind = try FieldReader(step.members["wind"], path: "\(step.path).wind", allowAbsent: true)
            let clouds = try FieldReader(step.members["clouds"], path: "\(step.path).clouds", allowAbsent: true)
            let sys = try FieldReader(step.members["sys"], path: "\(step.path).sys", allowAbsent: true)
            let (condition, icon) = try Self.condition(step)
            entries.append(
                ForecastEntry(
                    time: Timestamp(milliseconds: try step.int("dt") * 1000),
                    temperature: unit.celsius(try main.double("temp")),
                    feelsLike: try main.optionalDouble("feels_like").map(unit.celsius),
                    humidity: try main.optionalDouble("humidity"), pressure: try main.optionalDouble("pressure"),
                    cloudCover: try clouds.optionalDouble("all"), visibility: try step.optionalDouble("visibility"),
                    windSpeed: try wind.optionalDouble("speed").map(speed.metresPerSecond),
                    windDirection: try wind.optionalDouble("deg"),
                    windGust: try wind.optionalDouble("gust").map(speed.metresPerSecond),
                    precipitation: try Self.precipitation(step, "3h"),
                    // Older answers have no `pop`; it is already a fraction, 0…1.
                    pop: try step.optionalDouble("pop"),
                    isDay: Self.isDay(pod: try sys.optionalString("pod"), icon: icon), condition: condition))
        }
        return ForecastReport(
            place: Self.place(
                place, name: try city.optionalString("name"), country: try city.optionalString("country")),
            timezone: nil, utcOffsetSeconds: offset, entries: entries,
            // No daily figures in this API: each local date the 40 steps touch, from every step of it. It names
            // no time zone, so its dates are at the one offset it gives.
            daily: DailySummary.days(of: entries, zone: .fixed(offset)))
    }

    // MARK: - Geocoding

    static func places(_ root: JSONValue) throws(FieldError) -> [Place] {
        guard case .array(let items) = root else { throw FieldError(path: "$", problem: "must be an array") }
        var places: [Place] = []
        for (index, item) in items.enumerated() {
            let result = try FieldReader(item, path: "$[\(index)]")
            places.append(
                Place(
                    name: try result.string("name"), country: try result.optionalString("country"),
                    state: try result.optionalString("state"), lat: try result.double("lat"),
                    lon: try result.double("lon")))
        }
        return places
    }
}

extension OpenWeatherMapProvider: CustomStringConvertible, CustomReflectable {
    /// The provider without its key, so interpolating or dumping it into a log cannot leak the key.
    package var description: String {
        "OpenWeatherMapProvider(baseURL: \(baseURL), requestUnits: \(requestUnits.rawValue))"
    }

    /// The mirror `dump` and the debugger use, likewise without the key.
    package var customMirror: Mirror {
        Mirror(self, children: ["baseURL": baseURL, "requestUnits": requestUnits], displayStyle: .struct)
    }
}
