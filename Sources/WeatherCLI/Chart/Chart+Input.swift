import WeatherDomain

extension Chart {
    /// The facts of a `weather/forecast` result the chart draws, read leniently: what is missing or
    /// malformed is left out, never guessed.
    struct Input {
        /// A forecast step: its time (milliseconds since 1970), temperature and chance of precipitation (0…1), and
        /// the 10th and 90th percentiles of an ensemble's temperatures at it, when the answer carries them.
        struct Step {
            var time: Int64
            var temperature: Double?
            var pop: Double?
            var low: Double? = nil
            var high: Double? = nil
        }

        /// A day's summary: its local date (`YYYY-MM-DD`), low, high, highest chance of precipitation, the
        /// Sun's times, and its 1991–2020 normal low and high when the answer carries them (the place's
        /// climate is cached).
        struct Day {
            var date: String
            var min: Double?
            var max: Double?
            var pop: Double? = nil
            var normalLow: Double? = nil
            var normalHigh: Double? = nil
            /// The 10th percentile of an ensemble's lows and the 90th of its highs, when the answer carries them.
            var spreadLow: Double? = nil
            var spreadHigh: Double? = nil
            var sunrise: Int64?
            var sunset: Int64?
            /// `day` or `night` when the Sun neither rises nor sets.
            var polar: String?
        }

        /// The place's name (with its country), or its coordinates when it has no name.
        var place: String
        /// The coordinates as `51.51°N 0.13°W`, when known.
        var coordinates: String?
        /// The temperature's unit: `°C`, `°F` or `K`.
        var unit: String
        /// The place's clocks (its zone's rules, or its one offset), which decide its local midnights.
        var zone: ZoneOffsets
        var fetchedAt: Int64?
        var stale: Bool
        var provider: String?
        /// The steps, by time.
        var steps: [Step]
        var days: [Day]

        /// The facts of `forecast` (3-hourly steps) and, when given, of `hourly` (the same forecast's hourly
        /// steps): its hours, then its 3-hourly steps after them.
        init(_ forecast: JSONValue, hourly: JSONValue? = nil) {
            let location = forecast["location"]
            let name = location?["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            let country = location?["country"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            let lat = location?["lat"]?.doubleValue
            let lon = location?["lon"]?.doubleValue
            if let lat, let lon {
                coordinates =
                    "\(Writer.fixed(abs(lat), decimals: 2))°\(lat < 0 ? "S" : "N") "
                    + "\(Writer.fixed(abs(lon), decimals: 2))°\(lon < 0 ? "W" : "E")"
            }
            if let name {
                place = country.map { "\(name), \($0)" } ?? name
            } else if let lat, let lon {
                place = "\(Writer.fixed(lat, decimals: 4)), \(Writer.fixed(lon, decimals: 4))"
            } else {
                place = "Forecast"
            }
            unit = forecast["units"]?["temperature"]?.stringValue ?? "°"
            fetchedAt = Self.time(forecast["fetchedAt"])
            stale = forecast["stale"]?.boolValue ?? false
            provider = forecast["provider"]?.stringValue
            let threeHourly = Self.steps(forecast["entries"]?.arrayValue ?? [])
            let hours = Self.steps(hourly?["entries"]?.arrayValue ?? [])
            if let last = hours.last {
                steps = hours + threeHourly.filter { $0.time >= last.time + 3_600_000 }
            } else {
                steps = threeHourly
            }
            days = (forecast["daily"]?.arrayValue ?? []).compactMap(Self.day)
            let around = fetchedAt ?? steps.first?.time ?? 0
            zone = .of(location: location, around: Timestamp(milliseconds: around))
        }

        /// The steps with a time, in time order (steps at the same time keep their order).
        static func steps(_ entries: [JSONValue]) -> [Step] {
            let steps = entries.compactMap { entry -> Step? in
                guard let moment = time(entry["time"]) else { return nil }
                let pop = entry["pop"]?.doubleValue.map { min(max($0, 0), 1) }
                return Step(
                    time: moment, temperature: entry["temperature"]?.doubleValue, pop: pop,
                    low: entry["spread"]?["p10"]?.doubleValue, high: entry["spread"]?["p90"]?.doubleValue)
            }
            return steps.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                .map(\.element)
        }

        /// A daily summary, when it has a date.
        static func day(_ json: JSONValue) -> Day? {
            guard let date = json["date"]?.stringValue else { return nil }
            return Day(
                date: date, min: json["min"]?.doubleValue, max: json["max"]?.doubleValue,
                pop: json["pop"]?.doubleValue.map { min(max($0, 0), 1) },
                normalLow: json["normal"]?["low"]?.doubleValue, normalHigh: json["normal"]?["high"]?.doubleValue,
                spreadLow: json["spread"]?["low"]?["p10"]?.doubleValue,
                spreadHigh: json["spread"]?["high"]?["p90"]?.doubleValue,
                sunrise: time(json["sunrise"]), sunset: time(json["sunset"]), polar: json["polar"]?.stringValue)
        }

        /// An RFC 3339 time as milliseconds since 1970.
        static func time(_ json: JSONValue?) -> Int64? {
            json?.stringValue.flatMap { Timestamp(rfc3339: $0) }?.milliseconds
        }

        /// Whether any day has both its normal low and high: the chart then draws the normal band.
        var hasNormals: Bool { days.contains { $0.normalLow != nil && $0.normalHigh != nil } }

        /// Whether any step or day carries an ensemble's 10–90 % band: the chart then draws it.
        var hasSpread: Bool {
            steps.contains { $0.low != nil && $0.high != nil }
                || daysAfterSteps.contains { $0.summary.spreadLow != nil && $0.summary.spreadHigh != nil }
        }

        /// The summary of a local date, if the forecast has one.
        func day(on date: String) -> Day? { days.first { $0.date == date } }

        /// The days after the last step's local day, which the chart draws from their summaries alone (low to
        /// high, chance of precipitation): none when there are no steps at all.
        var daysAfterSteps: [(day: Int64, summary: Day)] {
            guard let last = steps.last else { return [] }
            let lastDay = Int64.floorDivision(
                zone.wallClock(at: Timestamp(milliseconds: last.time)).milliseconds, 86_400_000)
            return days.compactMap { day in LocalTime.days(day.date).flatMap { $0 > lastDay ? ($0, day) : nil } }
        }

        /// A temperature rounded to a whole number, as a day's low or high: `12°`, `-3°`, `285 K`, or `–`
        /// when it is unknown.
        func degrees(_ value: Double?) -> String {
            guard let value else { return "–" }
            let whole = Text.number(value, decimals: 0)
            return unit.hasPrefix("°") ? whole + "°" : whole + " " + unit
        }

        /// A temperature axis label: `12°C`, `285 K`.
        func tick(_ value: Double) -> String {
            let whole = Text.number(value, decimals: 0)
            return unit.hasPrefix("°") ? whole + unit : whole + " " + unit
        }
    }
}
