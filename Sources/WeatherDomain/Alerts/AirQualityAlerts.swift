/// The `air_quality` rule: the European Air Quality Index at or above the configured level (`poor` by
/// default) now or in the next 24 hours, at most once per place and local date. Off unless configured.
package enum AirQualityAlerts {
    /// The alert `report` raises for `target`, if any: for the values now when they reach the level, else for
    /// the first hour that does.
    package static func decide(
        _ state: AlertState, target: AlertTarget, report: AirQualityReport, zone: ZoneOffsets, now: Timestamp
    ) -> [DomainEvent] {
        let settings = state.settings
        guard settings.airQualityEnabled else { return [] }
        let threshold = settings.airQualityLevel
        let reaching = { (entry: AirQualityEntry) -> Bool in
            guard let level = entry.europeanLevel else { return false }
            return rank(level) >= rank(threshold)
        }
        let horizon = now.milliseconds + 24 * 3_600_000
        let nowEntry = report.current.flatMap { reaching($0) ? $0 : nil }
        guard
            let entry = nowEntry
                ?? report.hourly.first(where: { $0.time.milliseconds <= horizon && reaching($0) }),
            let aqi = entry.europeanAqi, let level = entry.europeanLevel
        else { return [] }
        let name = target.place.name ?? target.place.key
        let figure = "European AQI \(Int(aqi.rounded()))"
        let message =
            nowEntry != nil
            ? "\(name): air quality \(level.rawValue) now (\(figure))."
            : "\(name): air quality \(level.rawValue) expected at \(entry.time) (\(figure))."
        let alert = RaisedAlert(
            id: "alert-\(state.nextNumber)", rule: .airQuality, key: target.place.key, place: target.place,
            favoriteId: target.favoriteId, localDate: LocalDate.string(now, zone: zone),
            raisedAt: now, message: message,
            details: [
                "europeanAqi": .double(aqi), "level": .string(level.rawValue), "threshold": .string(threshold.rawValue),
                "time": .string(entry.time.description),
            ])
        return state.raised.contains(alert.dedupKey) ? [] : [.alertRaised(alert)]
    }

    /// The order of the levels, good first.
    static func rank(_ level: EuropeanAQILevel) -> Int { EuropeanAQILevel.allCases.firstIndex(of: level) ?? 0 }
}
