import WeatherDomain

extension OpenMeteoProvider {
    static func forecast(_ root: JSONValue, place: Place) throws(FieldError) -> ForecastReport {
        let top = try FieldReader(root, path: "$")
        let offset = try top.optionalInt("utc_offset_seconds") ?? 0
        let timezone = try top.optionalString("timezone")
        guard top.has("hourly") || top.has("daily") else { throw FieldError(path: "$.hourly", problem: "is required") }
        var warnings: [String] = []
        let hours = top.has("hourly") ? try hourlySteps(top, utcOffsetSeconds: offset, warnings: &warnings) : []
        // The provider's own daily figures; a body without them (a proxy's, an older request's) is summarized
        // from every hour it has, never from a sample of them, by the place's local dates.
        let zone = ZoneOffsets.place(
            timezone: timezone, utcOffsetSeconds: offset, around: hours.first?.time ?? Timestamp(milliseconds: 0))
        let daily =
            top.has("daily")
            ? try dailySummaries(top, utcOffsetSeconds: offset, warnings: &warnings)
            : DailySummary.days(of: hours, zone: zone, limit: maxDays)
        var report = ForecastReport(
            place: place, timezone: timezone, utcOffsetSeconds: offset,
            entries: ThreeHourlySteps.make(from: hours, utcOffsetSeconds: offset),
            hourly: Array(hours.prefix(ForecastReport.decodedHours)),
            daily: daily)
        report.warnings = warnings
        return report
    }

    /// Every hour of `hourly` that has a temperature (a step without one is no forecast: the model has
    /// nothing for that hour), in canonical units.
    private static func hourlySteps(
        _ top: FieldReader, utcOffsetSeconds offset: Int64, warnings: inout [String]
    ) throws(FieldError) -> [ForecastEntry] {
        let hourly = try FieldReader(top.members["hourly"], path: "$.hourly")
        let units = try StepUnits(SectionUnits(top.members["hourly_units"], path: "$.hourly_units"))
        warnings += units.warnings
        var times: [Timestamp] = []
        for (index, value) in try ResponseBody.array(hourly, "time").enumerated() {
            times.append(try ResponseBody.time(value, path: "$.hourly.time[\(index)]", utcOffsetSeconds: offset))
        }
        guard hourly.has("temperature_2m") else {
            throw FieldError(path: "$.hourly.temperature_2m", problem: "is required")
        }
        var columns: [String: [Double?]] = [:]
        for key in stepVariables {
            columns[key] = try ResponseBody.numbers(hourly, key, count: times.count)
        }
        var steps: [ForecastEntry] = []
        for index in times.indices {
            let step = try units.entry(at: times[index], path: "$.hourly[\(index)]") { key throws(FieldError) in
                columns[key]?[index]
            }
            if let step { steps.append(step) }
        }
        return steps
    }

    /// The days of `daily`, at most `maxDays`: the provider's own low, high, precipitation total, highest
    /// chance of precipitation and UV index, condition, sunrise and sunset of each local date.
    private static func dailySummaries(
        _ top: FieldReader, utcOffsetSeconds offset: Int64, warnings: inout [String]
    ) throws(FieldError) -> [DailySummary] {
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
        let sums = try ResponseBody.numbers(daily, "precipitation_sum", count: dates.count)
        let chances = try ResponseBody.numbers(daily, "precipitation_probability_max", count: dates.count)
        let uv = try ResponseBody.numbers(daily, "uv_index_max", count: dates.count)
        let sunrises = try ResponseBody.optionalArray(daily, "sunrise")
        let sunsets = try ResponseBody.optionalArray(daily, "sunset")
        let highUnit = try units.temperature("temperature_2m_max")
        let lowUnit = try units.temperature("temperature_2m_min")
        let sumUnit = units.secondary("precipitation_sum", &warnings, units.precipitation)

        func time(_ column: [JSONValue]?, _ key: String, _ index: Int) throws(FieldError) -> Timestamp? {
            guard let column else { return nil }
            guard column.count == dates.count else {
                throw FieldError(
                    path: "$.daily.\(key)", problem: "has \(column.count) values where time has \(dates.count)")
            }
            if column[index].isNull { return nil }
            return try ResponseBody.time(column[index], path: "$.daily.\(key)[\(index)]", utcOffsetSeconds: offset)
        }

        var days: [DailySummary] = []
        for index in dates.indices {
            guard days.count < maxDays else { break }
            guard let low = lows[index], let high = highs[index] else { continue }
            days.append(
                DailySummary(
                    date: try ResponseBody.localDate(
                        dates[index], path: "$.daily.time[\(index)]", utcOffsetSeconds: offset),
                    min: lowUnit.celsius(low), max: highUnit.celsius(high),
                    precipitation: sumUnit.flatMap { unit in sums?[index].map(unit.millimetres) },
                    pop: chances?[index].map { $0 / 100 },
                    uvIndex: uv?[index],
                    condition: try condition(codes?[index], path: "$.daily.weather_code[\(index)]"),
                    sunrise: try time(sunrises, "sunrise", index), sunset: try time(sunsets, "sunset", index)))
        }
        return days
    }
}
