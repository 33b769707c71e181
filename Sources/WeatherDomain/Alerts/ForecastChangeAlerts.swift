/// The `forecast_change` rule: a day of the next three (tomorrow and the two after it, at the place) whose
/// forecast high or low moved `degrees` or more, or whose precipitation chance crossed `popLine`, since the
/// forecast the reader was last told about. Off unless configured.
///
/// What the reader was last told about a date is the forecast its last `forecast_change` alert carried
/// (`AlertState.forecastTold`, folded from the log, so it holds across a restart); before any alert, the
/// first forecast of the date fetched once it was within the three days (the `baseline` the caller keeps).
/// Today is left out: its figures converge on what is observed as the day goes, which is not news. Each
/// change is raised once (keyed by the place, the date and the fetch), in the reader's units.
package enum ForecastChangeAlerts {
    /// How many days after today the rule watches.
    package static let horizonDays: Int64 = 3
    /// A move of the high or low that is news, °C.
    package static let degrees = 3.0
    /// The precipitation chance whose crossing is news.
    package static let popLine = 0.5

    /// The local dates the rule watches on `today`: tomorrow and the two after it.
    package static func watchedDates(today: String) -> [String] {
        (1...horizonDays).compactMap { LocalDate.adding($0, to: today) }
    }

    /// The alerts a forecast fetched at `fetchedAt` raises for `target`.
    ///
    /// - Parameters:
    ///   - days: the fetch's daily figures.
    ///   - baselines: per date, the first forecast of it fetched within the three days, for dates no alert
    ///     has told of yet.
    ///   - today: the place's local date now; `zone` its clocks, for the sentence.
    ///   - lowConfidence: the dates the place's cached ensemble spread labels `low`: their alerts say so.
    package static func decide(
        _ state: AlertState, target: AlertTarget, days: [DailySummary], fetchedAt: Timestamp,
        baselines: [String: ForecastRevision], today: String, zone: ZoneOffsets, now: Timestamp,
        lowConfidence: Set<String> = []
    ) -> [DomainEvent] {
        guard state.settings.forecastChange else { return [] }
        let key = target.place.key
        var number = state.nextNumber
        var events: [DomainEvent] = []
        for date in watchedDates(today: today) {
            guard let day = days.first(where: { $0.date == date }),
                let told = state.forecastTold["\(key)|\(date)"] ?? baselines[date], told.fetchedAt < fetchedAt,
                isNews(from: told.day, to: day)
            else { continue }
            let revision = ForecastRevision(fetchedAt: fetchedAt, day: day)
            let details = Self.details(
                told: told, now: revision, toldOn: LocalDate.string(told.fetchedAt, zone: zone),
                lowConfidence: lowConfidence.contains(date))
            let alert = RaisedAlert(
                id: "alert-\(number)", rule: .forecastChange, key: key, place: target.place,
                favoriteId: target.favoriteId, localDate: today, raisedAt: now,
                message: message(
                    details: details, placeName: target.place.name ?? key, today: today, in: Units.metric.choice)
                    ?? "",
                details: details)
            guard !state.raised.contains(alert.dedupKey) else { continue }
            events.append(.alertRaised(alert))
            number += 1
        }
        return events
    }

    /// Whether the forecast of a day moved enough from `told` to `now` to tell.
    package static func isNews(from told: DailySummary, to now: DailySummary) -> Bool {
        if abs(now.max - told.max) >= degrees - 1e-9 || abs(now.min - told.min) >= degrees - 1e-9 { return true }
        guard let before = told.pop, let after = now.pop else { return false }
        return (before >= popLine) != (after >= popLine)
    }

    /// `{date, low, high, pop?, condition, fetchedAt, previousLow, previousHigh, previousPop?, previousFetchedAt,
    /// previousDate, confidence?}`: °C, chances 0…1; `previousDate` is the local date the told forecast was fetched
    /// on; `confidence` is `low` when the ensemble's spread of the date was labelled so.
    static func details(
        told: ForecastRevision, now: ForecastRevision, toldOn toldDate: String, lowConfidence: Bool = false
    ) -> JSONValue {
        var object: [String: JSONValue] = [
            "date": .string(now.day.date), "low": .double(now.day.min), "high": .double(now.day.max),
            "condition": now.day.condition.json, "fetchedAt": .string(now.fetchedAt.description),
            "previousLow": .double(told.day.min), "previousHigh": .double(told.day.max),
            "previousFetchedAt": .string(told.fetchedAt.description), "previousDate": .string(toldDate),
        ]
        object.set("pop", now.day.pop)
        object.set("previousPop", told.day.pop)
        if lowConfidence { object["confidence"] = .string(ConfidenceLabel.low.rawValue) }
        return .object(object)
    }

    /// "Berlin: Saturday's high has dropped from 14 °C to 9 °C since Thursday; rain chance up from 20 % to
    /// 70 %." from an alert's `details`, in `units`, the dates named as seen on `today`; with " The new forecast
    /// is of low confidence: the ensemble's members disagree." after it when `details` say so.
    static func message(details: JSONValue, placeName: String, today: String, in units: UnitChoice) -> String? {
        guard let date = details["date"]?.stringValue, let now = revision(details, prefix: ""),
            let told = revision(details, prefix: "previous"), let toldDate = details["previousDate"]?.stringValue
        else { return nil }
        guard
            let sentence = ForecastChanges.summary(
                [told, now], date: date, firstFetchedOn: toldDate, today: today, units: units)
        else { return nil }
        let confidence =
            details["confidence"]?.stringValue == ConfidenceLabel.low.rawValue ? " \(lowConfidenceNote)" : ""
        return "\(placeName): \(sentence)\(confidence)"
    }

    /// What a `forecast_change` alert adds when the new forecast is of low confidence.
    package static let lowConfidenceNote = "The new forecast is of low confidence: the ensemble's members disagree."

    /// The revision `details` describe: the new one (`prefix` "") or the told one ("previous").
    private static func revision(_ details: JSONValue, prefix: String) -> ForecastRevision? {
        let name = { (member: String) in
            prefix.isEmpty ? member : prefix + member.prefix(1).uppercased() + member.dropFirst()
        }
        guard let low = details[name("low")]?.doubleValue, let high = details[name("high")]?.doubleValue,
            let fetchedAt = details[name("fetchedAt")]?.stringValue.flatMap(Timestamp.init(rfc3339:))
        else { return nil }
        return ForecastRevision(
            fetchedAt: fetchedAt,
            day: DailySummary(
                date: details["date"]?.stringValue ?? "", min: low, max: high, pop: details[name("pop")]?.doubleValue,
                condition: .wmo(0)))
    }

    /// The forecast a raised `forecast_change` alert told of, for `AlertState.forecastTold`.
    static func told(by alert: RaisedAlert) -> ForecastRevision? {
        guard var told = revision(alert.details, prefix: "") else { return nil }
        if let condition = alert.details["condition"], let decoded = try? Condition(json: condition, path: "") {
            told.day.condition = decoded
        }
        return told
    }
}
