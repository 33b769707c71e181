import WeatherDomain
import WeatherEngine

extension ForecastChangesAnswer {
    /// `{location, today, dates: [{date, weekday, revisions: [{fetchedAt, provider, low, high, pop?,
    /// precipitation?, condition}], changes: [{fetchedAt, low, high, pop?, precipitation?, conditionWas?}],
    /// sentence}], units, scanned, utcOffsetSeconds}` (the place's offset now), in the reader's units (`changes` as differences; `pop` 0…1).
    var json: JSONValue {
        .object([
            "location": place.json, "today": .string(today), "dates": .array(days.map { dayJSON($0) }),
            "units": WeatherFormatting.unitNames(units), "scanned": .int(scanned),
            "utcOffsetSeconds": .int(utcOffsetSeconds),
        ])
    }

    private func dayJSON(_ day: Day) -> JSONValue {
        let revisions = day.revisions.map { revision -> JSONValue in
            var item: [String: JSONValue] = [
                "fetchedAt": .string(revision.fetchedAt.description), "provider": .string(revision.provider),
                "low": .double(WeatherFormatting.temperature(revision.day.min, units)),
                "high": .double(WeatherFormatting.temperature(revision.day.max, units)),
                "condition": revision.day.condition.json,
            ]
            PastWire.put(&item, "pop", revision.day.pop)
            PastWire.put(
                &item, "precipitation", revision.day.precipitation.map { WeatherFormatting.precipitation($0, units) })
            return .object(item)
        }
        let changes = day.changes.map { change -> JSONValue in
            var item: [String: JSONValue] = [
                "fetchedAt": .string(change.fetchedAt.description),
                "low": .double(PastWire.difference(change.low, units)),
                "high": .double(PastWire.difference(change.high, units)),
            ]
            PastWire.put(&item, "pop", change.pop.map { WeatherFormatting.round($0) })
            PastWire.put(
                &item, "precipitation", change.precipitation.map { WeatherFormatting.precipitation($0, units) })
            if let was = change.conditionWas { item["conditionWas"] = was.json }
            return .object(item)
        }
        return .object([
            "date": .string(day.date), "weekday": .string(ForecastChanges.weekday(of: day.date) ?? ""),
            "revisions": .array(revisions), "changes": .array(changes), "sentence": .string(sentence(of: day)),
        ])
    }

    /// The day's sentence, or what the log holds when there is nothing to compare.
    func sentence(of day: Day) -> String {
        if let sentence = day.sentence { return sentence }
        let name = ForecastChanges.name(of: day.date, today: today)
        guard let only = day.revisions.first else { return "weatherd has fetched no forecast of \(name) yet." }
        return "One forecast of \(name) so far (\(only.fetchedAt)): nothing to compare yet."
    }

    /// Every date's sentence, for people.
    var summaryLine: String {
        "\(place.name ?? place.key): " + days.map { sentence(of: $0) }.joined(separator: " ")
    }
}
