import WeatherDomain

/// Open-Meteo's forecast and geocoding APIs, which need no API key.
///
/// weatherd asks for m/s and unix times, but decoding also honours the unit labels and the local
/// ISO times Open-Meteo sends by default, because a proxy or a self-hosted instance may not pass
/// the query through unchanged (the recorded Berlin fixture is such a body).
public struct OpenMeteoProvider: WeatherProvider {
    /// The forecast API's base URL, without trailing slashes.
    public let baseURL: String
    /// The geocoding API's base URL, without trailing slashes.
    public let geocodingBaseURL: String

    /// Creates a provider; either base URL may carry a path prefix (a proxy) and a trailing slash.
    public init(
        baseURL: String = "https://api.open-meteo.com",
        geocodingBaseURL: String = "https://geocoding-api.open-meteo.com"
    ) {
        self.baseURL = RequestURL.base(baseURL)
        self.geocodingBaseURL = RequestURL.base(geocodingBaseURL)
    }

    /// `open-meteo`, as recorded in events.
    public var name: String { "open-meteo" }

    /// The condition of a time or day for which Open-Meteo sent no `weather_code`.
    ///
    /// The domain model requires a condition; -1 lies outside the WMO table, so this reads as
    /// unknown (theme `cloudy`, never severe) instead of inventing an "overcast" sky.
    public static let conditionNotReported = Condition(scheme: "wmo", code: -1, text: "not reported")

    static let currentVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "weather_code", "pressure_msl",
        "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m",
    ]
    static let dailyVariables = ["temperature_2m_max", "temperature_2m_min", "sunrise", "sunset"]
    static let hourlyVariables = [
        "temperature_2m", "apparent_temperature", "relative_humidity_2m", "pressure_msl", "wind_speed_10m",
        "wind_direction_10m", "weather_code", "precipitation_probability",
    ]
    /// Forecast steps kept, as OpenWeatherMap's 5-day / 3-hour forecast has.
    static let maxEntries = 40
    /// Days kept from a body's `daily` arrays, as `DailySummary.days` keeps from entries.
    static let maxDays = 5
    static let stepMilliseconds: Int64 = 3 * 3600 * 1000

    /// Current conditions plus today's daily low, high and sun times, which `current` alone lacks.
    public func currentRequest(lat: Double, lon: Double) -> ProviderRequest {
        Self.request(
            RequestURL.make(
                baseURL, "/v1/forecast",
                Self.coordinates(lat, lon) + [
                    ("current", Self.currentVariables.joined(separator: ",")),
                    ("daily", Self.dailyVariables.joined(separator: ",")), ("forecast_days", "1"),
                    ("timezone", "auto"), ("wind_speed_unit", "ms"), ("timeformat", "unixtime"),
                ]))
    }

    /// Hourly values from local midnight today; decoding keeps every third hour.
    public func forecastRequest(lat: Double, lon: Double) -> ProviderRequest {
        // Six days of hours so that 40 three-hourly steps from local midnight always fit.
        Self.request(
            RequestURL.make(
                baseURL, "/v1/forecast",
                Self.coordinates(lat, lon) + [
                    ("hourly", Self.hourlyVariables.joined(separator: ",")), ("forecast_days", "6"),
                    ("timezone", "auto"), ("wind_speed_unit", "ms"), ("timeformat", "unixtime"),
                ]))
    }

    /// A name search on the geocoding API, `limit` clamped to 1…5.
    public func geocodeRequest(query: String, limit: Int) -> ProviderRequest {
        Self.request(
            RequestURL.make(
                geocodingBaseURL, "/v1/search",
                [
                    ("name", RequestURL.encode(query)), ("count", String(min(max(limit, 1), 5))),
                    ("language", "en"), ("format", "json"),
                ]))
    }

    private static func coordinates(_ lat: Double, _ lon: Double) -> [(String, String)] {
        [("latitude", RequestURL.coordinate(lat)), ("longitude", RequestURL.coordinate(lon))]
    }

    /// Open-Meteo takes no key, so the URL is its own audit form.
    private static func request(_ url: String) -> ProviderRequest {
        ProviderRequest(url: url, auditURL: url)
    }

    /// Reads `current` (required: `time`, `temperature_2m`) and today's entry of `daily`.
    public func decodeCurrent(_ body: [UInt8], place: Place) throws(ProviderError) -> CurrentReport {
        let root = try readable(body)
        do throws(FieldError) {
            return try Self.current(root, place: place)
        } catch {
            throw .badBody(name, error.description)
        }
    }

    /// Reads `hourly` into 3-hourly entries; a body with only `daily` arrays gives days and no entries.
    public func decodeForecast(_ body: [UInt8], place: Place) throws(ProviderError) -> ForecastReport {
        let root = try readable(body)
        do throws(FieldError) {
            return try Self.forecast(root, place: place)
        } catch {
            throw .badBody(name, error.description)
        }
    }

    /// Reads `results`, which Open-Meteo omits when nothing matches.
    public func decodeGeocode(_ body: [UInt8]) throws(ProviderError) -> [Place] {
        let root = try readable(body)
        do throws(FieldError) {
            return try Self.places(root)
        } catch {
            throw .badBody(name, error.description)
        }
    }

    /// The parsed body, unless it is not JSON or is Open-Meteo's `{"error":true,"reason":…}`.
    private func readable(_ body: [UInt8]) throws(ProviderError) -> JSONValue {
        let root = try ResponseBody.parse(body, provider: name)
        if root["error"]?.boolValue == true {
            throw .badBody(name, "error: \(root["reason"]?.stringValue ?? "no reason given")")
        }
        return root
    }

    // MARK: - Current

    static func current(_ root: JSONValue, place: Place) throws(FieldError) -> CurrentReport {
        let top = try FieldReader(root, path: "$")
        let offset = try top.optionalInt("utc_offset_seconds") ?? 0
        let current = try FieldReader(top.members["current"], path: "$.current")
        let units = try SectionUnits(top.members["current_units"], path: "$.current_units")
        let daily = try FieldReader(top.members["daily"], path: "$.daily", allowAbsent: true)
        let dailyUnits = try SectionUnits(top.members["daily_units"], path: "$.daily_units")

        let temperature = try units.temperature("temperature_2m")
        let apparent = try units.temperature("apparent_temperature")
        let wind = try units.speed("wind_speed_10m")
        let gust = try units.speed("wind_gusts_10m")
        let low = try dailyUnits.temperature("temperature_2m_min")
        let high = try dailyUnits.temperature("temperature_2m_max")
        let code = try current.optionalDouble("weather_code")

        let conditions = CurrentConditions(
            observedAt: try ResponseBody.time(
                current.members["time"], path: "$.current.time", utcOffsetSeconds: offset),
            temperature: temperature.celsius(try current.double("temperature_2m")),
            feelsLike: try current.optionalDouble("apparent_temperature").map(apparent.celsius),
            tempMin: try firstNumber(daily, "temperature_2m_min").map(low.celsius),
            tempMax: try firstNumber(daily, "temperature_2m_max").map(high.celsius),
            humidity: try current.optionalDouble("relative_humidity_2m"),
            pressure: try current.optionalDouble("pressure_msl"),
            windSpeed: try current.optionalDouble("wind_speed_10m").map(wind.metresPerSecond),
            windDirection: try current.optionalDouble("wind_direction_10m"),
            windGust: try current.optionalDouble("wind_gusts_10m").map(gust.metresPerSecond),
            condition: try condition(code, path: "$.current.weather_code"),
            sunrise: try firstTime(daily, "sunrise", utcOffsetSeconds: offset),
            sunset: try firstTime(daily, "sunset", utcOffsetSeconds: offset))
        return CurrentReport(
            place: place, timezone: try top.optionalString("timezone"), utcOffsetSeconds: offset, current: conditions)
    }

    /// The first value of a daily column (today), when the body has one.
    private static func firstNumber(_ daily: FieldReader, _ key: String) throws(FieldError) -> Double? {
        guard let first = try ResponseBody.optionalArray(daily, key)?.first, !first.isNull else { return nil }
        guard let number = first.doubleValue else {
            throw FieldError(path: "\(daily.path).\(key)[0]", problem: "must be a number")
        }
        return number
    }

    private static func firstTime(
        _ daily: FieldReader, _ key: String, utcOffsetSeconds: Int64
    ) throws(FieldError) -> Timestamp? {
        guard let first = try ResponseBody.optionalArray(daily, key)?.first, !first.isNull else { return nil }
        return try ResponseBody.time(first, path: "\(daily.path).\(key)[0]", utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The WMO condition for a `weather_code` value, or `conditionNotReported` without one.
    private static func condition(_ code: Double?, path: String) throws(FieldError) -> Condition {
        guard let code else { return conditionNotReported }
        guard let integral = Int64(exactly: code) else { throw FieldError(path: path, problem: "must be an integer") }
        return .wmo(integral)
    }

    // MARK: - Forecast

    static func forecast(_ root: JSONValue, place: Place) throws(FieldError) -> ForecastReport {
        let top = try FieldReader(root, path: "$")
        let offset = try top.optionalInt("utc_offset_seconds") ?? 0
        let timezone = try top.optionalString("timezone")
        if top.has("hourly") {
            let entries = try hourlyEntries(top, utcOffsetSeconds: offset)
            return ForecastReport(
                place: place, timezone: timezone, utcOffsetSeconds: offset, entries: entries,
                daily: DailySummary.days(of: entries, utcOffsetSeconds: offset))
        }
        // A body with only daily arrays (what the recorded fixture is) still gives the days' lows and highs.
        guard top.has("daily") else { throw FieldError(path: "$.hourly", problem: "is required") }
        return ForecastReport(
            place: place, timezone: timezone, utcOffsetSeconds: offset, entries: [],
            daily: try dailySummaries(top, utcOffsetSeconds: offset))
    }

    private static func hourlyEntries(_ top: FieldReader, utcOffsetSeconds offset: Int64) throws(FieldError)
        -> [ForecastEntry]
    {
        let hourly = try FieldReader(top.members["hourly"], path: "$.hourly")
        let units = try SectionUnits(top.members["hourly_units"], path: "$.hourly_units")
        var times: [Timestamp] = []
        for (index, value) in try ResponseBody.array(hourly, "time").enumerated() {
            times.append(try ResponseBody.time(value, path: "$.hourly.time[\(index)]", utcOffsetSeconds: offset))
        }
        let count = times.count
        guard let temperatures = try ResponseBody.numbers(hourly, "temperature_2m", count: count) else {
            throw FieldError(path: "$.hourly.temperature_2m", problem: "is required")
        }
        let apparent = try ResponseBody.numbers(hourly, "apparent_temperature", count: count)
        let humidity = try ResponseBody.numbers(hourly, "relative_humidity_2m", count: count)
        let pressure = try ResponseBody.numbers(hourly, "pressure_msl", count: count)
        let windSpeed = try ResponseBody.numbers(hourly, "wind_speed_10m", count: count)
        let windDirection = try ResponseBody.numbers(hourly, "wind_direction_10m", count: count)
        let codes = try ResponseBody.numbers(hourly, "weather_code", count: count)
        let precipitation = try ResponseBody.numbers(hourly, "precipitation_probability", count: count)
        let temperatureUnit = try units.temperature("temperature_2m")
        let apparentUnit = try units.temperature("apparent_temperature")
        let windUnit = try units.speed("wind_speed_10m")

        var entries: [ForecastEntry] = []
        for index in threeHourlyIndices(times, utcOffsetSeconds: offset) {
            guard entries.count < maxEntries else { break }
            // A step without a temperature is no forecast; the model has nothing for that hour.
            guard let temperature = temperatures[index] else { continue }
            entries.append(
                ForecastEntry(
                    time: times[index], temperature: temperatureUnit.celsius(temperature),
                    feelsLike: apparent?[index].map(apparentUnit.celsius), humidity: humidity?[index],
                    pressure: pressure?[index], windSpeed: windSpeed?[index].map(windUnit.metresPerSecond),
                    windDirection: windDirection?[index], pop: precipitation?[index].map { $0 / 100 },
                    condition: try condition(codes?[index], path: "$.hourly.weather_code[\(index)]")))
        }
        return entries
    }

    /// The indices of the 3-hourly steps: times on a multiple of 3 h of the local clock, from the first on.
    ///
    /// Open-Meteo's hourly grid is whole local hours (with `timezone=auto`), so in a zone such as
    /// +05:30 no time at all falls on a UTC multiple of 3 h. Lining the steps up with local
    /// midnight also gives every local day the same eight steps to summarize. A grid with no such
    /// time (not seen from Open-Meteo) is stepped from its first time instead.
    static func threeHourlyIndices(_ times: [Timestamp], utcOffsetSeconds: Int64) -> [Int] {
        func isStep(_ time: Timestamp, from anchor: Int64) -> Bool {
            let remainder = (time.milliseconds - anchor) % stepMilliseconds
            return remainder == 0
        }
        guard
            let start = times.first(where: { isStep($0, from: -utcOffsetSeconds * 1000) }) ?? times.first
        else { return [] }
        return times.indices.filter { times[$0] >= start && isStep(times[$0], from: start.milliseconds) }
    }

    private static func dailySummaries(_ top: FieldReader, utcOffsetSeconds offset: Int64) throws(FieldError)
        -> [DailySummary]
    {
        let daily = try FieldReader(top.members["daily"], path: "$.daily")
        let units = try SectionUnits(top.members["daily_units"], path: "$.daily_units")
        let dates = try ResponseBody.array(daily, "time")
        guard let highs = try ResponseBody.numbers(daily, "temperature_2m_max", count: dates.count) else {
            throw FieldError(path: "$.daily.temperature_2m_max", problem: "is required")
        }
        guard let lows = try ResponseBody.numbers(daily, "temperature_2m_min", count: dates.count) else {
            throw FieldError(path: "$.daily.temperature_2m_min", problem: "is required")
        }
        let codes = try ResponseBody.numbers(daily, "weather_code", count: dates.count)
        let highUnit = try units.temperature("temperature_2m_max")
        let lowUnit = try units.temperature("temperature_2m_min")

        var days: [DailySummary] = []
        for index in dates.indices {
            guard days.count < maxDays else { break }
            guard let low = lows[index], let high = highs[index] else { continue }
            days.append(
                DailySummary(
                    date: try ResponseBody.localDate(
                        dates[index], path: "$.daily.time[\(index)]", utcOffsetSeconds: offset),
                    min: lowUnit.celsius(low), max: highUnit.celsius(high),
                    condition: try condition(codes?[index], path: "$.daily.weather_code[\(index)]")))
        }
        return days
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

/// The unit labels of one Open-Meteo section (`current_units`, `hourly_units`, `daily_units`).
///
/// A missing section or label means the unit weatherd asked for; an unknown label is an error
/// rather than a guess, since a wrong unit would silently mislead every client.
struct SectionUnits {
    let labels: FieldReader

    init(_ value: JSONValue?, path: String) throws(FieldError) {
        labels = try FieldReader(value, path: path, allowAbsent: true)
    }

    func temperature(_ key: String) throws(FieldError) -> TemperatureUnit {
        try TemperatureUnit(label: labels.optionalString(key), path: "\(labels.path).\(key)")
    }

    func speed(_ key: String) throws(FieldError) -> SpeedUnit {
        try SpeedUnit(label: labels.optionalString(key), path: "\(labels.path).\(key)")
    }
}
