import Providers
import WeatherDomain
import WeatherEngine

extension WeatherFormatting {
    /// The forecast answer: the days, and the steps of `type` in `entries`, as `ForecastSelection` chooses them.
    ///
    /// - Parameters:
    ///   - days: the days kept (all when nil).
    ///   - detail: `full` adds `entries`, `summary` does not (nor does `type` `daily`).
    ///   - type: the steps: 3-hourly, hourly (the next 48 hours), day and night halves, or none (`daily`).
    ///   - normals: each local date's climate, when the place's is cached: a day gets its `normal`.
    ///   - spread: the place's cached ensemble spread: a day it reaches gets its `spread` (`{high, low}` 10–90 %
    ///     bands and its `label`), and so does an hourly step (`{p10, p90}` of its temperature).
    static func forecast(
        _ answer: FetchAnswer<ForecastReport>, units: UnitChoice, now: Timestamp, days: Int? = nil,
        detail: ForecastDetail = .full, type: ForecastType = .threeHourly, normals: [String: Climate] = [:],
        spread: EnsembleSummary? = nil
    ) -> JSONValue {
        let report = answer.value
        let shown = ForecastSelection(report, now: now, days: days, detail: detail, type: type)
        let zone = shown.zone
        let daySpread = { (date: String) in
            spread?.days.first { $0.date == date }.map { ConfidenceWire.forecastDay($0, units) }
        }
        let hourSpread = { (time: Timestamp) in
            spread?.hours.first { $0.time == time }.map { ConfidenceWire.tenToNinety($0.temperature, units) }
        }
        var result: [String: JSONValue] = [
            "location": location(report.place, timezone: report.timezone, utcOffsetSeconds: report.utcOffsetSeconds),
            "units": unitNames(units), "type": .string(type.rawValue),
            "daily": .array(
                shown.days.map {
                    ConfidenceWire.adding(
                        daySpread($0.date), to: day(report, $0, zone: zone, units: units, normal: normals[$0.date]))
                }),
            "fetchedAt": .string(answer.fetchedAt.description), "source": .string(answer.source),
            "stale": .bool(answer.stale), "provider": .string(answer.provider),
        ]
        switch shown.steps {
        case .entries(let entries):
            result["entries"] = .array(
                entries.map { entry in
                    let step = step(report, entry, zone: zone, units: units)
                    return type == .hourly ? ConfidenceWire.adding(hourSpread(entry.time), to: step) : step
                })
        case .halves(let halves):
            result["entries"] = .array(halves.map { half($0, units: units) })
        case .none:
            break
        }
        if let observedAt = shown.observedAt { result["observedAt"] = .string(observedAt.description) }
        if let credit = attribution(provider: answer.provider) { result["attribution"] = .string(credit) }
        return .object(result)
    }

    /// A forecast step in `units`, with whether it is day (at the place, on clocks that keep `zone`) and its
    /// condition's HA name.
    static func step(_ report: ForecastReport, _ entry: ForecastEntry, zone: ZoneOffsets, units: UnitChoice)
        -> JSONValue
    {
        var step = Quantities(units)
        step.temperature("temperature", entry.temperature)
        step.measurements(entry)
        let isDay = isDay(entry.isDay, at: entry.time, place: report.place, zone: zone)
        step.object["isDay"] = .bool(isDay)
        step.object["time"] = .string(entry.time.description)
        step.object["condition"] = condition(entry.condition, isDay: isDay, windSpeed: entry.windSpeed)
        return .object(step.object)
    }

    /// A day in `units`: the provider's figures (or the summary of its steps), the Sun and Moon computed
    /// locally for its date on clocks that keep `zone`, and `normal: {low, high}` (1991–2020) from `normal`,
    /// the climate of its date, when the place's is cached.
    static func day(
        _ report: ForecastReport, _ day: DailySummary, zone: ZoneOffsets, units: UnitChoice, normal: Climate? = nil
    ) -> JSONValue {
        var object = Quantities(units)
        object.temperature("min", day.min)
        object.temperature("max", day.max)
        object.precipitation("precipitation", day.precipitation)
        object.plain("pop", day.pop)
        object.plain("uvIndex", day.uvIndex)
        object.object["date"] = .string(day.date)
        object.object["condition"] = condition(day.condition, isDay: true)
        sky(on: day.date, at: report.place, zone: zone, into: &object.object)
        if let normal, normal.normalLow != nil || normal.normalHigh != nil {
            var values = Quantities(units)
            values.temperature("low", normal.normalLow)
            values.temperature("high", normal.normalHigh)
            object.object["normal"] = .object(values.object)
        }
        return .object(object.object)
    }

    /// A day or night half in `units`.
    static func half(_ half: ForecastHalf, units: UnitChoice) -> JSONValue {
        let summary = half.summary
        var object = Quantities(units)
        object.temperature("min", summary.min)
        object.temperature("max", summary.max)
        object.speed("windSpeed", summary.windSpeed)
        object.speed("windGust", summary.windGust)
        object.precipitation("precipitation", summary.precipitation)
        object.plain("pop", summary.pop)
        object.plain("uvIndex", summary.uvIndex)
        object.object["date"] = .string(half.date)
        object.object["time"] = .string(half.start.description)
        object.object["end"] = .string(half.end.description)
        object.object["isDay"] = .bool(half.isDay)
        object.object["condition"] = condition(summary.condition, isDay: half.isDay, windSpeed: summary.windSpeed)
        return .object(object.object)
    }
}
