import WeatherDomain

/// Turns canonical reports (°C, m/s, hPa) into answers in the requested units.
enum WeatherFormatting {
    static func temperature(_ celsius: Double, _ units: Units) -> Double {
        switch units {
        case .metric: round(celsius)
        case .imperial: round(celsius * 9 / 5 + 32)
        case .standard: round(celsius + 273.15)
        }
    }

    static func speed(_ metresPerSecond: Double, _ units: Units) -> Double {
        units == .imperial ? round(metresPerSecond * 2.236_936_292) : round(metresPerSecond)
    }

    /// Two decimals: more would be noise, and stable numbers compare well in clients' tests.
    static func round(_ value: Double) -> Double { Rounding.round(value, decimals: 2) }

    /// The unit of each quantity, so a client needs no table.
    static func unitNames(_ units: Units) -> JSONValue {
        let temperature = units == .metric ? "°C" : units == .imperial ? "°F" : "K"
        return .object([
            "system": .string(units.rawValue), "temperature": .string(temperature),
            "windSpeed": .string(units == .imperial ? "mph" : "m/s"), "pressure": "hPa", "humidity": "%",
            "visibility": "m", "pop": "0..1",
        ])
    }

    static func location(_ place: Place, timezone: String?, utcOffsetSeconds: Int64) -> JSONValue {
        guard case .object(var object) = place.json else { return place.json }
        if let timezone { object["timezone"] = .string(timezone) }
        object["utcOffsetSeconds"] = .int(utcOffsetSeconds)
        return .object(object)
    }

    static func condition(_ condition: Condition) -> JSONValue {
        .object([
            "code": .int(condition.code), "scheme": .string(condition.scheme), "text": .string(condition.text),
            "theme": .string(condition.theme.rawValue), "severe": .bool(condition.isSevere),
        ])
    }

    static func current(_ answer: FetchAnswer<CurrentReport>, units: Units) -> JSONValue {
        let report = answer.value
        let now = report.current
        var current: [String: JSONValue] = [
            "temperature": .double(temperature(now.temperature, units)), "condition": condition(now.condition),
        ]
        let temperatures: [(String, Double?)] = [
            ("feelsLike", now.feelsLike), ("tempMin", now.tempMin), ("tempMax", now.tempMax),
        ]
        for (key, value) in temperatures { if let value { current[key] = .double(temperature(value, units)) } }
        let speeds: [(String, Double?)] = [("windSpeed", now.windSpeed), ("windGust", now.windGust)]
        for (key, value) in speeds { if let value { current[key] = .double(speed(value, units)) } }
        let plain: [(String, Double?)] = [
            ("humidity", now.humidity), ("pressure", now.pressure), ("windDirection", now.windDirection),
            ("visibility", now.visibility),
        ]
        for (key, value) in plain { if let value { current[key] = .double(round(value)) } }
        if let sunrise = now.sunrise { current["sunrise"] = .string(sunrise.description) }
        if let sunset = now.sunset { current["sunset"] = .string(sunset.description) }
        return .object([
            "location": location(report.place, timezone: report.timezone, utcOffsetSeconds: report.utcOffsetSeconds),
            "units": unitNames(units), "current": .object(current), "theme": .string(now.condition.theme.rawValue),
            "observedAt": .string(now.observedAt.description), "fetchedAt": .string(answer.fetchedAt.description),
            "source": .string(answer.source), "stale": .bool(answer.stale), "provider": .string(answer.provider),
        ])
    }

    /// Adds the Sun and Moon of a local date at a place to a daily entry, computed locally
    /// (`SolarDay`, `MoonPhase`): `dawn`, `sunrise`, `zenith`, `sunset` and `dusk` as UTC times, each
    /// left out when it does not happen that day, `polar` (`day` or `night`) when the Sun neither rises
    /// nor sets, `moonPhase` (0 new, 0.5 full, up to 1; three decimals) and `moonDay` (days since new
    /// moon; one decimal) at local noon. Nothing is added for a date that is not `YYYY-MM-DD`.
    static func sky(on date: String, at place: Place, utcOffsetSeconds: Int64, into object: inout [String: JSONValue]) {
        if let sun = SolarDay.compute(
            lat: place.lat, lon: place.lon, localDate: date, utcOffsetSeconds: utcOffsetSeconds)
        {
            let times: [(String, Timestamp?)] = [
                ("dawn", sun.dawn), ("sunrise", sun.sunrise), ("zenith", sun.zenith), ("sunset", sun.sunset),
                ("dusk", sun.dusk),
            ]
            for (key, time) in times { if let time { object[key] = .string(time.description) } }
            if let polar = sun.polar { object["polar"] = .string(polar.rawValue) }
        }
        if let moon = MoonPhase.onLocalDate(date, utcOffsetSeconds: utcOffsetSeconds) {
            // A phase that rounds to 1 is the new moon: 0.
            let phase = Rounding.round(moon.phase, decimals: 3)
            object["moonPhase"] = .double(phase >= 1 ? 0 : phase)
            object["moonDay"] = .double(Rounding.round(moon.age, decimals: 1))
        }
    }

    /// The forecast answer; steps that ended before `now` are left out (Open-Meteo's hourly data
    /// starts at local midnight), while the daily summaries keep the whole local day.
    ///
    /// - Parameters:
    ///   - days: the days kept (all when nil); `full` keeps the entries up to the end of the last day kept
    ///     (entry times are UTC, compared by their date), `summary` none.
    static func forecast(
        _ answer: FetchAnswer<ForecastReport>, units: Units, now: Timestamp, days: Int? = nil,
        detail: ForecastDetail = .full
    ) -> JSONValue {
        let report = answer.value
        let upcoming = report.entries.filter { $0.time.milliseconds + 3 * 3_600_000 > now.milliseconds }
        let kept = days.map { Array(report.daily.prefix($0)) } ?? report.daily
        let lastDate = days == nil ? nil : kept.map(\.date).max() ?? ""
        let shown = upcoming.filter { entry in
            detail == .full && (lastDate.map { entry.time.description.prefix(10) <= $0 } ?? true)
        }
        let entries: [JSONValue] = shown.map { entry in
            var object: [String: JSONValue] = [
                "time": .string(entry.time.description), "temperature": .double(temperature(entry.temperature, units)),
                "condition": condition(entry.condition),
            ]
            if let value = entry.feelsLike { object["feelsLike"] = .double(temperature(value, units)) }
            if let value = entry.windSpeed { object["windSpeed"] = .double(speed(value, units)) }
            let plain: [(String, Double?)] = [
                ("humidity", entry.humidity), ("pressure", entry.pressure), ("windDirection", entry.windDirection),
                ("pop", entry.pop),
            ]
            for (key, value) in plain { if let value { object[key] = .double(round(value)) } }
            return .object(object)
        }
        let daily: [JSONValue] = kept.map { day in
            var object: [String: JSONValue] = [
                "date": .string(day.date), "min": .double(temperature(day.min, units)),
                "max": .double(temperature(day.max, units)), "condition": condition(day.condition),
            ]
            sky(on: day.date, at: report.place, utcOffsetSeconds: report.utcOffsetSeconds, into: &object)
            return .object(object)
        }
        var result: [String: JSONValue] = [
            "location": location(report.place, timezone: report.timezone, utcOffsetSeconds: report.utcOffsetSeconds),
            "units": unitNames(units), "daily": .array(daily),
            "fetchedAt": .string(answer.fetchedAt.description), "source": .string(answer.source),
            "stale": .bool(answer.stale), "provider": .string(answer.provider),
        ]
        if detail == .full { result["entries"] = .array(entries) }
        if let first = upcoming.first ?? report.entries.last { result["observedAt"] = .string(first.time.description) }
        return .object(result)
    }
}
