import WeatherDomain

extension MetNorwayProvider {
    /// The spread MET Norway publishes in its `complete` product, read into a place's days and the hours from `now`:
    /// each step's `air_temperature_percentile_10` and `_90`, and over the hours until the next step (1, then 6)
    /// its `precipitation_amount_min` and `_max` and `probability_of_precipitation`
    /// (`EnsembleSummary.ofPercentiles`). `decodeForecast` reads it from the forecast's own answer.
    ///
    /// A step without percentiles adds nothing. A percentile MET Norway names another unit for than `celsius` (or
    /// `mm`, `%`) is left out.
    ///
    /// - Returns: nil for an answer without a step with both temperature percentiles (the `compact` product).
    /// - Throws: `FieldError` for a percentile that is not a number.
    func spread(_ timeline: Timeline, root: JSONValue, place: Place, now: Timestamp) throws(FieldError)
        -> EnsembleSummary?
    {
        let units = try FieldReader(
            root["properties"]?["meta"]?["units"], path: "$.properties.meta.units", allowAbsent: true)
        var usable: [String: Bool] = [:]
        for (key, unit) in [
            ("air_temperature_percentile_10", "celsius"), ("air_temperature_percentile_90", "celsius"),
            ("precipitation_amount_min", "mm"), ("precipitation_amount_max", "mm"),
            ("probability_of_precipitation", "%"),
        ] {
            usable[key] = try units.optionalString(key).map { $0 == unit } ?? true
        }
        func value(_ reader: FieldReader?, _ key: String) throws(FieldError) -> Double? {
            guard let reader, usable[key] ?? false else { return nil }
            return try reader.optionalDouble(key)
        }
        var steps: [PercentileStep] = []
        for (index, step) in timeline.steps.enumerated() {
            let hours: Int64? =
                if index + 1 < timeline.steps.count {
                    (timeline.steps[index + 1].time.milliseconds - step.time.milliseconds) / 3_600_000
                } else {
                    Self.periodHours.first { step.periods[$0] != nil }
                }
            let period = hours.flatMap { step.periods[$0] }
            let details = try period.map { period throws(FieldError) in
                try FieldReader(period.members["details"], path: "\(period.path).details", allowAbsent: true)
            }
            steps.append(
                PercentileStep(
                    time: step.time, hours: hours ?? 0,
                    temperature10: try value(step.instant, "air_temperature_percentile_10"),
                    temperature90: try value(step.instant, "air_temperature_percentile_90"),
                    precipitationMin: try value(details, "precipitation_amount_min"),
                    precipitationMax: try value(details, "precipitation_amount_max"),
                    probability: try value(details, "probability_of_precipitation").map { $0 / 100 }))
        }
        guard steps.contains(where: { $0.temperature10 != nil && $0.temperature90 != nil }) else { return nil }
        let first = timeline.steps[0].time
        let (timezone, offset) = zones.zone(lat: place.lat, lon: place.lon, at: first)
        let zone = ZoneOffsets.place(timezone: timezone, utcOffsetSeconds: offset, around: first)
        return EnsembleSummary.ofPercentiles(
            model: name, steps: steps, zone: zone, timezone: timezone, utcOffsetSeconds: offset, now: now)
    }
}
