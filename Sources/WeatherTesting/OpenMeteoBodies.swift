import WeatherDomain

/// Open-Meteo response bodies in the shape weatherd requests (unix times, m/s), for tests.
package enum OpenMeteoBodies {
    /// A current-weather body.
    package static func current(
        temperature: Double, code: Int64 = 3, time: Timestamp = Timestamp(milliseconds: 1_795_348_800_000),
        utcOffsetSeconds: Int64 = 3600, timezone: String = "Europe/Berlin"
    ) -> [UInt8] {
        let seconds = time.milliseconds / 1000
        let body: JSONValue = [
            "latitude": 52.52, "longitude": 13.41, "utc_offset_seconds": .int(utcOffsetSeconds),
            "timezone": .string(timezone),
            "current": [
                "time": .int(seconds), "interval": 900, "temperature_2m": .double(temperature),
                "relative_humidity_2m": 80, "apparent_temperature": .double(temperature - 2),
                "weather_code": .int(code),
                "pressure_msl": 1012.5, "wind_speed_10m": 4.2, "wind_direction_10m": 250, "wind_gusts_10m": 9.5,
            ],
            "daily": [
                "time": [.int(seconds - seconds % 86_400)], "temperature_2m_max": [.double(temperature + 3)],
                "temperature_2m_min": [.double(temperature - 4)], "sunrise": [.int(seconds - 10_000)],
                "sunset": [.int(seconds + 20_000)],
            ],
        ]
        return body.jsonBytes
    }

    /// A forecast body as weatherd requests it: `hours` hourly values from `start`, temperatures rising by
    /// 0.5 °C an hour, and, unless `days` is 0, that many days of Open-Meteo's own daily figures from
    /// `start`'s local date.
    ///
    /// The daily figures are deliberately not the hours' extremes (day `i`'s low is `i - 10.25` °C, its high
    /// `i + 30.75` °C), so a test can tell which an answer comes from. Hours from local 06:00 to 18:00 are
    /// `is_day` 1; precipitation is 0.2 mm an hour, its probability 40 %. Like Open-Meteo, every local time
    /// (the days' midnights, `is_day`) is at the one `utcOffsetSeconds`, even across a change of daylight
    /// saving time in `timezone`.
    package static func forecast(
        start: Timestamp = Timestamp(milliseconds: 1_795_348_800_000), hours: Int = 120, code: Int64 = 61,
        utcOffsetSeconds: Int64 = 3600, timezone: String = "Europe/Berlin", days: Int = 16
    ) -> [UInt8] {
        let first = start.milliseconds / 1000
        let seconds = (0..<hours).map { first + Int64($0) * 3600 }
        let times: [JSONValue] = seconds.map { .int($0) }
        let localHour = { (time: Int64) in ((time + utcOffsetSeconds) % 86_400 + 86_400) % 86_400 / 3600 }
        var body: [String: JSONValue] = [
            "latitude": 52.52, "longitude": 13.41, "utc_offset_seconds": .int(utcOffsetSeconds),
            "timezone": .string(timezone),
            "hourly": [
                "time": .array(times),
                "temperature_2m": .array((0..<hours).map { .double(Double($0) * 0.5) }),
                "apparent_temperature": .array((0..<hours).map { .double(Double($0) * 0.5 - 1) }),
                "relative_humidity_2m": .array((0..<hours).map { _ in 70 }),
                "dew_point_2m": .array((0..<hours).map { .double(Double($0) * 0.5 - 4) }),
                "pressure_msl": .array((0..<hours).map { _ in 1010.0 }),
                "cloud_cover": .array((0..<hours).map { _ in 75 }),
                "visibility": .array((0..<hours).map { _ in 24_000.0 }),
                "wind_speed_10m": .array((0..<hours).map { _ in 3.0 }),
                "wind_direction_10m": .array((0..<hours).map { _ in 180 }),
                "wind_gusts_10m": .array((0..<hours).map { _ in 7.5 }),
                "uv_index": .array(seconds.map { (6..<18).contains(localHour($0)) ? 1.5 : 0.0 }),
                "precipitation": .array((0..<hours).map { _ in 0.2 }),
                "weather_code": .array((0..<hours).map { _ in .int(code) }),
                "precipitation_probability": .array((0..<hours).map { _ in 40 }),
                "is_day": .array(seconds.map { (6..<18).contains(localHour($0)) ? 1 : 0 }),
            ],
        ]
        if days > 0 {
            let midnight = (first + utcOffsetSeconds) / 86_400 * 86_400 - utcOffsetSeconds
            let dayStarts = (0..<days).map { midnight + Int64($0) * 86_400 }
            body["daily"] = [
                "time": .array(dayStarts.map { .int($0) }),
                "weather_code": .array((0..<days).map { _ in .int(code) }),
                "temperature_2m_max": .array((0..<days).map { .double(Double($0) + 30.75) }),
                "temperature_2m_min": .array((0..<days).map { .double(Double($0) - 10.25) }),
                "precipitation_sum": .array((0..<days).map { _ in 4.8 }),
                "precipitation_probability_max": .array((0..<days).map { _ in 65 }),
                "uv_index_max": .array((0..<days).map { _ in 2.5 }),
                "sunrise": .array(dayStarts.map { .int($0 + 8 * 3600) }),
                "sunset": .array(dayStarts.map { .int($0 + 16 * 3600) }),
            ]
        }
        return JSONValue.object(body).jsonBytes
    }

    /// A geocoding body with the given candidates (name, country code, admin1, lat, lon).
    package static func geocode(_ places: [(String, String, String?, Double, Double)]) -> [UInt8] {
        let results: [JSONValue] = places.map { name, country, admin1, lat, lon in
            var object: [String: JSONValue] = [
                "name": .string(name), "country_code": .string(country), "latitude": .double(lat),
                "longitude": .double(lon),
            ]
            if let admin1 { object["admin1"] = .string(admin1) }
            return .object(object)
        }
        return JSONValue.object(["results": .array(results), "generationtime_ms": 0.4]).jsonBytes
    }
}
