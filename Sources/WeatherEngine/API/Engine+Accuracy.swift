import Providers
import WeatherDomain

/// How good the forecasts weatherd fetched for a place have been, as `weather/accuracy` and MCP's
/// `get_forecast_accuracy` answer it: each provider's scores at each lead time against what happened.
package struct AccuracyAnswer: Sendable {
    package var place: Place
    /// The place's local date when answered: days before it can be verified.
    package var today: String
    /// The first date verified: a year before today.
    package var from: String
    /// Each provider's scores at lead times 1…7.
    package var providers: [ProviderScore]
    /// How many of the days verified each source observed.
    package var observed: [ObservedDay.Source: Int]
    /// Past days forecast at lead times 1…7 that nothing observed yet (ERA5 has not reached them and the log has
    /// too few readings of them), left out.
    package var pending: Int
    /// The forecasts read (every fetch, of which the last of each provider and local date counts).
    package var forecasts: Int
    package var units: UnitChoice
    /// The events the log scan read, and the archive calls made for this answer (the rest came from the cache).
    package var scanned: Int64
    package var calls: Int
    /// Why some days lack an observation (the archive could not be reached).
    package var warnings: [String]

    /// "Open-Meteo's day-3 highs here were off by 1.4 °C on average over 41 days (too warm by 0.3 °C)."
    package var sentence: String { Verification.sentence(providers, units: units) }
}

extension Engine {
    /// How many days back verification reaches: a year of verified dates.
    package static let verificationDays: Int64 = 366

    /// How good the forecasts weatherd fetched for a place have been: for every forecast in its log (compacted
    /// ones included, whose days keep their low, high and precipitation) of the dates of the last year that have
    /// passed, the error of its daily high and low at each lead time 1…7, and for precipitation the hit rate and
    /// Brier score of a wet day, per provider. What happened is ERA5 from Open-Meteo's archive where it has the
    /// day (final, else preliminary), else the day as the log's current readings saw it (temperatures only).
    ///
    /// - Throws: the log's damage, or a failure to read it; an unreachable archive is a warning, not an error.
    package func accuracy(_ place: PlaceQuery, units: Units?, origin: Origin) -> Completion<AccuracyAnswer> {
        Completion {
            let resolved = try await self.resolve(place, cause: origin.cause)
            let now = self.clock.timestamp()
            let zone = await self.cache.read { Self.zone(of: resolved.key, in: $0, around: now) }
            let today = LocalDate.string(now, zone: zone)
            let from = LocalDate.adding(-Self.verificationDays, to: today) ?? today
            // A forecast of `from` at lead 7 was fetched a week before it (a day's margin for the offset).
            let issuedFrom = LocalDate.adding(-Int64(Verification.leads.upperBound) - 1, to: from) ?? from
            let notBefore = LocalDate.start(of: issuedFrom, zone: zone) ?? Timestamp(milliseconds: 0)
            let verified = try await ForecastLogScan(
                directory: self.dataDirectory.path, writer: self.writer, health: self.logHealth,
                pool: self.runtime.pool
            )
            .verificationInPool(key: resolved.key, notBefore: notBefore)
            let issued = verified.forecasts.map { fetch in
                IssuedForecast(
                    fetchedAt: fetch.fetchedAt, provider: fetch.provider,
                    issuedOn: LocalDate.string(fetch.fetchedAt, zone: zone), days: fetch.days)
            }
            let targets = Self.targets(issued, from: from, today: today)
            var warnings: [String] = []
            var (observed, calls) = ([String: ObservedDay](), 0)
            if let first = targets.min(), let yesterday = LocalDate.adding(-1, to: today), first <= yesterday {
                (observed, calls) = try await self.archiveDays(
                    at: resolved, from: first, to: yesterday, today: today, cause: origin.cause, warnings: &warnings)
            }
            for (date, day) in Verification.observed(from: verified.readings, zone: zone)
            where observed[date] == nil && targets.contains(date) {
                observed[date] = day
            }
            observed = observed.filter { targets.contains($0.key) }
            var counts: [ObservedDay.Source: Int] = [:]
            for day in observed.values { counts[day.source, default: 0] += 1 }
            return AccuracyAnswer(
                place: await self.answerPlace(for: place, resolved: resolved, reported: resolved), today: today,
                from: from, providers: Verification.scores(issued, observed: observed), observed: counts,
                pending: targets.filter { observed[$0] == nil }.count, forecasts: issued.count,
                units: try await self.units(units), scanned: verified.scanned, calls: calls, warnings: warnings)
        }
    }

    /// The past dates from `from` that some forecast in `issued` reaches at a lead time of 1…7 days.
    static func targets(_ issued: [IssuedForecast], from: String, today: String) -> Set<String> {
        var dates: Set<String> = []
        for forecast in issued {
            guard let first = LocalDate.dayNumber(of: forecast.issuedOn) else { continue }
            for day in forecast.days where from <= day.date && day.date < today {
                guard let number = LocalDate.dayNumber(of: day.date),
                    Verification.leads.contains(Int(number - first))
                else { continue }
                dates.insert(day.date)
            }
        }
        return dates
    }

    /// The days from `from` to `to` ERA5 has at the place, from the archive (a call per calendar year, final pages
    /// cached for good), each named final or preliminary; an archive that cannot be reached adds a warning.
    private func archiveDays(
        at place: Place, from: String, to: String, today: String, cause: String, warnings: inout [String]
    ) async throws -> ([String: ObservedDay], Int) {
        let lastFinal = PastRange.lastFinal(today: today)
        var (days, calls) = ([String: ObservedDay](), 0)
        for page in PastRange.pages(from: from, to: to) {
            let answer: FetchAnswer<PastPage>
            do {
                answer = try await fetcher.past(
                    .history, at: place, from: page.from, to: page.to, final: page.to <= lastFinal, cause: cause)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                warnings.append(
                    "ERA5 for \(page.from) to \(page.to) could not be fetched (\(error)): those days rest "
                        + "on the log's readings")
                continue
            }
            if answer.source == "network" { calls += 1 }
            for day in answer.value.days where day.high != nil && day.low != nil {
                days[day.date] = ObservedDay(
                    date: day.date, high: day.high, low: day.low, precipitation: day.precipitation,
                    source: day.date <= lastFinal ? .era5 : .era5t)
            }
        }
        return (days, calls)
    }
}
