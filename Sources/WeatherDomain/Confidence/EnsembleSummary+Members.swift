/// One member of an ensemble: its hourly temperature (°C) and precipitation (mm, the preceding hour's), nil where
/// the member has no value at a step (past its horizon, or missing).
package struct MemberSeries: Sendable, Equatable {
    /// `control`, or the member's number (`member01` …).
    package var name: String
    package var temperature: [Double?]
    package var precipitation: [Double?]

    package init(name: String, temperature: [Double?], precipitation: [Double?]) {
        self.name = name
        self.temperature = temperature
        self.precipitation = precipitation
    }
}

extension EnsembleSummary {
    /// The spread of `members` on the hours `times`: per local day (on the clocks of `zone`) the percentiles of
    /// the members' highs, lows and precipitation totals, and the share of wet members; per hour from the one
    /// running at `now`, at most `keptHours`, the percentiles of their temperatures and the share of wet members.
    ///
    /// A member counts for a day's temperatures when it has a temperature in each of the day's four quarters
    /// (00–06, 06–12, 12–18, 18–24 local), and for its precipitation when it has a precipitation in each: so a day
    /// past a model's horizon, or only partly reached, is left out rather than summarized from a few hours. A
    /// day no member covers is absent; an hour no member has a temperature at is absent. A member null at an hour
    /// is left out of that hour, and each day and hour counts the members it has.
    package static func ofMembers(
        model: String, times: [Timestamp], members: [MemberSeries], zone: ZoneOffsets, timezone: String?,
        utcOffsetSeconds: Int64, now: Timestamp
    ) -> EnsembleSummary {
        var order: [String] = []
        var indices: [String: [Int]] = [:]
        for (index, time) in times.enumerated() {
            let date = LocalDate.string(time, zone: zone)
            if indices[date] == nil { order.append(date) }
            indices[date, default: []].append(index)
        }
        let quarters = times.map { LocalDate.minuteOfDay($0, zone: zone) / 360 }
        let days = order.compactMap { date in
            day(date, indices[date] ?? [], members: members, quarters: quarters)
        }
        var hours: [ConfidenceHour] = []
        for (index, time) in times.enumerated() where time.milliseconds + 3_600_000 > now.milliseconds {
            guard hours.count < keptHours else { break }
            let temperatures = members.compactMap { index < $0.temperature.count ? $0.temperature[index] : nil }
            guard let spread = Spread(of: temperatures) else { continue }
            let amounts = members.compactMap { index < $0.precipitation.count ? $0.precipitation[index] : nil }
            hours.append(
                ConfidenceHour(
                    time: time, members: temperatures.count, temperature: spread, wet: wetShare(amounts)))
        }
        let most = times.indices.map { index in
            members.filter { index < $0.temperature.count && $0.temperature[index] != nil }.count
        }.max()
        return EnsembleSummary(
            model: model, method: .members, members: most.flatMap { $0 > 0 ? $0 : nil }, timezone: timezone,
            utcOffsetSeconds: utcOffsetSeconds, days: days, hours: hours)
    }

    /// The share of `amounts` of at least `wetMillimetres`; nil for none.
    static func wetShare(_ amounts: [Double]) -> Double? {
        guard !amounts.isEmpty else { return nil }
        return Double(amounts.filter { $0 >= wetMillimetres - 1e-9 }.count) / Double(amounts.count)
    }

    /// Whether the steps `indices` with a value (`has`) reach every quarter of their day.
    static func covers(_ indices: [Int], quarters: [Int64], has: (Int) -> Bool) -> Bool {
        Set(indices.filter(has).map { quarters[$0] }).count == 4
    }

    private static func day(_ date: String, _ indices: [Int], members: [MemberSeries], quarters: [Int64])
        -> ConfidenceDay?
    {
        var highs: [Double] = []
        var lows: [Double] = []
        var totals: [Double] = []
        for member in members {
            let temperature = { (index: Int) in index < member.temperature.count ? member.temperature[index] : nil }
            let amount = { (index: Int) in index < member.precipitation.count ? member.precipitation[index] : nil }
            if covers(indices, quarters: quarters, has: { temperature($0) != nil }) {
                let values = indices.compactMap(temperature)
                if let high = values.max(), let low = values.min() {
                    highs.append(high)
                    lows.append(low)
                }
            }
            if covers(indices, quarters: quarters, has: { amount($0) != nil }) {
                totals.append(indices.compactMap(amount).reduce(0, +))
            }
        }
        guard let high = Spread(of: highs), let low = Spread(of: lows) else { return nil }
        return ConfidenceDay(
            date: date, members: highs.count, high: high, low: low, precipitation: Spread(of: totals),
            precipitationMembers: totals.isEmpty ? nil : totals.count, wet: wetShare(totals))
    }
}
