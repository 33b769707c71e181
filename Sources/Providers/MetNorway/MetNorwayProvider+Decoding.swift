import WeatherDomain

extension MetNorwayProvider {
    /// One step of `properties.timeseries`: its time, its `instant.details` and its summaries by their hours
    /// (1, 6, 12), in canonical units.
    struct Step {
        var time: Timestamp
        var instant: FieldReader
        var periods: [Int64: FieldReader]
    }

    /// The steps of a body and the unit warnings; a step without `air_temperature` is no forecast and is left out.
    struct Timeline {
        var steps: [Step]
        var units: MetNorwayUnits
    }

    /// The periods of a step's summaries, shortest first.
    static let periodHours: [Int64] = [1, 6, 12]

    static func timeline(_ root: JSONValue) throws(FieldError) -> Timeline {
        let properties = try FieldReader(try FieldReader(root, path: "$").members["properties"], path: "$.properties")
        let meta = try FieldReader(properties.members["meta"], path: "$.properties.meta", allowAbsent: true)
        let units = try MetNorwayUnits(
            try FieldReader(meta.members["units"], path: "$.properties.meta.units", allowAbsent: true))
        var steps: [Step] = []
        for (index, item) in try ResponseBody.array(properties, "timeseries").enumerated() {
            let path = "$.properties.timeseries[\(index)]"
            let step = try FieldReader(item, path: path)
            let data = try FieldReader(step.members["data"], path: "\(path).data")
            let instant = try FieldReader(data.members["instant"], path: "\(path).data.instant")
            let details = try FieldReader(instant.members["details"], path: "\(path).data.instant.details")
            guard try details.optionalDouble("air_temperature") != nil else { continue }
            var periods: [Int64: FieldReader] = [:]
            for hours in periodHours {
                let key = "next_\(hours)_hours"
                if data.has(key) { periods[hours] = try FieldReader(data.members[key], path: "\(path).data.\(key)") }
            }
            steps.append(Step(time: try step.timestamp("time"), instant: details, periods: periods))
        }
        guard !steps.isEmpty else {
            throw FieldError(path: "$.properties.timeseries", problem: "has no step with an air_temperature")
        }
        return Timeline(steps: steps, units: units)
    }

    /// The step as a forecast entry over `hours`: the instant's values, and the precipitation, its chance and
    /// the symbol of the summary of those hours. Without such a summary (the last step has none) the entry has
    /// no precipitation and the symbol of its shortest summary, else the condition `not reported`.
    static func entry(_ step: Step, hours: Int64?, units: MetNorwayUnits) throws(FieldError) -> ForecastEntry {
        let period = hours.flatMap { step.periods[$0] }
        let periodDetails = try FieldReader(
            period?.members["details"], path: "\(period?.path ?? "").details", allowAbsent: true)
        let symbolSource = period ?? periodHours.lazy.compactMap { step.periods[$0] }.first
        let summary = try FieldReader(
            symbolSource?.members["summary"], path: "\(symbolSource?.path ?? "").summary", allowAbsent: true)
        let symbol = try summary.optionalString("symbol_code")
        let instant = step.instant
        func value(_ reader: FieldReader, _ key: String) throws(FieldError) -> Double? {
            units.usable(key) ? try reader.optionalDouble(key) : nil
        }
        return ForecastEntry(
            time: step.time, temperature: try instant.double("air_temperature"),
            dewPoint: try value(instant, "dew_point_temperature"), humidity: try value(instant, "relative_humidity"),
            pressure: try value(instant, "air_pressure_at_sea_level"),
            cloudCover: try value(instant, "cloud_area_fraction"), windSpeed: try value(instant, "wind_speed"),
            windDirection: try value(instant, "wind_from_direction"),
            windGust: try value(instant, "wind_speed_of_gust"),
            precipitation: try value(periodDetails, "precipitation_amount"),
            pop: try value(periodDetails, "probability_of_precipitation").map { $0 / 100 },
            isDay: symbol.flatMap { MetNorwaySymbol.split($0).isDay },
            condition: symbol.map(MetNorwaySymbol.condition) ?? OpenMeteoProvider.conditionNotReported)
    }

    /// The hourly steps: every step with a next-hour summary, read over that hour.
    static func hours(_ timeline: Timeline) throws(FieldError) -> [ForecastEntry] {
        var hours: [ForecastEntry] = []
        for step in timeline.steps where step.periods[1] != nil {
            hours.append(try entry(step, hours: 1, units: timeline.units))
        }
        return hours
    }

    /// Every step over the hours until the next one (1, then 6 once the answer turns 6-hourly), so that their
    /// precipitation adds up without counting an hour twice; the last step over its shortest summary.
    static func spans(_ timeline: Timeline) throws(FieldError) -> [ForecastEntry] {
        var spans: [ForecastEntry] = []
        for (index, step) in timeline.steps.enumerated() {
            let hours: Int64? =
                if index + 1 < timeline.steps.count {
                    (timeline.steps[index + 1].time.milliseconds - step.time.milliseconds) / 3_600_000
                } else {
                    periodHours.first { step.periods[$0] != nil }
                }
            spans.append(try entry(step, hours: hours, units: timeline.units))
        }
        return spans
    }

    func forecast(_ timeline: Timeline, place: Place) throws(FieldError) -> ForecastReport {
        let first = timeline.steps[0].time
        let (timezone, offset) = zones.zone(lat: place.lat, lon: place.lon, at: first)
        let zone = ZoneOffsets.place(timezone: timezone, utcOffsetSeconds: offset, around: first)
        let hours = try Self.hours(timeline)
        var report = ForecastReport(
            place: place, timezone: timezone, utcOffsetSeconds: offset,
            entries: ThreeHourlySteps.make(from: hours, utcOffsetSeconds: offset),
            hourly: Array(hours.prefix(ForecastReport.decodedHours)),
            // No daily figures in the answer: each local date from every step of it, each over its own hours.
            daily: DailySummary.days(of: try Self.spans(timeline), zone: zone))
        report.warnings = timeline.units.warnings
        return report
    }

    func current(_ timeline: Timeline, place: Place) throws(FieldError) -> CurrentReport {
        let step = timeline.steps.first { $0.periods[1] != nil } ?? timeline.steps[0]
        let now = try Self.entry(step, hours: 1, units: timeline.units)
        let (timezone, offset) = zones.zone(lat: place.lat, lon: place.lon, at: now.time)
        // The precipitation and its chance are the coming hour's: MET Norway forecasts, it does not observe.
        let conditions = CurrentConditions(
            observedAt: now.time, temperature: now.temperature, dewPoint: now.dewPoint, humidity: now.humidity,
            pressure: now.pressure, cloudCover: now.cloudCover, windSpeed: now.windSpeed,
            windDirection: now.windDirection, windGust: now.windGust, precipitation: now.precipitation,
            pop: now.pop, isDay: now.isDay, condition: now.condition)
        var report = CurrentReport(place: place, timezone: timezone, utcOffsetSeconds: offset, current: conditions)
        report.warnings = timeline.units.warnings
        return report
    }
}
