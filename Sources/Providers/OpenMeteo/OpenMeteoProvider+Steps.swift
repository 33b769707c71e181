import WeatherDomain

extension OpenMeteoProvider {
    /// The condition of a time or day for which Open-Meteo sent no `weather_code`.
    ///
    /// The domain model requires a condition; -1 lies outside the WMO table, so this reads as
    /// unknown (theme `cloudy`, never severe, no HA name) instead of inventing an "overcast" sky.
    package static let conditionNotReported = Condition(scheme: "wmo", code: -1, text: "not reported")

    /// The WMO condition for a `weather_code` value, or `conditionNotReported` without one.
    static func condition(_ code: Double?, path: String) throws(FieldError) -> Condition {
        guard let code else { return conditionNotReported }
        guard let integral = Int64(exactly: code) else { throw FieldError(path: path, problem: "must be an integer") }
        return .wmo(integral)
    }

    // MARK: - Current

    static func current(_ root: JSONValue, place: Place) throws(FieldError) -> CurrentReport {
        let top = try FieldReader(root, path: "$")
        let offset = try top.optionalInt("utc_offset_seconds") ?? 0
        let current = try FieldReader(top.members["current"], path: "$.current")
        let units = try StepUnits(SectionUnits(top.members["current_units"], path: "$.current_units"))
        let daily = try FieldReader(top.members["daily"], path: "$.daily", allowAbsent: true)
        let dailyUnits = try SectionUnits(top.members["daily_units"], path: "$.daily_units")
        var warnings = units.warnings
        let low = dailyUnits.secondary("temperature_2m_min", &warnings, dailyUnits.temperature)
        let high = dailyUnits.secondary("temperature_2m_max", &warnings, dailyUnits.temperature)

        let time = try ResponseBody.time(current.members["time"], path: "$.current.time", utcOffsetSeconds: offset)
        guard
            let now = try units.entry(
                at: time, path: "$.current", value: { key throws(FieldError) in try current.optionalDouble(key) })
        else { throw FieldError(path: "$.current.temperature_2m", problem: "is required") }
        let conditions = CurrentConditions(
            observedAt: time, temperature: now.temperature, feelsLike: now.feelsLike, dewPoint: now.dewPoint,
            tempMin: try low.flatMap { unit throws(FieldError) in
                try firstNumber(daily, "temperature_2m_min").map(unit.celsius)
            },
            tempMax: try high.flatMap { unit throws(FieldError) in
                try firstNumber(daily, "temperature_2m_max").map(unit.celsius)
            }, humidity: now.humidity,
            pressure: now.pressure, cloudCover: now.cloudCover, visibility: now.visibility, windSpeed: now.windSpeed,
            windDirection: now.windDirection, windGust: now.windGust, uvIndex: now.uvIndex,
            precipitation: now.precipitation, pop: now.pop, isDay: now.isDay, condition: now.condition,
            sunrise: try firstTime(daily, "sunrise", utcOffsetSeconds: offset),
            sunset: try firstTime(daily, "sunset", utcOffsetSeconds: offset))
        var report = CurrentReport(
            place: place, timezone: try top.optionalString("timezone"), utcOffsetSeconds: offset, current: conditions)
        report.warnings = warnings
        return report
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
}

/// The units of a section's step variables, and how a step is read in them.
///
/// The temperature's unit is core: an unknown label fails the answer. Any other variable whose label
/// is unknown is left out of every step (nil), with a warning in `warnings`.
struct StepUnits {
    let temperature: TemperatureUnit
    let apparent: TemperatureUnit?
    let dewPoint: TemperatureUnit?
    let wind: SpeedUnit?
    let gust: SpeedUnit?
    let precipitation: PrecipitationUnit?
    let visibility: DistanceUnit?
    /// The variables left out, each with why.
    let warnings: [String]

    init(_ units: SectionUnits) throws(FieldError) {
        temperature = try units.temperature("temperature_2m")
        var warnings: [String] = []
        apparent = units.secondary("apparent_temperature", &warnings, units.temperature)
        dewPoint = units.secondary("dew_point_2m", &warnings, units.temperature)
        wind = units.secondary("wind_speed_10m", &warnings, units.speed)
        gust = units.secondary("wind_gusts_10m", &warnings, units.speed)
        precipitation = units.secondary("precipitation", &warnings, units.precipitation)
        visibility = units.secondary("visibility", &warnings, units.distance)
        self.warnings = warnings
    }

    /// The step at `time` in canonical units, from `value`, which gives a variable's raw number (nil when
    /// absent or null); nil when it has no temperature.
    func entry(
        at time: Timestamp, path: String, value: (String) throws(FieldError) -> Double?
    ) throws(FieldError) -> ForecastEntry? {
        guard let raw = try value("temperature_2m") else { return nil }
        /// A variable in canonical units; nil when its unit is unknown (the variable is left out).
        func converted(_ key: String, _ convert: ((Double) -> Double)?) throws(FieldError) -> Double? {
            guard let convert else { return nil }
            return try value(key).map(convert)
        }
        return ForecastEntry(
            time: time, temperature: temperature.celsius(raw),
            feelsLike: try converted("apparent_temperature", apparent.map { $0.celsius }),
            dewPoint: try converted("dew_point_2m", dewPoint.map { $0.celsius }),
            humidity: try value("relative_humidity_2m"), pressure: try value("pressure_msl"),
            cloudCover: try value("cloud_cover"),
            visibility: try converted("visibility", visibility.map { $0.metres }),
            windSpeed: try converted("wind_speed_10m", wind.map { $0.metresPerSecond }),
            windDirection: try value("wind_direction_10m"),
            windGust: try converted("wind_gusts_10m", gust.map { $0.metresPerSecond }),
            uvIndex: try value("uv_index"),
            precipitation: try converted("precipitation", precipitation.map { $0.millimetres }),
            // Open-Meteo's probability is a percentage.
            pop: try value("precipitation_probability").map { $0 / 100 },
            isDay: try value("is_day").map { $0 != 0 },
            condition: try OpenMeteoProvider.condition(try value("weather_code"), path: "\(path).weather_code"))
    }
}
