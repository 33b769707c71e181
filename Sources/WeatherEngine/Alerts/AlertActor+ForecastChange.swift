import EventLog
import WeatherDomain

extension AlertActor {
    /// Notes the first forecast of each watched date fetched once it came within the rule's three days, and
    /// decides the `forecast_change` rule on `report` for the places with alerts on at `key`.
    func decideForecastChange(
        key: String, report: ForecastReport, fetchedAt: Timestamp, zone: ZoneOffsets, now: Timestamp, cause: String
    ) async {
        let today = LocalDate.string(now, zone: zone)
        note(key: key, days: report.daily, fetchedAt: fetchedAt, today: today)
        let baselines = horizonFirst[key] ?? [:]
        let lowConfidence = await lowConfidenceDates(of: report, key: key, around: fetchedAt)
        for target in await targets(for: key) {
            await append(cause: cause) { state in
                ForecastChangeAlerts.decide(
                    state, target: target, days: report.daily, fetchedAt: fetchedAt, baselines: baselines, today: today,
                    zone: zone, now: now, lowConfidence: lowConfidence)
            }
        }
    }

    /// The dates the spread the forecast carries (`ConfidenceCache.spread(carriedBy:key:model:around:)`) labels
    /// `low`.
    func lowConfidenceDates(of report: ForecastReport, key: String, around time: Timestamp) async -> Set<String> {
        let spread = await cache.read { [ensembleModel] in
            $0.confidence.spread(carriedBy: report, key: key, model: ensembleModel, around: time)
        }
        return Set((spread?.days ?? []).filter { $0.label == .low }.map(\.date))
    }

    /// Keeps, per watched date, the first forecast of it fetched within the rule's days; forgets past dates.
    func note(key: String, days: [DailySummary], fetchedAt: Timestamp, today: String) {
        var first = (horizonFirst[key] ?? [:]).filter { $0.key > today }
        for date in ForecastChangeAlerts.watchedDates(today: today) where first[date] == nil {
            if let day = days.first(where: { $0.date == date }) {
                first[date] = ForecastRevision(fetchedAt: fetchedAt, day: day)
            }
        }
        horizonFirst[key] = first
    }

    /// With the rule on at start-up, finds the first forecast of each watched date within the rule's days
    /// from the log, for every place with alerts on, so a change that began before a restart is still told.
    func seedForecastBaselines(scan: ForecastLogScan) async {
        guard await alerts.read({ $0.settings.forecastChange }) else { return }
        let now = clock.timestamp()
        for key in await targetKeys() {
            let zone = await cache.read { Engine.zone(of: key, in: $0, around: now) }
            let today = LocalDate.string(now, zone: zone)
            let dates = ForecastChangeAlerts.watchedDates(today: today)
            // A date enters the rule's days three days before it: tomorrow entered the day before yesterday.
            guard let entered = LocalDate.adding(1 - ForecastChangeAlerts.horizonDays, to: today),
                let notBefore = LocalDate.start(of: entered, zone: zone)
            else { continue }
            let found: (fetches: [ForecastLogScan.Fetch], scanned: Int64)
            do {
                found = try await scan.runInPool(key: key, dates: Set(dates), notBefore: notBefore)
            } catch {
                logger.error("forecast_change cannot read the log's past forecasts of one place: \(error)")
                continue
            }
            // Each fetch noted as it was when it came in, on its own local date.
            for fetch in found.fetches {
                note(
                    key: key, days: fetch.days, fetchedAt: fetch.fetchedAt,
                    today: LocalDate.string(fetch.fetchedAt, zone: zone))
            }
        }
    }
}
