import Providers
import WeatherDomain
import WeatherEngine

extension HistoryAnswer {
    /// `{location, from, to, days: [{date, low, high, mean, precipitation, windMax, condition, source}], hours?,
    /// units, calls, attribution}`, in the reader's units; a value the source lacks is left out.
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "location": place.json, "from": .string(from), "to": .string(to),
            "days": .array(days.map { PastWire.day($0.day, source: $0.source, units) }),
            "units": WeatherFormatting.unitNames(units), "calls": .int(Int64(calls)),
            "attribution": .string(PastWire.attribution),
        ]
        if let hours {
            object["hours"] = .array(
                hours.map { hour in
                    var item: [String: JSONValue] = ["time": .string(hour.time)]
                    PastWire.put(
                        &item, "temperature", hour.temperature.map { WeatherFormatting.temperature($0, units) })
                    PastWire.put(
                        &item, "precipitation", hour.precipitation.map { WeatherFormatting.precipitation($0, units) })
                    PastWire.put(&item, "windSpeed", hour.windSpeed.map { WeatherFormatting.speed($0, units) })
                    if let condition = hour.condition { item["condition"] = condition.json }
                    return .object(item)
                })
        }
        return .object(object)
    }

    /// One line for people: the place, the range, its extremes and total precipitation.
    var summaryLine: String {
        let name = place.name ?? place.key
        let unit = units.temperature.rawValue
        let highs = days.compactMap { $0.day.high }
        let lows = days.compactMap { $0.day.low }
        guard let high = highs.max(), let low = lows.min() else {
            return "\(name), \(from) to \(to): no values from any source."
        }
        let rain = days.compactMap { $0.day.precipitation }.reduce(0, +)
        return "\(name), \(from) to \(to) (\(days.count) days): lowest \(PastWire.degrees(low, units))\(unit), "
            + "highest \(PastWire.degrees(high, units))\(unit), precipitation "
            + "\(WeatherFormatting.precipitation(rain, units)) \(units.precipitation.rawValue)."
    }
}

extension ClimateAnswer {
    /// `{location, date, normal: {low, high, period, years, windowDays}, records: {high: {value, year},
    /// low: {…}, since, through}, forecast?: {low, high}, current?: {temperature}, anomaly?: {low, high},
    /// warnings?, sentence, units, fetchedAt, cached, attribution}`, in the reader's units; `warnings` says why
    /// the forecast, the anomaly or the current temperature is missing when the provider failed.
    var json: JSONValue {
        var normal: [String: JSONValue] = [
            "period": "1991-2020", "years": .int(Int64(climate.normalYears)), "windowDays": .int(Climate.windowDays),
        ]
        PastWire.put(&normal, "low", climate.normalLow.map { WeatherFormatting.temperature($0, units) })
        PastWire.put(&normal, "high", climate.normalHigh.map { WeatherFormatting.temperature($0, units) })
        var records: [String: JSONValue] = ["through": .string(through)]
        if let since = climate.since { records["since"] = .int(Int64(since)) }
        for (name, record) in [("high", climate.recordHigh), ("low", climate.recordLow)] {
            guard let record else { continue }
            records[name] = [
                "value": .double(WeatherFormatting.temperature(record.value, units)), "year": .int(Int64(record.year)),
            ]
        }
        var object: [String: JSONValue] = [
            "location": place.json, "date": .string(date), "normal": .object(normal), "records": .object(records),
            "sentence": .string(sentence), "units": WeatherFormatting.unitNames(units),
            "fetchedAt": .string(fetchedAt.description), "cached": .bool(source == "cache"),
            "attribution": .string(PastWire.attribution),
        ]
        if forecastHigh != nil || forecastLow != nil {
            var forecast: [String: JSONValue] = [:]
            PastWire.put(&forecast, "low", forecastLow.map { WeatherFormatting.temperature($0, units) })
            PastWire.put(&forecast, "high", forecastHigh.map { WeatherFormatting.temperature($0, units) })
            object["forecast"] = .object(forecast)
            var anomaly: [String: JSONValue] = [:]
            PastWire.put(&anomaly, "low", lowAnomaly.map { PastWire.difference($0, units) })
            PastWire.put(&anomaly, "high", highAnomaly.map { PastWire.difference($0, units) })
            object["anomaly"] = .object(anomaly)
        }
        if !warnings.isEmpty { object["warnings"] = .array(warnings.map(JSONValue.string)) }
        if let currentTemperature {
            object["current"] = ["temperature": .double(WeatherFormatting.temperature(currentTemperature, units))]
        }
        return .object(object)
    }

    /// "Normal for 26 November: 2 to 8 °C (1991–2020); record high 15 °C (1953), record low -11 °C (1940);
    /// today's high 14 °C is 6 °C above normal."
    var sentence: String {
        let unit = units.temperature.rawValue
        let day = PastWire.dayName(month: climate.month, day: climate.day)
        var parts: [String] = []
        if let low = climate.normalLow, let high = climate.normalHigh {
            parts.append(
                "Normal for \(day): \(PastWire.degrees(low, units)) to \(PastWire.degrees(high, units)) \(unit) "
                    + "(1991–2020)")
        } else {
            parts.append("No normal for \(day): the archive lacks 1991–2020 here")
        }
        if let record = climate.recordHigh {
            parts.append("record high \(PastWire.degrees(record.value, units)) \(unit) (\(record.year))")
        }
        if let record = climate.recordLow {
            parts.append("record low \(PastWire.degrees(record.value, units)) \(unit) (\(record.year))")
        }
        var text = parts.joined(separator: "; ")
        if let anomaly = highAnomaly, let high = forecastHigh {
            text +=
                "; the forecast high \(PastWire.degrees(high, units)) \(unit) is "
                + PastWire.anomalyText(anomaly, units)
        }
        return text + "."
    }
}

/// The wire's helpers for the past.
enum PastWire {
    static let attribution = "Weather data by Open-Meteo.com (ERA5 reanalysis, Copernicus), CC BY 4.0"

    static func day(_ day: PastDay, source: String?, _ units: UnitChoice) -> JSONValue {
        var item: [String: JSONValue] = ["date": .string(day.date)]
        put(&item, "low", day.low.map { WeatherFormatting.temperature($0, units) })
        put(&item, "high", day.high.map { WeatherFormatting.temperature($0, units) })
        put(&item, "mean", day.mean.map { WeatherFormatting.temperature($0, units) })
        put(&item, "precipitation", day.precipitation.map { WeatherFormatting.precipitation($0, units) })
        put(&item, "windMax", day.windMax.map { WeatherFormatting.speed($0, units) })
        if let condition = day.condition { item["condition"] = condition.json }
        item["source"] = source.map(JSONValue.string) ?? .null
        return .object(item)
    }

    static func put(_ object: inout [String: JSONValue], _ key: String, _ value: Double?) {
        if let value { object[key] = .double(value) }
    }

    /// A temperature difference (°C) in the reader's unit: a kelvin is a degree Celsius.
    static func difference(_ celsius: Double, _ units: UnitChoice) -> Double {
        WeatherFormatting.round(units.temperature.difference(celsius: celsius))
    }

    /// A temperature rounded to whole degrees, for sentences.
    static func degrees(_ celsius: Double, _ units: UnitChoice) -> String {
        String(Int(units.temperature.value(celsius: celsius).rounded()))
    }

    /// "6 °C above normal", "1 °C below normal", "normal"; in the reader's unit ("3 K above normal").
    static func anomalyText(_ celsius: Double, _ units: UnitChoice) -> String {
        let amount = Int(difference(celsius, units).rounded())
        guard amount != 0 else { return "normal" }
        let unit = units.temperature.rawValue
        return "\(abs(amount)) \(unit) \(amount > 0 ? "above" : "below") normal"
    }

    /// "26 November".
    static func dayName(month: Int, day: Int) -> String {
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(day) \(months[max(0, min(11, month - 1))])"
    }
}
