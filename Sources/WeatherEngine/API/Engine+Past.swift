import Providers
import WeatherDomain
import WeatherRuntime

/// A day of the past as `weather/history` answers it: the values and where they came from.
package struct HistoryDay: Sendable, Equatable {
    package var day: PastDay
    /// `era5` (final), `era5t` (preliminary, may still change), `weatherd-log` (the last forecast weatherd
    /// fetched of that date, from its log, which the archive does not reach yet), `historical-forecast` (Open-Meteo's
    /// archived forecast of the day, where weatherd's log has none), or nil where no source has the day.
    package var source: String?
}

/// The past at a place, as `weather/history` and MCP's `get_history` answer it.
package struct HistoryAnswer: Sendable {
    package var place: Place
    package var from: String
    package var to: String
    package var days: [HistoryDay]
    /// The hours, when they were asked for.
    package var hours: [PastHour]?
    package var units: UnitChoice
    /// Archive calls made for this answer (the rest came from the cache).
    package var calls: Int
}

extension Engine {
    /// The past at a place from `from` to `to` (local dates, inclusive): each day's low, high, mean,
    /// precipitation, wind max and condition from Open-Meteo's archive (ERA5), a call per calendar year of the
    /// range, final pages cached for good; days the archive does not reach yet from the last forecast of them
    /// weatherd fetched (its log).
    ///
    /// - Throws: `FieldError` (`-32602`) for a malformed date, one before 1940-01-01 or after today at the
    ///   place, `from` after `to`, or a range over `PastRange.maxYears` years.
    package func history(
        _ place: PlaceQuery, from: String, to: String, hourly: Bool, units: Units?, origin: Origin
    ) -> Completion<HistoryAnswer> {
        Completion {
            let resolved = try await self.resolve(place, cause: origin.cause)
            let now = self.clock.timestamp()
            let (zone, forecast) = await self.cache.read {
                (Self.zone(of: resolved.key, in: $0, around: now), $0.forecast[resolved.key]?.value)
            }
            let today = LocalDate.string(now, zone: zone)
            try PastRange.validate(from: from, to: to, today: today)
            let lastFinal = PastRange.lastFinal(today: today)
            var (days, hours, calls) = ([HistoryDay](), hourly ? [PastHour]() : nil, 0)
            for page in PastRange.pages(from: from, to: to) {
                let answer = try await self.fetcher.past(
                    .history, at: resolved, from: page.from, to: page.to, hourly: hourly,
                    final: page.to <= lastFinal, cause: origin.cause)
                if answer.source == "network" { calls += 1 }
                days += answer.value.days.map { HistoryDay(day: $0, source: $0.date <= lastFinal ? "era5" : "era5t") }
                hours? += answer.value.hours ?? []
            }
            let missing = days.filter(\.day.isEmpty).map(\.day.date)
            var logged = try await self.lastForecasts(of: missing, at: resolved.key)
            for day in forecast?.daily ?? [] where logged[day.date] == nil { logged[day.date] = day }
            for index in days.indices where days[index].day.isEmpty {
                guard let summary = logged[days[index].day.date] else {
                    days[index].source = nil
                    continue
                }
                days[index] = HistoryDay(
                    day: PastDay(
                        date: summary.date, low: summary.min, high: summary.max, precipitation: summary.precipitation,
                        condition: summary.condition),
                    source: "weatherd-log")
            }
            calls += await self.fillFromHistoricalForecast(&days, at: resolved, today: today, cause: origin.cause)
            return HistoryAnswer(
                place: resolved, from: from, to: to, days: days, hours: hours, units: try await self.units(units),
                calls: calls)
        }
    }
}

extension Engine {
    /// The last forecast of each of `dates` weatherd fetched for `key`, from its log (the days the archive does
    /// not reach yet: the latest forecast in the cache begins today, so the days before it are only in the log).
    func lastForecasts(of dates: [String], at key: String) async throws -> [String: DailySummary] {
        var last: [String: DailySummary] = [:]
        for fetch in try await forecastsInLog(of: dates, at: key).fetches {
            for day in fetch.days { last[day.date] = day }
        }
        return last
    }
}

extension Engine {
    /// The most days without a value one call asks the Historical Forecast API for: ERA5 lags about five days.
    static let maxForecastHistoryDays: Int64 = 31

    /// Fills the days no other source has (from 2022, when the Historical Forecast API begins, and at most
    /// `maxForecastHistoryDays` from the first to the last) from Open-Meteo's archived forecasts, in one call,
    /// kept for good once the days are past. A failed call (audited as every call) leaves them without a value.
    ///
    /// - Returns: the calls made (0 or 1).
    func fillFromHistoricalForecast(_ days: inout [HistoryDay], at place: Place, today: String, cause: String) async
        -> Int
    {
        let missing = days.filter { $0.source == nil && $0.day.date >= OpenMeteoArchive.historicalForecastFirstDay }
        guard let from = missing.first?.day.date, let to = missing.last?.day.date,
            let first = LocalDate.dayNumber(of: from), let last = LocalDate.dayNumber(of: to),
            last - first < Self.maxForecastHistoryDays
        else { return 0 }
        guard
            let answer = try? await fetcher.past(
                .forecastHistory, at: place, from: from, to: to, final: to < today, cause: cause)
        else { return 0 }
        let byDate = Dictionary(answer.value.days.map { ($0.date, $0) }) { first, _ in first }
        for index in days.indices where days[index].source == nil {
            guard let day = byDate[days[index].day.date], !day.isEmpty else { continue }
            days[index] = HistoryDay(day: day, source: "historical-forecast")
        }
        return answer.source == "network" ? 1 : 0
    }
}
