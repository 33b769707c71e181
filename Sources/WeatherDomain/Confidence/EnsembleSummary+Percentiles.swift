/// One step of a forecast that publishes its own spread (MET Norway's `complete` product): the temperature's
/// 10th and 90th percentiles at its time, and over the hours until the next step the least and most
/// precipitation and its probability.
package struct PercentileStep: Sendable, Equatable {
    package var time: Timestamp
    /// The hours the precipitation figures are for (1, then 6 where the answer turns 6-hourly).
    package var hours: Int64
    package var temperature10: Double?
    package var temperature90: Double?
    package var precipitationMin: Double?
    package var precipitationMax: Double?
    /// 0…1.
    package var probability: Double?

    package init(
        time: Timestamp, hours: Int64, temperature10: Double?, temperature90: Double?,
        precipitationMin: Double? = nil, precipitationMax: Double? = nil, probability: Double? = nil
    ) {
        self.time = time
        self.hours = hours
        self.temperature10 = temperature10
        self.temperature90 = temperature90
        self.precipitationMin = precipitationMin
        self.precipitationMax = precipitationMax
        self.probability = probability
    }
}

extension EnsembleSummary {
    /// The spread a source published, per local day (on the clocks of `zone`) and per hour from the one running
    /// at `now` (its hourly steps only, at most `keptHours`).
    ///
    /// The source gives percentiles per step, not per day, so a day's band is made of them: its high's 10th and
    /// 90th percentiles are the highest of its steps' 10th and 90th, its low's the lowest; its precipitation's are
    /// the totals of its steps' least and most precipitation, and its wet share is its highest probability of
    /// precipitation (a lower bound of the day's). As for members, a day counts only when its steps with
    /// percentiles reach each of its four quarters, and its precipitation only when theirs do.
    package static func ofPercentiles(
        model: String, steps: [PercentileStep], zone: ZoneOffsets, timezone: String?, utcOffsetSeconds: Int64,
        now: Timestamp
    ) -> EnsembleSummary {
        var order: [String] = []
        var byDate: [String: [PercentileStep]] = [:]
        for step in steps {
            let date = LocalDate.string(step.time, zone: zone)
            if byDate[date] == nil { order.append(date) }
            byDate[date, default: []].append(step)
        }
        let quarter = { (step: PercentileStep) in LocalDate.minuteOfDay(step.time, zone: zone) / 360 }
        let days: [ConfidenceDay] = order.compactMap { date in
            let steps = byDate[date] ?? []
            let banded = steps.filter { $0.temperature10 != nil && $0.temperature90 != nil }
            guard Set(banded.map(quarter)).count == 4 else { return nil }
            let (tens, nineties) = (banded.compactMap(\.temperature10), banded.compactMap(\.temperature90))
            guard let highest10 = tens.max(), let highest90 = nineties.max(), let lowest10 = tens.min(),
                let lowest90 = nineties.min()
            else { return nil }
            let wet = steps.filter { $0.precipitationMin != nil && $0.precipitationMax != nil }
            let precipitation =
                Set(wet.map(quarter)).count == 4
                ? Spread(
                    p10: wet.compactMap(\.precipitationMin).reduce(0, +),
                    p90: wet.compactMap(\.precipitationMax).reduce(0, +)) : nil
            return ConfidenceDay(
                date: date, members: nil, high: Spread(p10: highest10, p90: highest90),
                low: Spread(p10: lowest10, p90: lowest90), precipitation: precipitation,
                wet: steps.compactMap(\.probability).max())
        }
        let hours = steps.filter { $0.hours == 1 && $0.time.milliseconds + 3_600_000 > now.milliseconds }
            .compactMap { step -> ConfidenceHour? in
                guard let low = step.temperature10, let high = step.temperature90 else { return nil }
                return ConfidenceHour(
                    time: step.time, members: nil, temperature: Spread(p10: low, p90: high), wet: step.probability)
            }
        return EnsembleSummary(
            model: model, method: .percentiles, members: nil, timezone: timezone, utcOffsetSeconds: utcOffsetSeconds,
            days: days, hours: Array(hours.prefix(keptHours)))
    }
}
