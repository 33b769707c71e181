/// What happened on a local day at a place, as verification compares forecasts with; canonical units.
package struct ObservedDay: Sendable, Equatable {
    /// Where the values come from.
    package enum Source: String, Sendable, CaseIterable {
        /// ERA5 reanalysis from Open-Meteo's archive, final.
        case era5
        /// ERA5T, the archive's preliminary days (may still change a little).
        case era5t
        /// The current conditions weatherd fetched that day, from its log (temperatures only).
        case log = "weatherd-log"
    }

    package var date: String
    package var high: Double?
    package var low: Double?
    /// The day's total; nil where the source cannot tell (the log's readings).
    package var precipitation: Double?
    package var source: Source

    package init(date: String, high: Double?, low: Double?, precipitation: Double?, source: Source) {
        self.date = date
        self.high = high
        self.low = low
        self.precipitation = precipitation
        self.source = source
    }
}

/// A forecast weatherd fetched: from whom, on which local date, and its days (whole, or as compaction reduced them).
package struct IssuedForecast: Sendable, Equatable {
    package var fetchedAt: Timestamp
    package var provider: String
    /// The place's local date when it was fetched: a day's lead time counts from it.
    package var issuedOn: String
    package var days: [DailySummary]

    package init(fetchedAt: Timestamp, provider: String, issuedOn: String, days: [DailySummary]) {
        self.fetchedAt = fetchedAt
        self.provider = provider
        self.issuedOn = issuedOn
        self.days = days
    }
}

/// A current temperature weatherd fetched, from its log.
package struct Reading: Sendable, Equatable {
    package var at: Timestamp
    package var temperature: Double

    package init(at: Timestamp, temperature: Double) {
        self.at = at
        self.temperature = temperature
    }
}

/// How far forecasts of a daily high or low were off at one lead time: the mean absolute error and the bias
/// (forecast less observed: positive is too warm), °C, over `count` days; both nil below `Verification.minimumDays`.
package struct ErrorScore: Sendable, Equatable {
    package var count: Int
    package var meanAbsoluteError: Double?
    package var bias: Double?
}

/// How forecasts of a wet day (`Verification.wetMillimetres` or more) did at one lead time, over the days whose
/// forecast gave a chance or an amount and whose precipitation was observed.
package struct WetScore: Sendable, Equatable {
    package var days: Int
    /// Of them, the days that turned out wet.
    package var wetDays: Int
    /// Of those, the days the forecast called wet (a chance of `Verification.wetChance` or more).
    package var hits: Int
    /// `hits / wetDays`; nil below `Verification.minimumWetDays` wet days.
    package var hitRate: Double?
    /// The mean of (chance − outcome)² over `days` (0 is perfect, 1 the worst); nil below `Verification.minimumDays`.
    package var brier: Double?
}

/// One provider's scores at one lead time (days after the forecast's own local date).
package struct LeadScore: Sendable, Equatable {
    package var lead: Int
    package var high: ErrorScore
    package var low: ErrorScore
    package var wet: WetScore
}

/// One provider's scores at each lead time, 1…7.
package struct ProviderScore: Sendable, Equatable {
    package var provider: String
    package var leads: [LeadScore]
}

/// Verification of the forecasts weatherd fetched against what happened: pure, so every figure can be checked
/// against a direct computation.
///
/// For each provider, local date and lead time (1…7 days after the local date the forecast was fetched on), the
/// last forecast fetched on that issue date is compared with the day as observed: one pair per provider, date and
/// lead, however often the forecast was fetched that day. A figure is given only over at least `minimumDays` days
/// (the hit rate, over at least `minimumWetDays` wet days); below that the count says how many there are.
package enum Verification {
    /// The lead times scored.
    package static let leads = 1...7
    /// The fewest days a mean absolute error, a bias or a Brier score is given over.
    package static let minimumDays = 10
    /// The fewest wet days a hit rate is given over.
    package static let minimumWetDays = 5
    /// The least precipitation of a wet day, mm (the usual climatological threshold).
    package static let wetMillimetres = 1.0
    /// The least chance of precipitation of a forecast that calls a day wet.
    package static let wetChance = 0.5

    /// The last forecast of each provider fetched on each local date.
    package static func lastPerIssueDate(_ forecasts: [IssuedForecast]) -> [IssuedForecast] {
        var last: [String: IssuedForecast] = [:]
        for forecast in forecasts {
            let key = "\(forecast.provider)|\(forecast.issuedOn)"
            if let known = last[key], known.fetchedAt > forecast.fetchedAt { continue }
            last[key] = forecast
        }
        return last.values.sorted { ($0.provider, $0.issuedOn) < ($1.provider, $1.issuedOn) }
    }

    /// The chance a forecast day gives of a wet day: its probability of precipitation, else 1 or 0 by its amount;
    /// nil with neither.
    package static func wetChance(of day: DailySummary) -> Double? {
        day.pop ?? day.precipitation.map { $0 >= wetMillimetres - 1e-9 ? 1 : 0 }
    }

    /// Each provider's scores at each lead time, providers by name, from `forecasts` (every one fetched: the last
    /// of each issue date is taken here) against `observed` (by local date).
    package static func scores(_ forecasts: [IssuedForecast], observed: [String: ObservedDay]) -> [ProviderScore] {
        let issued = lastPerIssueDate(forecasts)
        let providers = Set(issued.map(\.provider)).sorted()
        return providers.map { provider in
            ProviderScore(
                provider: provider,
                leads: leads.map { lead in
                    var highs: [Double] = []
                    var lows: [Double] = []
                    var chances: [(chance: Double, wet: Bool)] = []
                    for forecast in issued where forecast.provider == provider {
                        guard let first = LocalDate.dayNumber(of: forecast.issuedOn) else { continue }
                        for day in forecast.days {
                            guard LocalDate.dayNumber(of: day.date) == first + Int64(lead),
                                let seen = observed[day.date]
                            else { continue }
                            if let high = seen.high { highs.append(day.max - high) }
                            if let low = seen.low { lows.append(day.min - low) }
                            if let amount = seen.precipitation, let chance = wetChance(of: day) {
                                chances.append((chance, amount >= wetMillimetres - 1e-9))
                            }
                        }
                    }
                    return LeadScore(
                        lead: lead, high: errorScore(highs), low: errorScore(lows), wet: wetScore(chances))
                })
        }
    }

    /// The error score of `errors` (forecast less observed).
    package static func errorScore(_ errors: [Double]) -> ErrorScore {
        guard errors.count >= minimumDays else { return ErrorScore(count: errors.count) }
        let count = Double(errors.count)
        return ErrorScore(
            count: errors.count, meanAbsoluteError: errors.map(abs).reduce(0, +) / count,
            bias: errors.reduce(0, +) / count)
    }

    /// The wet-day score of `outcomes` (each day's forecast chance and whether it was wet).
    package static func wetScore(_ outcomes: [(chance: Double, wet: Bool)]) -> WetScore {
        let wet = outcomes.filter(\.wet)
        let hits = wet.filter { $0.chance >= wetChance - 1e-9 }.count
        let brier = outcomes.map { ($0.chance - ($0.wet ? 1 : 0)) * ($0.chance - ($0.wet ? 1 : 0)) }.reduce(0, +)
        return WetScore(
            days: outcomes.count, wetDays: wet.count, hits: hits,
            hitRate: wet.count >= minimumWetDays ? Double(hits) / Double(wet.count) : nil,
            brier: outcomes.count >= minimumDays ? brier / Double(outcomes.count) : nil)
    }

    /// The days the log's readings observe, on the clocks of `zone`: a day's high and low are its highest and
    /// lowest reading, for a day with a reading in each of its four quarters (00–06, 06–12, 12–18, 18–24 local),
    /// so that a day read only in the afternoon does not pass for observed. Readings are moments, not the day's
    /// true extremes: such highs run low and such lows high. They say nothing of precipitation.
    package static func observed(from readings: [Reading], zone: ZoneOffsets) -> [String: ObservedDay] {
        var byDate: [String: [Reading]] = [:]
        for reading in readings { byDate[LocalDate.string(reading.at, zone: zone), default: []].append(reading) }
        var days: [String: ObservedDay] = [:]
        for (date, readings) in byDate {
            let quarters = Set(readings.map { LocalDate.minuteOfDay($0.at, zone: zone) / 360 })
            guard quarters.count == 4 else { continue }
            let temperatures = readings.map(\.temperature)
            days[date] = ObservedDay(
                date: date, high: temperatures.max(), low: temperatures.min(), precipitation: nil, source: .log)
        }
        return days
    }
}
