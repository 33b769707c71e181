/// One local day of a forecast: the place's own calendar date, its low and high, precipitation, UV
/// and dominant condition, in canonical units (°C, mm).
///
/// From the provider's daily figures where it has them (Open-Meteo), else summarized from every step it
/// sent for that date (OpenWeatherMap's 5-day / 3-hour forecast). Optional members are nil when the
/// provider gave no value.
package struct DailySummary: Sendable, Equatable {
    /// `YYYY-MM-DD` in the place's time zone.
    package var date: String
    package var min: Double
    package var max: Double
    /// The day's precipitation, mm.
    package var precipitation: Double?
    /// The day's highest probability of precipitation, 0…1.
    package var pop: Double?
    /// The day's highest UV index.
    package var uvIndex: Double?
    package var condition: Condition
    /// Sunrise as the provider gives it.
    package var sunrise: Timestamp?
    /// Sunset as the provider gives it.
    package var sunset: Timestamp?

    package init(
        date: String, min: Double, max: Double, precipitation: Double? = nil, pop: Double? = nil,
        uvIndex: Double? = nil, condition: Condition, sunrise: Timestamp? = nil, sunset: Timestamp? = nil
    ) {
        self.date = date
        self.min = min
        self.max = max
        self.precipitation = precipitation
        self.pop = pop
        self.uvIndex = uvIndex
        self.condition = condition
        self.sunrise = sunrise
        self.sunset = sunset
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "date": .string(date), "min": .double(min), "max": .double(max), "condition": condition.json,
        ]
        object.set("precipitation", precipitation)
        object.set("pop", pop)
        object.set("uvIndex", uvIndex)
        object.set("sunrise", sunrise)
        object.set("sunset", sunset)
        return .object(object)
    }

    package init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        self.init(
            date: try r.string("date"), min: try r.double("min"), max: try r.double("max"),
            precipitation: try r.optionalDouble("precipitation"), pop: try r.optionalDouble("pop"),
            uvIndex: try r.optionalDouble("uvIndex"),
            condition: try Condition(json: r.members["condition"] ?? .null, path: "\(path).condition"),
            sunrise: try r.optionalTimestamp("sunrise"), sunset: try r.optionalTimestamp("sunset"))
    }

    /// Summarizes steps by local date (on clocks that keep the offsets of `zone`), from every step given: low, high,
    /// total precipitation, highest chance of precipitation and UV index, and the dominant condition.
    ///
    /// For a provider without daily figures. Each date the steps touch is a day, in order, the first and
    /// last possibly partial.
    package static func days(
        of entries: [ForecastEntry], zone: ZoneOffsets, limit: Int = .max
    ) -> [DailySummary] {
        var order: [String] = []
        var groups: [String: [ForecastEntry]] = [:]
        for entry in entries {
            let date = LocalDate.string(entry.time, zone: zone)
            if groups[date] == nil { order.append(date) }
            groups[date, default: []].append(entry)
        }
        return order.prefix(limit).compactMap { date in
            guard let items = groups[date], let summary = StepSummary(items) else { return nil }
            return DailySummary(
                date: date, min: summary.min, max: summary.max, precipitation: summary.precipitation,
                pop: summary.pop, uvIndex: summary.uvIndex, condition: summary.condition)
        }
    }
}

/// What a run of steps adds up to: the extremes, the total and the dominant condition.
package struct StepSummary: Sendable, Equatable {
    package var min: Double
    package var max: Double
    /// The sum of the steps' precipitation; nil when none has one.
    package var precipitation: Double?
    package var pop: Double?
    package var uvIndex: Double?
    package var windSpeed: Double?
    package var windGust: Double?
    package var condition: Condition

    /// The summary of `steps`; nil when there are none.
    package init?(_ steps: [ForecastEntry]) {
        guard let first = steps.first else { return nil }
        min = steps.map(\.temperature).min() ?? first.temperature
        max = steps.map(\.temperature).max() ?? first.temperature
        let amounts = steps.compactMap(\.precipitation)
        precipitation = amounts.isEmpty ? nil : amounts.reduce(0, +)
        pop = steps.compactMap(\.pop).max()
        uvIndex = steps.compactMap(\.uvIndex).max()
        windSpeed = steps.compactMap(\.windSpeed).max()
        windGust = steps.compactMap(\.windGust).max()
        condition = Condition.dominant(steps.map(\.condition)) ?? first.condition
    }
}

extension Condition {
    /// The most frequent condition, the higher code on a tie (WMO and OWM codes both grow with severity
    /// within a group); nil for none.
    package static func dominant(_ conditions: [Condition]) -> Condition? {
        var counts: [Int64: Int] = [:]
        for condition in conditions { counts[condition.code, default: 0] += 1 }
        return conditions.max { a, b in (counts[a.code] ?? 0, a.code) < (counts[b.code] ?? 0, b.code) }
    }
}
