import Providers
import WeatherDomain
import WeatherEngine

/// Turns canonical reports (°C, m/s, hPa, mm, metres) into answers in the reader's units.
enum WeatherFormatting {
    static func temperature(_ celsius: Double, _ units: UnitChoice) -> Double {
        round(units.temperature.value(celsius: celsius))
    }

    /// A speed in `units`; a Beaufort force is a whole number already.
    static func speed(_ metresPerSecond: Double, _ units: UnitChoice) -> Double {
        round(units.windSpeed.value(metresPerSecond: metresPerSecond))
    }

    static func pressure(_ hectopascals: Double, _ units: UnitChoice) -> Double {
        round(units.pressure.value(hectopascals: hectopascals))
    }

    static func precipitation(_ millimetres: Double, _ units: UnitChoice) -> Double {
        round(units.precipitation.value(millimetres: millimetres))
    }

    static func visibility(_ metres: Double, _ units: UnitChoice) -> Double {
        round(units.visibility.value(metres: metres))
    }

    /// Two decimals: more would be noise, and stable numbers compare well in clients' tests.
    static func round(_ value: Double) -> Double { Rounding.round(value, decimals: 2) }

    /// The unit of each quantity, so a client needs no table.
    static func unitNames(_ units: UnitChoice) -> JSONValue { units.json }

    /// The place an answer is for, with its IANA zone (when the provider named one) and its offset from UTC
    /// when the weather was fetched.
    static func location(_ place: Place, timezone: String?, utcOffsetSeconds: Int64) -> JSONValue {
        guard case .object(var object) = place.json else { return place.json }
        if let timezone { object["timezone"] = .string(timezone) }
        object["utcOffsetSeconds"] = .int(utcOffsetSeconds)
        return .object(object)
    }

    /// A condition as answers give it: the provider's code and text, weatherd's theme and severity, and
    /// Home Assistant's name (`ha`, by day or night and in the wind given; absent for an unknown code).
    static func condition(_ condition: Condition, isDay: Bool, windSpeed: Double? = nil) -> JSONValue {
        var object: [String: JSONValue] = [
            "code": .int(condition.code), "scheme": .string(condition.scheme), "text": .string(condition.text),
            "theme": .string(condition.theme.rawValue), "severe": .bool(condition.isSevere),
        ]
        if let ha = HACondition.of(condition, isDay: isDay, windSpeed: windSpeed) {
            object["ha"] = .string(ha.rawValue)
        }
        return .object(object)
    }

    /// The quantities of a step or of the current conditions, converted to `units`; each absent when the
    /// provider gave no value.
    struct Quantities {
        var units: UnitChoice
        var object: [String: JSONValue] = [:]

        init(_ units: UnitChoice) { self.units = units }

        mutating func temperature(_ key: String, _ celsius: Double?) {
            if let celsius { object[key] = .double(WeatherFormatting.temperature(celsius, units)) }
        }

        mutating func speed(_ key: String, _ metresPerSecond: Double?) {
            if let metresPerSecond { object[key] = .double(WeatherFormatting.speed(metresPerSecond, units)) }
        }

        mutating func pressure(_ key: String, _ hectopascals: Double?) {
            if let hectopascals { object[key] = .double(WeatherFormatting.pressure(hectopascals, units)) }
        }

        mutating func precipitation(_ key: String, _ millimetres: Double?) {
            if let millimetres { object[key] = .double(WeatherFormatting.precipitation(millimetres, units)) }
        }

        mutating func visibility(_ key: String, _ metres: Double?) {
            if let metres { object[key] = .double(WeatherFormatting.visibility(metres, units)) }
        }

        mutating func plain(_ key: String, _ value: Double?) {
            if let value { object[key] = .double(WeatherFormatting.round(value)) }
        }

        /// Every measurement there is, in `units` (all but `isDay`, which the caller decides).
        mutating func measurements(_ measured: some Measurements) {
            temperature("feelsLike", measured.feelsLike)
            temperature("dewPoint", measured.dewPoint)
            speed("windSpeed", measured.windSpeed)
            speed("windGust", measured.windGust)
            plain("humidity", measured.humidity)
            pressure("pressure", measured.pressure)
            plain("cloudCover", measured.cloudCover)
            visibility("visibility", measured.visibility)
            plain("windDirection", measured.windDirection)
            plain("uvIndex", measured.uvIndex)
            precipitation("precipitation", measured.precipitation)
            plain("pop", measured.pop)
        }
    }

    /// Whether `time` is daytime at the report's place: as the provider said, else from the Sun computed locally.
    static func isDay(_ said: Bool?, at time: Timestamp, place: Place, zone: ZoneOffsets) -> Bool {
        said ?? ForecastTimeline.isDaylight(at: time, lat: place.lat, lon: place.lon, zone: zone)
    }

    static func current(_ answer: FetchAnswer<CurrentReport>, units: UnitChoice) -> JSONValue {
        let report = answer.value
        let now = report.current
        var current = Quantities(units)
        current.temperature("temperature", now.temperature)
        current.temperature("tempMin", now.tempMin)
        current.temperature("tempMax", now.tempMax)
        current.measurements(now)
        let isDay = Self.isDay(
            now.isDay, at: now.observedAt, place: report.place, zone: report.zone(around: now.observedAt))
        current.object["isDay"] = .bool(isDay)
        current.object["condition"] = condition(now.condition, isDay: isDay, windSpeed: now.windSpeed)
        if let sunrise = now.sunrise { current.object["sunrise"] = .string(sunrise.description) }
        if let sunset = now.sunset { current.object["sunset"] = .string(sunset.description) }
        var result: [String: JSONValue] = [
            "location": location(report.place, timezone: report.timezone, utcOffsetSeconds: report.utcOffsetSeconds),
            "units": unitNames(units), "current": .object(current.object),
            "theme": .string(now.condition.theme.rawValue), "observedAt": .string(now.observedAt.description),
            "fetchedAt": .string(answer.fetchedAt.description), "source": .string(answer.source),
            "stale": .bool(answer.stale), "provider": .string(answer.provider),
        ]
        if let credit = attribution(provider: answer.provider) { result["attribution"] = .string(credit) }
        return .object(result)
    }

    /// The credit answers carry beside `provider` (`attribution`): MET Norway's, whose terms ask it of every
    /// display of its data; nil for the others, whose answers name the provider alone, as they always have.
    static func attribution(provider: String) -> String? {
        provider == Nowcast.Source.metNorway.rawValue ? MetNorwayProvider.attribution : nil
    }

    /// Adds the Sun and Moon of a local date at a place to a daily entry, computed locally
    /// (`SolarDay`, `MoonPhase`): `dawn`, `sunrise`, `zenith`, `sunset` and `dusk` as UTC times, each
    /// left out when it does not happen that day, `polar` (`day` or `night`) when the Sun neither rises
    /// nor sets, `moonPhase` (0 new, 0.5 full, up to 1; three decimals) and `moonDay` (days since new
    /// moon; one decimal) at local noon. Nothing is added for a date that is not `YYYY-MM-DD`.
    static func sky(on date: String, at place: Place, zone: ZoneOffsets, into object: inout [String: JSONValue]) {
        if let sun = SolarDay.compute(lat: place.lat, lon: place.lon, localDate: date, zone: zone) {
            let times: [(String, Timestamp?)] = [
                ("dawn", sun.dawn), ("sunrise", sun.sunrise), ("zenith", sun.zenith), ("sunset", sun.sunset),
                ("dusk", sun.dusk),
            ]
            for (key, time) in times { if let time { object[key] = .string(time.description) } }
            if let polar = sun.polar { object["polar"] = .string(polar.rawValue) }
        }
        if let moon = MoonPhase.onLocalDate(date, zone: zone) {
            // A phase that rounds to 1 is the new moon: 0.
            let phase = Rounding.round(moon.phase, decimals: 3)
            object["moonPhase"] = .double(phase >= 1 ? 0 : phase)
            object["moonDay"] = .double(Rounding.round(moon.age, decimals: 1))
        }
    }
}
