import WeatherDomain

extension OpenWeatherMapOneCallProvider {
    // MARK: - Current

    func current(_ root: JSONValue, place: Place) throws(FieldError) -> CurrentReport {
        let top = try FieldReader(root, path: "$")
        let offset = try top.optionalInt("timezone_offset") ?? 0
        let timezone = try top.optionalString("timezone")
        let current = try FieldReader(top.members["current"], path: "$.current")
        let sunrise = try Self.sunTime(current, "sunrise")
        let sunset = try Self.sunTime(current, "sunset")
        let now = try step(current) { time, icon in
            // The Sun's own times when the body has both (it has neither in a polar day or night), else the icon.
            guard let sunrise, let sunset else { return OpenWeatherMapProvider.isDay(pod: nil, icon: icon) }
            return time >= sunrise && time < sunset
        }
        // Today's low and high are those of `daily[0]` when it is the same local date as the observation.
        let first = try ResponseBody.optionalArray(top, "daily")?.first
        let zone = ZoneOffsets.place(timezone: timezone, utcOffsetSeconds: offset, around: now.time)
        let today = try first.map { item throws(FieldError) in
            try day(FieldReader(item, path: "$.daily[0]"), zone: zone)
        }
        let isToday = today?.date == LocalDate.string(now.time, zone: zone)
        let conditions = CurrentConditions(
            observedAt: now.time, temperature: now.temperature, feelsLike: now.feelsLike, dewPoint: now.dewPoint,
            tempMin: isToday ? today?.min : nil, tempMax: isToday ? today?.max : nil, humidity: now.humidity,
            pressure: now.pressure, cloudCover: now.cloudCover, visibility: now.visibility, windSpeed: now.windSpeed,
            windDirection: now.windDirection, windGust: now.windGust, uvIndex: now.uvIndex,
            precipitation: now.precipitation, pop: now.pop, isDay: now.isDay, condition: now.condition,
            sunrise: sunrise, sunset: sunset)
        return CurrentReport(place: place, timezone: timezone, utcOffsetSeconds: offset, current: conditions)
    }

    /// A step of `hourly`, or `current` (which has the same members but no `pop`), in canonical units.
    ///
    /// `rain` and `snow` are objects here (`{"1h": 0.13}`), left out when there is none to report: with
    /// neither, the amount is unknown (nil).
    ///
    /// - Parameter isDay: whether it is day at the step's time, given its icon.
    func step(
        _ item: FieldReader, isDay: (Timestamp, String?) -> Bool?
    ) throws(FieldError) -> ForecastEntry {
        let unit = requestUnits.temperature
        let speed = requestUnits.speed
        let time = Timestamp(milliseconds: try item.int("dt") * 1000)
        let (condition, icon) = try OpenWeatherMapProvider.condition(item)
        return ForecastEntry(
            time: time, temperature: unit.celsius(try item.double("temp")),
            feelsLike: try item.optionalDouble("feels_like").map(unit.celsius),
            dewPoint: try item.optionalDouble("dew_point").map(unit.celsius),
            humidity: try item.optionalDouble("humidity"), pressure: try item.optionalDouble("pressure"),
            cloudCover: try item.optionalDouble("clouds"), visibility: try item.optionalDouble("visibility"),
            windSpeed: try item.optionalDouble("wind_speed").map(speed.metresPerSecond),
            windDirection: try item.optionalDouble("wind_deg"),
            windGust: try item.optionalDouble("wind_gust").map(speed.metresPerSecond),
            uvIndex: try item.optionalDouble("uvi"),
            precipitation: try OpenWeatherMapProvider.precipitation(item, "1h"),
            pop: try item.optionalDouble("pop"), isDay: isDay(time, icon), condition: condition)
    }

    /// A sunrise or sunset; nil when absent, or 0 as the API has sent for a Sun that neither rises nor sets.
    static func sunTime(_ item: FieldReader, _ key: String) throws(FieldError) -> Timestamp? {
        guard let seconds = try item.optionalInt(key), seconds != 0 else { return nil }
        return Timestamp(milliseconds: seconds * 1000)
    }

    // MARK: - Forecast

    func forecast(_ root: JSONValue, place: Place) throws(FieldError) -> ForecastReport {
        let top = try FieldReader(root, path: "$")
        let offset = try top.optionalInt("timezone_offset") ?? 0
        let timezone = try top.optionalString("timezone")
        guard let items = try ResponseBody.optionalArray(top, "hourly") else {
            throw FieldError(path: "$.hourly", problem: "is required")
        }
        var hours: [ForecastEntry] = []
        for (index, item) in items.prefix(Self.maxHours).enumerated() {
            hours.append(
                try step(FieldReader(item, path: "$.hourly[\(index)]")) { _, icon in
                    OpenWeatherMapProvider.isDay(pod: nil, icon: icon)
                })
        }
        let zone = ZoneOffsets.place(
            timezone: timezone, utcOffsetSeconds: offset, around: hours.first?.time ?? Timestamp(milliseconds: 0))
        var days: [DailySummary] = []
        if let items = try ResponseBody.optionalArray(top, "daily") {
            for (index, item) in items.prefix(Self.maxDays).enumerated() {
                days.append(try day(FieldReader(item, path: "$.daily[\(index)]"), zone: zone))
            }
        } else {
            // A body without days (a proxy's, or one asked with `exclude=daily`): each local date from every hour.
            days = DailySummary.days(of: hours, zone: zone, limit: Self.maxDays)
        }
        return ForecastReport(
            place: place, timezone: timezone, utcOffsetSeconds: offset,
            // The 3-hourly steps are made from the hours as Open-Meteo's are (`ThreeHourlySteps`): on the local clock's multiples of
            // 3 h, each with its three hours' precipitation and highest chance of it.
            entries: ThreeHourlySteps.make(from: hours, utcOffsetSeconds: offset), hourly: hours, daily: days)
    }

    /// A day of `daily`: its local date (its `dt`, local noon, on the place's clocks), the provider's own low and
    /// high (`temp.min`, `temp.max`), chance and total of precipitation, UV index, condition and Sun times.
    ///
    /// `rain` and `snow` are plain numbers (mm) here, left out when there is none to report.
    func day(_ item: FieldReader, zone: ZoneOffsets) throws(FieldError) -> DailySummary {
        let unit = requestUnits.temperature
        let temp = try FieldReader(item.members["temp"], path: "\(item.path).temp")
        let (condition, _) = try OpenWeatherMapProvider.condition(item)
        let amounts = [try item.optionalDouble("rain"), try item.optionalDouble("snow")].compactMap { $0 }
        return DailySummary(
            date: LocalDate.string(Timestamp(milliseconds: try item.int("dt") * 1000), zone: zone),
            min: unit.celsius(try temp.double("min")), max: unit.celsius(try temp.double("max")),
            precipitation: amounts.isEmpty ? nil : amounts.reduce(0, +), pop: try item.optionalDouble("pop"),
            uvIndex: try item.optionalDouble("uvi"), condition: condition, sunrise: try Self.sunTime(item, "sunrise"),
            sunset: try Self.sunTime(item, "sunset"))
    }
}
