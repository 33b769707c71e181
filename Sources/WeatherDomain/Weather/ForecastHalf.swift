/// One day or night half of a forecast: from a sunrise to the sunset, or from a sunset to the next
/// sunrise, summarized from the steps that begin in it.
package struct ForecastHalf: Sendable, Equatable {
    /// The place's local date the half begins on (a night belongs to the date of its evening).
    package var date: String
    package var isDay: Bool
    /// The sunrise or sunset it begins with (local midnight on a polar day or night).
    package var start: Timestamp
    /// The sunset or sunrise it ends with (the next local midnight on a polar day or night).
    package var end: Timestamp
    package var summary: StepSummary

    package init(date: String, isDay: Bool, start: Timestamp, end: Timestamp, summary: StepSummary) {
        self.date = date
        self.isDay = isDay
        self.start = start
        self.end = end
        self.summary = summary
    }

    /// The day and night halves the steps cover, split by the place's sunrises and sunsets (computed
    /// locally, `SolarDay`), in order.
    ///
    /// A step belongs to the half its start falls in. A half is given when a step begins in it and the
    /// steps reach its end, so the last one is never cut short by the end of the forecast; the first may
    /// have begun before the steps do. Where the Sun neither rises nor sets, each local day is one half
    /// (`isDay` as the polar day or night).
    package static func halves(
        of steps: [TimedStep], lat: Double, lon: Double, zone: ZoneOffsets
    ) -> [ForecastHalf] {
        guard let first = steps.first, let last = steps.last else { return [] }
        let firstDate = LocalDate.string(first.entry.time, zone: zone)
        let lastDate = LocalDate.string(last.end, zone: zone)
        // Each boundary is when a half begins, and whether it is a day.
        var boundaries: [(time: Timestamp, isDay: Bool)] = []
        var date = LocalDate.adding(-1, to: firstDate)
        while let current = date, current <= (LocalDate.adding(1, to: lastDate) ?? lastDate) {
            if let sun = SolarDay.compute(lat: lat, lon: lon, localDate: current, zone: zone) {
                if let sunrise = sun.sunrise { boundaries.append((sunrise, true)) }
                if let sunset = sun.sunset { boundaries.append((sunset, false)) }
                if let polar = sun.polar, let midnight = LocalDate.start(of: current, zone: zone) {
                    boundaries.append((midnight, polar == .day))
                }
            }
            date = LocalDate.adding(1, to: current)
        }
        boundaries.sort { $0.time < $1.time }
        var halves: [ForecastHalf] = []
        var index = 0
        for (start, end) in zip(boundaries, boundaries.dropFirst()) {
            while index < steps.count, steps[index].entry.time < start.time { index += 1 }
            var inside: [ForecastEntry] = []
            while index < steps.count, steps[index].entry.time < end.time {
                inside.append(steps[index].entry)
                index += 1
            }
            guard last.end >= end.time, let summary = StepSummary(inside) else { continue }
            halves.append(
                ForecastHalf(
                    date: LocalDate.string(start.time, zone: zone), isDay: start.isDay,
                    start: start.time, end: end.time, summary: summary))
        }
        return halves
    }
}
