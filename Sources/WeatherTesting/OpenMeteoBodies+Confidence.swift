import WeatherDomain

extension OpenMeteoBodies {
    /// An Ensemble API answer for one model, in its documented shape (`models=<one>`, so no model suffix): the
    /// control run as `temperature_2m` and `precipitation`, then `members` more as `_member01`, `_member02`, …,
    /// hourly from `start` (a local midnight) for `days` days, times in unix seconds.
    ///
    /// - Parameters:
    ///   - temperature: member `m`'s (0 the control run) temperature at hour `h`, nil for a null.
    ///   - precipitation: its precipitation in the hour, nil for a null.
    package static func ensemble(
        start: Timestamp, members: Int, days: Int, utcOffsetSeconds: Int64 = 3600, timezone: String = "Europe/Berlin",
        temperature: (_ member: Int, _ hour: Int) -> Double?, precipitation: (_ member: Int, _ hour: Int) -> Double?
    ) -> [UInt8] {
        let hours = days * 24
        let first = start.milliseconds / 1000
        var hourly: [String: JSONValue] = ["time": .array((0..<hours).map { .int(first + Int64($0) * 3600) })]
        for member in 0...members {
            let suffix = member == 0 ? "" : "_member" + (member < 10 ? "0\(member)" : "\(member)")
            hourly["temperature_2m" + suffix] = .array(
                (0..<hours).map { temperature(member, $0).map(JSONValue.double) ?? .null })
            hourly["precipitation" + suffix] = .array(
                (0..<hours).map { precipitation(member, $0).map(JSONValue.double) ?? .null })
        }
        let body: JSONValue = [
            "latitude": 52.52, "longitude": 13.4, "utc_offset_seconds": .int(utcOffsetSeconds),
            "timezone": .string(timezone),
            "hourly_units": ["time": "unixtime", "temperature_2m": "°C", "precipitation": "mm"],
            "hourly": .object(hourly),
        ]
        return body.jsonBytes
    }

    /// A forecast answer for several models (`models=a,b,…`): each daily variable once per model, suffixed with its
    /// name, `days` days of local midnights from `start`; a model `figures` gives nothing for has no columns.
    ///
    /// - Parameter figures: a model's (high, low, precipitation, WMO code) on day `d`, nil for none that day.
    package static func models(
        start: Timestamp, models: [String], days: Int, utcOffsetSeconds: Int64 = 3600,
        timezone: String = "Europe/Berlin",
        figures: (_ model: String, _ day: Int) -> (high: Double, low: Double, rain: Double, code: Int64)?
    ) -> [UInt8] {
        let first = start.milliseconds / 1000
        var daily: [String: JSONValue] = ["time": .array((0..<days).map { .int(first + Int64($0) * 86_400) })]
        var units: [String: JSONValue] = ["time": "unixtime"]
        for model in models {
            let values = (0..<days).map { figures(model, $0) }
            guard values.contains(where: { $0 != nil }) else { continue }
            daily["temperature_2m_max_\(model)"] = .array(values.map { $0.map { .double($0.high) } ?? .null })
            daily["temperature_2m_min_\(model)"] = .array(values.map { $0.map { .double($0.low) } ?? .null })
            daily["precipitation_sum_\(model)"] = .array(values.map { $0.map { .double($0.rain) } ?? .null })
            daily["weather_code_\(model)"] = .array(values.map { $0.map { .int($0.code) } ?? .null })
            units["temperature_2m_max_\(model)"] = "°C"
            units["precipitation_sum_\(model)"] = "mm"
        }
        let body: JSONValue = [
            "latitude": 52.52, "longitude": 13.4, "utc_offset_seconds": .int(utcOffsetSeconds),
            "timezone": .string(timezone), "daily_units": .object(units), "daily": .object(daily),
        ]
        return body.jsonBytes
    }
}
