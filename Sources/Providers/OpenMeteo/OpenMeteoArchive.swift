import WeatherDomain

/// Open-Meteo's Historical Weather API (`/v1/archive`, ERA5 reanalysis from 1940 to about five days ago), which
/// needs no key: the days of a place's past by local date. No I/O here: the caller fetches.
package struct OpenMeteoArchive: Sendable {
    /// The API's base URL, without trailing slashes.
    package let baseURL: String

    /// The most days one request asks for: a year, as answers are paged.
    package static let maxDays = 366

    /// Creates an archive client; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(baseURL: String = "https://archive-api.open-meteo.com") {
        self.baseURL = RequestURL.base(baseURL)
    }

    /// `open-meteo`, as recorded in events.
    package var name: String { "open-meteo" }

    /// The daily low, high and precipitation from `from` to `to` (`YYYY-MM-DD`, inclusive, local dates).
    package func daysRequest(lat: Double, lon: Double, from: String, to: String) -> ProviderRequest {
        let url = RequestURL.make(
            baseURL, "/v1/archive",
            [
                ("latitude", RequestURL.coordinate(lat)), ("longitude", RequestURL.coordinate(lon)),
                ("start_date", from),
                ("end_date", to), ("daily", "temperature_2m_min,temperature_2m_max,precipitation_sum"),
                ("timezone", "auto"),
            ])
        return ProviderRequest(url: url, auditURL: url)
    }

    /// Reads `daily`: one `PastDay` per date, nil where ERA5 has no value yet (the last days before its
    /// horizon come as nulls). Units are checked: °C and mm, or the answer is refused.
    package func decodeDays(_ body: [UInt8]) throws(ProviderError) -> [PastDay] {
        let root = try ResponseBody.parse(body, provider: name)
        if root["error"]?.boolValue == true {
            throw .badBody(name, "error: \(root["reason"]?.stringValue ?? "no reason given")")
        }
        do throws(FieldError) {
            return try Self.days(root)
        } catch {
            throw .badBody(name, error.description)
        }
    }

    static func days(_ root: JSONValue) throws(FieldError) -> [PastDay] {
        let top = try FieldReader(root, path: "$")
        let offset = try top.optionalInt("utc_offset_seconds") ?? 0
        let daily = try FieldReader(top.members["daily"], path: "$.daily")
        let units = try FieldReader(top.members["daily_units"], path: "$.daily_units", allowAbsent: true)
        for (key, unit) in [
            ("temperature_2m_min", "°C"), ("temperature_2m_max", "°C"), ("precipitation_sum", "mm"),
        ] {
            if let label = try units.optionalString(key), label != unit {
                throw FieldError(path: "$.daily_units.\(key)", problem: "is \(label), not \(unit)")
            }
        }
        let times = try ResponseBody.array(daily, "time")
        let lows = try ResponseBody.numbers(daily, "temperature_2m_min", count: times.count)
        let highs = try ResponseBody.numbers(daily, "temperature_2m_max", count: times.count)
        let sums = try ResponseBody.numbers(daily, "precipitation_sum", count: times.count)
        var days: [PastDay] = []
        days.reserveCapacity(times.count)
        for (index, time) in times.enumerated() {
            days.append(
                PastDay(
                    date: try ResponseBody.localDate(time, path: "$.daily.time[\(index)]", utcOffsetSeconds: offset),
                    low: lows?[index] ?? nil, high: highs?[index] ?? nil, precipitation: sums?[index] ?? nil))
        }
        return days
    }
}
