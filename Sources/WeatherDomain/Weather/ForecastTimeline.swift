/// A forecast step with the length of time it stands for.
package struct TimedStep: Sendable, Equatable {
    package var entry: ForecastEntry
    /// How long the step lasts: an hour or three.
    package var milliseconds: Int64

    package init(_ entry: ForecastEntry, milliseconds: Int64) {
        self.entry = entry
        self.milliseconds = milliseconds
    }

    /// When the step ends.
    package var end: Timestamp { Timestamp(milliseconds: entry.time.milliseconds + milliseconds) }
}

/// The time rules of a forecast: what is past, which steps make its timeline, and when it is day.
package enum ForecastTimeline {
    package static let hour: Int64 = 3_600_000
    package static let threeHours: Int64 = 3 * hour

    /// The one rule for what is past, for steps, halves and days alike: a period is past when it ended at
    /// or before `now`. The period running at `now` is not past.
    package static func isPast(end: Timestamp, now: Timestamp) -> Bool { end <= now }

    /// The report's steps at the finest resolution it has: the hourly steps, then the 3-hourly entries
    /// that begin after them; without hourly steps, the 3-hourly entries.
    package static func finest(_ report: ForecastReport) -> [TimedStep] {
        let hours = report.hourly.map { TimedStep($0, milliseconds: hour) }
        let covered = hours.last?.end ?? Timestamp(milliseconds: .min)
        return hours + report.entries.filter { $0.time >= covered }.map { TimedStep($0, milliseconds: threeHours) }
    }

    /// Whether the Sun is up at `time` at a place, computed locally (`SolarDay`) for when the provider
    /// does not say: between the sunrise and sunset of `time`'s local date, all day in a polar day.
    package static func isDaylight(at time: Timestamp, lat: Double, lon: Double, zone: ZoneOffsets) -> Bool {
        let date = LocalDate.string(time, zone: zone)
        guard let sun = SolarDay.compute(lat: lat, lon: lon, localDate: date, zone: zone) else { return true }
        if let polar = sun.polar { return polar == .day }
        // On the first or last day of a polar day only one of the two happens.
        let risen = sun.sunrise.map { time >= $0 } ?? (sun.sunset != nil)
        let set = sun.sunset.map { time >= $0 } ?? false
        return risen && !set
    }
}
