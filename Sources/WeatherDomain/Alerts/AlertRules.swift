/// A place alerts are decided for.
package struct AlertTarget: Sendable, Equatable {
    package var place: Place
    /// The favorite, or nil for the current location.
    package var favoriteId: String?

    package init(place: Place, favoriteId: String?) {
        self.place = place
        self.favoriteId = favoriteId
    }
}

/// The alert rules (temperature drop, severe weather, the daily summary), as pure decisions over a fetch, the state and `now`.
package enum AlertRules {
    /// Alerts raised by a new current-weather fetch: a drop of more than `tempDropC` below the
    /// previous fetch within 24 h, and severe weather now; `zone` gives the local date they are for.
    package static func afterCurrent(
        _ state: AlertState, target: AlertTarget, report: CurrentReport,
        previous: (temperature: Double, at: Timestamp)?, zone: ZoneOffsets,
        now: Timestamp
    ) -> [DomainEvent] {
        var candidates: [(AlertRule, String, JSONValue)] = []
        let temperature = report.current.temperature
        if let previous, now.milliseconds - previous.at.milliseconds <= 24 * 3_600_000,
            previous.temperature - temperature > state.settings.tempDropC
        {
            let drop = Rounding.round(previous.temperature - temperature, decimals: 1)
            candidates.append(
                written(
                    .tempDrop, target,
                    [
                        "temperature": .double(temperature), "previous": .double(previous.temperature),
                        "drop": .double(drop), "threshold": .double(state.settings.tempDropC),
                    ]))
        }
        if state.settings.severe, report.current.condition.isSevere {
            candidates.append(
                (
                    .severe, "Severe weather now: \(report.current.condition.text).",
                    .object([
                        "condition": report.current.condition.json,
                        "time": .string(report.current.observedAt.description),
                    ])
                ))
        }
        return raise(candidates, state: state, target: target, zone: zone, now: now)
    }

    /// Alerts raised by a new forecast: the lowest temperature of the next 24 h more than `tempDropC`
    /// below the current one, and severe weather in the next 24 h; `zone` gives the local date they are for.
    package static func afterForecast(
        _ state: AlertState, target: AlertTarget, report: ForecastReport, currentTemperature: Double?,
        zone: ZoneOffsets, now: Timestamp
    ) -> [DomainEvent] {
        let horizon = now.milliseconds + 24 * 3_600_000
        let next = report.entries.filter {
            $0.time.milliseconds >= now.milliseconds - 3 * 3_600_000 && $0.time.milliseconds <= horizon
        }
        var candidates: [(AlertRule, String, JSONValue)] = []
        if let currentTemperature, let low = next.min(by: { $0.temperature < $1.temperature }),
            currentTemperature - low.temperature > state.settings.tempDropC
        {
            candidates.append(
                written(
                    .tempDrop, target,
                    [
                        "temperature": .double(currentTemperature), "low": .double(low.temperature),
                        "at": .string(low.time.description), "threshold": .double(state.settings.tempDropC),
                    ]))
        }
        if state.settings.severe, let storm = next.first(where: { $0.condition.isSevere }) {
            candidates.append(
                (
                    .severe, "Severe weather expected: \(storm.condition.text) at \(storm.time).",
                    .object(["condition": storm.condition.json, "time": .string(storm.time.description)])
                ))
        }
        return raise(candidates, state: state, target: target, zone: zone, now: now)
    }

    /// The daily summary, once the place's local time (on clocks that keep the offsets of `zone`) has
    /// reached the configured time: the local day's low, high and dominant condition from the forecast.
    package static func dailySummary(
        _ state: AlertState, target: AlertTarget, forecast: ForecastReport, zone: ZoneOffsets, now: Timestamp
    ) -> [DomainEvent] {
        guard state.settings.dailySummaryEnabled else { return [] }
        guard LocalDate.minuteOfDay(now, zone: zone) >= state.settings.dailySummaryMinutes else { return [] }
        let today = LocalDate.string(now, zone: zone)
        // The provider's own day (its aggregates for the local date) when it has one; else every step's extremes.
        let day =
            forecast.daily.first { $0.date == today }
            ?? DailySummary.days(of: forecast.entries, zone: zone, limit: 10)
            .first { $0.date == today }
        guard let day else { return [] }
        return raise(
            [
                written(
                    .dailySummary, target,
                    ["low": .double(day.min), "high": .double(day.max), "condition": day.condition.json])
            ], state: state, target: target, zone: zone, now: now)
    }

    /// A candidate whose message is written from its figures, in °C as the log records them (`AlertText`).
    private static func written(
        _ rule: AlertRule, _ target: AlertTarget, _ details: [String: JSONValue]
    ) -> (AlertRule, String, JSONValue) {
        let message = AlertText.message(
            rule: rule, details: .object(details), placeName: target.place.name ?? target.place.key,
            in: Units.metric.choice)
        return (rule, message ?? "", .object(details))
    }

    private static func raise(
        _ candidates: [(AlertRule, String, JSONValue)], state: AlertState, target: AlertTarget, zone: ZoneOffsets,
        now: Timestamp
    ) -> [DomainEvent] {
        let localDate = LocalDate.string(now, zone: zone)
        var number = state.nextNumber
        var events: [DomainEvent] = []
        for (rule, message, details) in candidates {
            let alert = RaisedAlert(
                id: "alert-\(number)", rule: rule, key: target.place.key, place: target.place,
                favoriteId: target.favoriteId, localDate: localDate, raisedAt: now, message: message, details: details)
            guard !state.raised.contains(alert.dedupKey) else { continue }
            events.append(.alertRaised(alert))
            number += 1
        }
        return events
    }
}

/// Pure decisions about the alert settings.
package enum AlertDecisions {
    /// Changes the given settings; no event when nothing changes.
    package static func configure(
        _ state: AlertState, dailySummaryEnabled: Bool?, dailySummaryMinutes: Int64?, tempDropC: Double?, severe: Bool?,
        official: Bool? = nil, airQualityEnabled: Bool? = nil, airQualityLevel: EuropeanAQILevel? = nil,
        nowcast: Bool? = nil, forecastChange: Bool? = nil
    ) -> [DomainEvent] {
        var settings = state.settings
        if let dailySummaryEnabled { settings.dailySummaryEnabled = dailySummaryEnabled }
        if let dailySummaryMinutes { settings.dailySummaryMinutes = dailySummaryMinutes }
        if let tempDropC { settings.tempDropC = tempDropC }
        if let severe { settings.severe = severe }
        if let official { settings.official = official }
        if let airQualityEnabled { settings.airQualityEnabled = airQualityEnabled }
        if let airQualityLevel { settings.airQualityLevel = airQualityLevel }
        if let nowcast { settings.nowcast = nowcast }
        if let forecastChange { settings.forecastChange = forecastChange }
        return settings == state.settings ? [] : [.alertsConfigured(settings)]
    }
}
