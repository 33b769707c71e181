import WeatherDomain

/// Open-Meteo's Historical Weather API (`/v1/archive`, ERA5 reanalysis from 1940 to about five days ago), which
/// needs no key: the days of a place's past by local date. No I/O here: the caller fetches.
///
/// Its Historical Forecast API (`/v1/forecast` at its own host: the forecasts its models made, kept from 2022)
/// answers the same requests in the same form; `historicalForecast(baseURL:)` makes a client of it.
package struct OpenMeteoArchive: Sendable {
    /// The API's base URL, without trailing slashes.
    package let baseURL: String
    /// The path of the requests: `/v1/archive`, or `/v1/forecast` for the historical forecast.
    package let path: String

    /// The most days one request asks for: a year, as answers are paged.
    package static let maxDays = 366

    /// Creates an archive client; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(baseURL: String = "https://archive-api.open-meteo.com", path: String = "/v1/archive") {
        self.baseURL = RequestURL.base(baseURL)
        self.path = path
    }

    /// A client of the Historical Forecast API, whose past days begin on `historicalForecastFirstDay`.
    package static func historicalForecast(baseURL: String = "https://historical-forecast-api.open-meteo.com")
        -> OpenMeteoArchive
    {
        OpenMeteoArchive(baseURL: baseURL, path: "/v1/forecast")
    }

    /// The first day the Historical Forecast API keeps.
    package static let historicalForecastFirstDay = "2022-01-01"

    /// `open-meteo`, as recorded in events.
    package var name: String { "open-meteo" }

    /// The daily low, high and precipitation from `from` to `to` (`YYYY-MM-DD`, inclusive, local dates).
    package func daysRequest(lat: Double, lon: Double, from: String, to: String) -> ProviderRequest {
        let url = RequestURL.make(
            baseURL, path,
            [
                ("latitude", RequestURL.coordinate(lat)), ("longitude", RequestURL.coordinate(lon)),
                ("start_date", from),
                ("end_date", to), ("daily", "temperature_2m_min,temperature_2m_max,precipitation_sum"),
                ("timezone", "auto"),
            ])
        return ProviderRequest(url: url, auditURL: url)
    }

    /// The daily low, high, mean, precipitation, wind max and weather code from `from` to `to` (`YYYY-MM-DD`,
    /// inclusive, local dates, at most `maxDays`), and with `hourly` the hours' temperature, precipitation, wind
    /// and weather code; wind in m/s.
    package func historyRequest(lat: Double, lon: Double, from: String, to: String, hourly: Bool) -> ProviderRequest {
        var query: [(String, String)] = [
            ("latitude", RequestURL.coordinate(lat)), ("longitude", RequestURL.coordinate(lon)),
            ("start_date", from), ("end_date", to),
            (
                "daily",
                "temperature_2m_min,temperature_2m_max,temperature_2m_mean,precipitation_sum,wind_speed_10m_max,"
                    + "weather_code"
            ),
        ]
        if hourly { query.append(("hourly", "temperature_2m,precipitation,wind_speed_10m,weather_code")) }
        query += [("wind_speed_unit", "ms"), ("timezone", "auto")]
        let url = RequestURL.make(baseURL, path, query)
        return ProviderRequest(url: url, auditURL: url)
    }

    /// Reads `daily`: one `PastDay` per date, nil where ERA5 has no value yet (the last days before its
    /// horizon come as nulls). Units are checked: °C, mm and m/s, or the answer is refused.
    package func decodeDays(_ body: [UInt8]) throws(ProviderError) -> [PastDay] {
        try decode(body, hourly: false).days
    }

    /// Reads `daily` and, with `hourly`, the `hourly` block (`hours` is nil without it).
    package func decode(_ body: [UInt8], hourly: Bool) throws(ProviderError) -> (days: [PastDay], hours: [PastHour]?) {
        try ResponseBody.decodeOpenMeteo(body, provider: name) { root throws(FieldError) in
            (try Self.days(root), hourly ? try Self.hours(root) ?? [] : nil)
        }
    }

    private static let units = [
        ("temperature_2m_min", "°C"), ("temperature_2m_max", "°C"), ("temperature_2m_mean", "°C"),
        ("precipitation_sum", "mm"), ("wind_speed_10m_max", "m/s"), ("temperature_2m", "°C"), ("precipitation", "mm"),
        ("wind_speed_10m", "m/s"),
    ]

    private static func checkUnits(_ units: FieldReader) throws(FieldError) {
        for (key, unit) in Self.units {
            if let label = try units.optionalString(key), label != unit {
                throw FieldError(path: "\(units.path).\(key)", problem: "is \(label), not \(unit)")
            }
        }
    }

    static func days(_ root: JSONValue) throws(FieldError) -> [PastDay] {
        let top = try FieldReader(root, path: "$")
        let offset = try top.optionalInt("utc_offset_seconds") ?? 0
        let daily = try FieldReader(top.members["daily"], path: "$.daily")
        try checkUnits(FieldReader(top.members["daily_units"], path: "$.daily_units", allowAbsent: true))
        let times = try ResponseBody.array(daily, "time")
        let column = { (key: String) throws(FieldError) -> [Double?] in
            try ResponseBody.numbers(daily, key, count: times.count) ?? Array(repeating: nil, count: times.count)
        }
        let (lows, highs, means) = (
            try column("temperature_2m_min"), try column("temperature_2m_max"), try column("temperature_2m_mean")
        )
        let (sums, winds, codes) = (
            try column("precipitation_sum"), try column("wind_speed_10m_max"), try column("weather_code")
        )
        var days: [PastDay] = []
        days.reserveCapacity(times.count)
        for (index, time) in times.enumerated() {
            days.append(
                PastDay(
                    date: try ResponseBody.localDate(time, path: "$.daily.time[\(index)]", utcOffsetSeconds: offset),
                    low: lows[index], high: highs[index], precipitation: sums[index], mean: means[index],
                    windMax: winds[index], condition: codes[index].flatMap { Int64(exactly: $0) }.map(Condition.wmo)))
        }
        return days
    }

    static func hours(_ root: JSONValue) throws(FieldError) -> [PastHour]? {
        let top = try FieldReader(root, path: "$")
        guard top.members["hourly"] != nil else { return nil }
        let hourly = try FieldReader(top.members["hourly"], path: "$.hourly")
        try checkUnits(FieldReader(top.members["hourly_units"], path: "$.hourly_units", allowAbsent: true))
        let times = try ResponseBody.array(hourly, "time")
        let column = { (key: String) throws(FieldError) -> [Double?] in
            try ResponseBody.numbers(hourly, key, count: times.count) ?? Array(repeating: nil, count: times.count)
        }
        let (temperatures, sums, winds, codes) = (
            try column("temperature_2m"), try column("precipitation"), try column("wind_speed_10m"),
            try column("weather_code")
        )
        return try times.indices.map { index throws(FieldError) in
            guard let time = times[index].stringValue else {
                throw FieldError(
                    path: "$.hourly.time[\(index)]", problem: "must be a local time such as 1953-01-31T00:00")
            }
            return PastHour(
                time: time, temperature: temperatures[index], precipitation: sums[index], windSpeed: winds[index],
                condition: codes[index].flatMap { Int64(exactly: $0) }.map(Condition.wmo))
        }
    }
}
