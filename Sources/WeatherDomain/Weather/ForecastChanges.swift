/// One forecast of a local date, as one fetch gave it.
package struct ForecastRevision: Sendable, Equatable {
    package var fetchedAt: Timestamp
    /// The provider the fetch asked (`open-meteo`, …).
    package var provider: String
    package var day: DailySummary

    package init(fetchedAt: Timestamp, provider: String = "", day: DailySummary) {
        self.fetchedAt = fetchedAt
        self.provider = provider
        self.day = day
    }
}

/// How the forecast of one local date changed from one fetch to the next: the differences in canonical
/// units (°C, mm, probability 0…1), nil where either fetch had no value.
package struct ForecastChange: Sendable, Equatable {
    /// The later fetch.
    package var fetchedAt: Timestamp
    package var low: Double
    package var high: Double
    package var pop: Double?
    package var precipitation: Double?
    /// The condition before, when it changed.
    package var conditionWas: Condition?

    /// Whether anything differs at all.
    package var isEmpty: Bool {
        low == 0 && high == 0 && (pop ?? 0) == 0 && (precipitation ?? 0) == 0 && conditionWas == nil
    }
}

/// What changed in the forecasts of one local date across the fetches weatherd made of it.
package enum ForecastChanges {
    /// A change of the high or low a sentence names, °C.
    package static let notableDegrees = 1.0
    /// A change of the precipitation chance a sentence names, as a probability.
    package static let notablePop = 0.1

    /// The change from each revision to the next (oldest first), skipping fetches that changed nothing.
    package static func changes(_ revisions: [ForecastRevision]) -> [ForecastChange] {
        zip(revisions, revisions.dropFirst()).compactMap { before, after in
            let change = ForecastChange(
                fetchedAt: after.fetchedAt, low: after.day.min - before.day.min, high: after.day.max - before.day.max,
                pop: difference(before.day.pop, after.day.pop),
                precipitation: difference(before.day.precipitation, after.day.precipitation),
                conditionWas: before.day.condition == after.day.condition ? nil : before.day.condition)
            return change.isEmpty ? nil : change
        }
    }

    private static func difference(_ before: Double?, _ after: Double?) -> Double? {
        guard let before, let after else { return nil }
        return after - before
    }

    /// A sentence of what changed between the first and the last revision, in `units`: "Saturday's high has
    /// dropped from 14 °C to 9 °C since Thursday; rain chance up from 20 % to 70 %." `day` names the date
    /// ("Saturday"), `since` the first fetch ("Thursday", "this morning"). Nil with fewer than two revisions.
    package static func summary(
        _ revisions: [ForecastRevision], day: String, since: String, units: UnitChoice
    ) -> String? {
        guard let first = revisions.first?.day, let last = revisions.last?.day, revisions.count > 1 else {
            return nil
        }
        let unit = units.temperature
        let degrees = { (celsius: Double) in "\(AlertText.number(unit.value(celsius: celsius))) \(unit.rawValue)" }
        var parts: [String] = []
        for (name, was, now) in [("high", first.max, last.max), ("low", first.min, last.min)]
        where abs(now - was) >= notableDegrees {
            parts.append("\(name) has \(now > was ? "risen" : "dropped") from \(degrees(was)) to \(degrees(now))")
        }
        if let was = first.pop, let now = last.pop, abs(now - was) >= notablePop - 1e-9 {
            let percent = { (pop: Double) in "\(Int((pop * 100).rounded())) %" }
            parts.append("rain chance \(now > was ? "up" : "down") from \(percent(was)) to \(percent(now))")
        }
        guard let head = parts.first else { return "\(day)'s forecast has held steady since \(since)." }
        let rest = parts.dropFirst().map { $0.hasPrefix("rain") ? $0 : "its \($0)" }
        return "\(day)'s \(head) since \(since)" + rest.map { "; \($0)" }.joined() + "."
    }

    /// How a sentence names the local date `date` seen on `today`: "today", "tomorrow", "yesterday", the
    /// weekday within six days either way, else the date itself.
    package static func name(of date: String, today: String) -> String {
        guard let number = LocalDate.dayNumber(of: date), let now = LocalDate.dayNumber(of: today),
            let weekday = weekday(of: date)
        else { return date }
        switch number - now {
        case 0: return "today"
        case 1: return "tomorrow"
        case -1: return "yesterday"
        case -6...6: return weekday
        default: return date
        }
    }

    /// `summary` for the revisions of `date` seen on `today`, naming the date and the first fetch's local date
    /// (`zone`) as people do: "Tomorrow's high has dropped from 14 °C to 9 °C since Thursday", "Saturday's
    /// forecast has held steady since yesterday"; "since earlier today" for a first fetch today. Nil with fewer
    /// than two revisions.
    package static func summary(
        _ revisions: [ForecastRevision], date: String, today: String, zone: ZoneOffsets, units: UnitChoice
    ) -> String? {
        guard let first = revisions.first else { return nil }
        return summary(
            revisions, date: date, firstFetchedOn: LocalDate.string(first.fetchedAt, zone: zone), today: today,
            units: units)
    }

    /// `summary` for the revisions of `date` seen on `today`, the first fetched on the local date
    /// `firstFetchedOn`.
    package static func summary(
        _ revisions: [ForecastRevision], date: String, firstFetchedOn: String, today: String, units: UnitChoice
    ) -> String? {
        let day = name(of: date, today: today)
        let since = firstFetchedOn == today ? "earlier today" : name(of: firstFetchedOn, today: today)
        return summary(revisions, day: day.prefix(1).uppercased() + day.dropFirst(), since: since, units: units)
    }

    /// The English name of the weekday of `date` (`YYYY-MM-DD`); nil when it is not a date.
    package static func weekday(of date: String) -> String? {
        LocalDate.dayNumber(of: date).map(CivilDate.weekdayName(ofDay:))
    }
}
