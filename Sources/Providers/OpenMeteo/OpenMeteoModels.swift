import WeatherDomain

/// Open-Meteo's forecast API asked for several deterministic models at once (`models=a,b,…`): each model's daily
/// high, low, precipitation and weather code, read into one `ModelsPage`. No I/O here: the caller fetches.
///
/// With two models or more, every daily variable comes once per model, suffixed with the model's name as asked
/// (`temperature_2m_max_ecmwf_ifs025`, `temperature_2m_max_gfs_seamless`), all on one `time` axis. A model that
/// does not cover the point, or not a variable, answers nulls there or leaves its column out: both read as
/// missing, never as zero.
package struct OpenMeteoModels: Sendable {
    /// The forecast API's base URL (`--open-meteo-base-url`), without trailing slashes.
    package let baseURL: String

    /// Creates a client; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(baseURL: String = "https://api.open-meteo.com") {
        self.baseURL = RequestURL.base(baseURL)
    }

    /// `open-meteo`, as recorded in events.
    package var name: String { "open-meteo" }

    /// The daily variables asked of each model.
    static let variables = ["temperature_2m_max", "temperature_2m_min", "precipitation_sum", "weather_code"]

    /// The days of `models` (two or more) from local midnight today for 16 days, dates as local midnights in unix
    /// seconds.
    package func request(lat: Double, lon: Double, models: [String]) -> ProviderRequest {
        let url = RequestURL.make(
            baseURL, "/v1/forecast",
            [
                ("latitude", RequestURL.coordinate(lat)), ("longitude", RequestURL.coordinate(lon)),
                ("daily", Self.variables.joined(separator: ",")), ("models", models.joined(separator: ",")),
                ("forecast_days", String(OpenMeteoEnsemble.forecastDays)), ("timezone", "auto"),
                ("timeformat", "unixtime"),
            ])
        return ProviderRequest(url: url, auditURL: url)
    }

    /// Reads each of `models`' days from the suffixed columns of `daily`.
    ///
    /// - Throws: `ProviderError` for a body that is not JSON, Open-Meteo's `{"error":true}`, a unit other than
    ///   °C and mm, or a column of another length than `time`.
    package func decode(_ body: [UInt8], models: [String]) throws(ProviderError) -> ModelsPage {
        try ResponseBody.decodeOpenMeteo(body, provider: name) { root throws(FieldError) in
            try Self.page(root, models: models)
        }
    }

    static func page(_ root: JSONValue, models: [String]) throws(FieldError) -> ModelsPage {
        let top = try FieldReader(root, path: "$")
        let offset = try top.optionalInt("utc_offset_seconds") ?? 0
        let daily = try FieldReader(top.members["daily"], path: "$.daily")
        let units = try FieldReader(top.members["daily_units"], path: "$.daily_units", allowAbsent: true)
        let dates = try ResponseBody.array(daily, "time").enumerated().map { index, value throws(FieldError) in
            try ResponseBody.localDate(value, path: "$.daily.time[\(index)]", utcOffsetSeconds: offset)
        }
        var runs: [[ModelDay]] = []
        for model in models {
            for (variable, unit) in [
                ("temperature_2m_max", "°C"), ("temperature_2m_min", "°C"), ("precipitation_sum", "mm"),
            ] {
                if let label = try units.optionalString("\(variable)_\(model)"), label != unit {
                    throw FieldError(path: "$.daily_units.\(variable)_\(model)", problem: "is \(label), not \(unit)")
                }
            }
            let column = { (variable: String) throws(FieldError) -> [Double?] in
                try ResponseBody.numbers(daily, "\(variable)_\(model)", count: dates.count)
                    ?? Array(repeating: nil, count: dates.count)
            }
            let (highs, lows, sums, codes) = (
                try column("temperature_2m_max"), try column("temperature_2m_min"), try column("precipitation_sum"),
                try column("weather_code")
            )
            runs.append(
                dates.indices.map { index in
                    ModelDay(
                        date: dates[index], high: highs[index], low: lows[index], precipitation: sums[index],
                        condition: codes[index].flatMap { Int64(exactly: $0) }.map(Condition.wmo))
                })
        }
        return ModelsPage(
            models: models, timezone: try top.optionalString("timezone"), utcOffsetSeconds: offset, dates: dates,
            runs: runs)
    }
}
