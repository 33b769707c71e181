import EventLog
import WeatherDomain
import WeatherRuntime

/// Every forecast weatherd fetched of some local dates at a place, and how each date's forecast moved, as
/// `weather/forecastChanges` and MCP's `get_forecast_changes` answer it. Read from the log alone.
package struct ForecastChangesAnswer: Sendable {
    /// One local date's forecasts, oldest first.
    package struct Day: Sendable, Equatable {
        package var date: String
        package var revisions: [ForecastRevision]
        /// The changes between consecutive revisions that changed something.
        package var changes: [ForecastChange]
        /// "Saturday's high has dropped from 14 °C to 9 °C since Thursday; …", in the reader's units; nil with
        /// fewer than two revisions.
        package var sentence: String?
    }

    package var place: Place
    /// The place's local date when asked.
    package var today: String
    package var days: [Day]
    package var units: UnitChoice
    /// How many events the scan read.
    package var scanned: Int64
    /// The place's offset from UTC when asked.
    package var utcOffsetSeconds: Int64
}

extension Engine {
    /// The longest run of dates one call answers: a forecast reaches 16 days ahead.
    package static let forecastChangeDays = 16

    /// Every forecast of `date` (or of the `days` local dates from today) fetched for a place, from the log:
    /// no weather call is made (a city name weatherd has not seen yet is geocoded, as for every method).
    ///
    /// - Throws: `FieldError` (`-32602`) for a malformed `date`, `days` outside 1…16, or both given.
    package func forecastChanges(
        _ place: PlaceQuery, date: String?, days: Int?, units: Units?, origin: Origin
    ) -> Completion<ForecastChangesAnswer> {
        Completion {
            if date != nil, days != nil {
                throw FieldError(path: "params.days", problem: "cannot be given with date")
            }
            if let date, LocalDate.dayNumber(of: date) == nil {
                throw FieldError(path: "params.date", problem: "must be a date such as 2026-11-28")
            }
            if let days, !(1...Self.forecastChangeDays).contains(days) {
                throw FieldError(path: "params.days", problem: "must be 1…\(Self.forecastChangeDays)")
            }
            let resolved = try await self.resolve(place, cause: origin.cause)
            let choice = try await self.units(units)
            let now = self.clock.timestamp()
            let zone = await self.cache.read { Self.zone(of: resolved.key, in: $0, around: now) }
            let today = LocalDate.string(now, zone: zone)
            let dates =
                date.map { [$0] }
                ?? (0..<Int64(days ?? 3)).compactMap { LocalDate.adding($0, to: today) }
            let (fetches, scanned) = try await self.forecastsInLog(of: dates, at: resolved.key)
            let answered = dates.map { date in
                let revisions = fetches.compactMap { fetch in
                    fetch.days.first { $0.date == date }.map {
                        ForecastRevision(fetchedAt: fetch.fetchedAt, provider: fetch.provider, day: $0)
                    }
                }
                return ForecastChangesAnswer.Day(
                    date: date, revisions: revisions, changes: ForecastChanges.changes(revisions),
                    sentence: ForecastChanges.summary(revisions, date: date, today: today, zone: zone, units: choice))
            }
            return ForecastChangesAnswer(
                place: resolved, today: today, days: answered, units: choice, scanned: scanned,
                utcOffsetSeconds: zone.offsetSeconds(at: now))
        }
    }

    /// Every forecast of `dates` fetched for `key`, from the log (`ForecastLogScan`, in the blocking pool), and
    /// the events read. A fetch holds at most 16 days from its own local date: the scan starts 17 days before
    /// the first date (a day's margin for the place's offset).
    func forecastsInLog(of dates: [String], at key: String) async throws -> (
        fetches: [ForecastLogScan.Fetch], scanned: Int64
    ) {
        guard let first = dates.min() else { return ([], 0) }
        let earliest = LocalDate.adding(-Int64(Self.forecastChangeDays) - 1, to: first) ?? first
        let notBefore = LocalDate.start(of: earliest, zone: .fixed(0)) ?? Timestamp(milliseconds: 0)
        return try await ForecastLogScan(
            directory: dataDirectory.path, writer: writer, health: logHealth, pool: runtime.pool
        ).runInPool(key: key, dates: Set(dates), notBefore: notBefore)
    }
}
