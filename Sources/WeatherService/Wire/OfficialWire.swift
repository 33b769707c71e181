import Providers
import WeatherDomain
import WeatherEngine

extension WarningsAnswer {
    /// `{location, warnings, covered, source, attribution, stale, fetchedAt, coverage, problems?}`, each warning
    /// with `matchedBy` (how it concerns the place); outside coverage only `location`, the empty `warnings`,
    /// `covered: false`, `stale: false` and the `coverage` note.
    var json: JSONValue {
        let listed: [JSONValue] = warnings.map { warning in
            guard case .object(var object) = warning.json else { return warning.json }
            if let match = matches[warning.id], !match.isEmpty { object["matchedBy"] = .string(match) }
            return .object(object)
        }
        var object: [String: JSONValue] = [
            "location": place.json, "warnings": .array(listed), "stale": .bool(stale),
            "coverage": .string(coverage.note), "covered": .bool(coverage.covered),
        ]
        if let source = coverage.source {
            object["source"] = .string(source.rawValue)
            object["attribution"] = .string(Self.attribution(source))
        }
        if let fetchedAt { object["fetchedAt"] = .string(fetchedAt.description) }
        if !problems.isEmpty { object["problems"] = .array(problems.map(JSONValue.string)) }
        return .object(object)
    }

    /// One line for people: how many warnings, the most severe, and from whom; never "none in force" where no
    /// source is known to watch the place.
    var summary: String {
        let name = place.name ?? place.key
        guard let source = coverage.source else { return "\(name): \(coverage.note)" }
        let staleness = stale ? " (stale: the source could not be reached; as of \(fetchedAt?.description ?? "?"))" : ""
        let credit = Self.attribution(source)
        guard !warnings.isEmpty else {
            guard coverage.covered else { return "\(name): no official warnings known (\(credit)): \(coverage.note)" }
            return "\(name): no official warnings in force (\(credit))\(staleness)."
        }
        let events = warnings.sorted { $0.severity > $1.severity }.map {
            source == .fpas ? "\($0.event) (\($0.severity.cap), from \($0.sender))" : "\($0.event) (\($0.severity.cap))"
        }
        let count = warnings.count == 1 ? "1 official warning" : "\(warnings.count) official warnings"
        return "\(name): \(count) in force (\(credit)): \(events.joined(separator: "; "))\(staleness)."
    }
}

extension AirQualityAnswer {
    /// `{location, current, hourly, units, fetchedAt, source, stale, provider}`, and `hourlyMissing`
    /// `{kind, message}` when the hours' own call failed; a value the source lacks is absent, never 0, and
    /// `current` has `europeanAqiLevel` beside `europeanAqi`.
    var json: JSONValue {
        func entry(_ entry: AirQualityEntry) -> JSONValue {
            guard case .object(var object) = entry.json else { return entry.json }
            if let level = entry.europeanLevel { object["europeanAqiLevel"] = .string(level.rawValue) }
            return .object(object)
        }
        var object: [String: JSONValue] = [
            "location": place.json, "hourly": .array(report.hourly.map(entry)),
            "units": [
                "concentration": "μg/m³", "pollen": "grains/m³", "europeanAqi": "EAQI", "usAqi": "US AQI",
                "owmAqi": "1..5", "uvIndex": "UV index",
            ],
            "fetchedAt": .string(fetchedAt.description), "source": .string(source), "stale": .bool(stale),
            "provider": .string(provider),
        ]
        if let current = report.current { object["current"] = entry(current) }
        if let failure = hoursFailure {
            object["hourlyMissing"] = [
                "kind": .string(failure.kind.rawValue), "message": .string(Self.hoursMissing(failure, provider)),
            ]
        }
        return .object(object)
    }

    /// Why the hours are missing. Never "no such place": the values now came, so the source knows it.
    static func hoursMissing(_ failure: ProviderError, _ provider: String) -> String {
        failure.kind == .notFound
            ? "\(provider) gave the values now but no forecast hours for this place (HTTP 404)."
            : "The forecast hours could not be fetched: \(failure.situation)"
    }

    /// One line for people: the European index and its level now, else the US index, and the worst hour ahead.
    var summary: String {
        let name = place.name ?? place.key
        let staleness = stale ? " (stale: the source could not be reached; as of \(fetchedAt))" : ""
        var parts: [String] = []
        if let current = report.current {
            if let aqi = current.europeanAqi, let level = current.europeanLevel {
                parts.append("European AQI \(Int(aqi.rounded())) (\(level.rawValue)) now")
            } else if let aqi = current.usAqi {
                parts.append("US AQI \(Int(aqi.rounded())) now")
            } else if let aqi = current.owmAqi {
                parts.append("OpenWeatherMap AQI \(Int(aqi.rounded())) of 5 now")
            }
            if let pm25 = current.pm25 { parts.append("PM2.5 \(Rounding.round(pm25, decimals: 1)) μg/m³") }
        }
        if let worst = report.hourly.filter({ $0.europeanAqi != nil }).max(by: {
            ($0.europeanAqi ?? 0) < ($1.europeanAqi ?? 0)
        }), let aqi = worst.europeanAqi, let level = worst.europeanLevel {
            parts.append("worst in 24 h: \(Int(aqi.rounded())) (\(level.rawValue)) at \(worst.time)")
        }
        if let failure = hoursFailure { parts.append("no hours ahead (their call failed: \(failure.kind.rawValue))") }
        if parts.isEmpty { parts.append("no values") }
        return "\(name): air quality \(parts.joined(separator: ", "))\(staleness)."
    }
}

extension WarningsInForce {
    /// `{places: [{favoriteId?, checked, location, warnings, source, attribution, stale, fetchedAt, coverage}]}`.
    var json: JSONValue {
        .object([
            "places": .array(
                places.map { place in
                    guard case .object(var object) = place.answer.json else { return place.answer.json }
                    if let id = place.favoriteId { object["favoriteId"] = .string(id) }
                    object["checked"] = .bool(place.checked)
                    return .object(object)
                })
        ])
    }

    /// Every warning in force, with the name of its place.
    var all: [(place: String, warning: OfficialWarning)] {
        places.flatMap { place in
            place.answer.warnings.map { (place.answer.place.name ?? place.answer.place.key, $0) }
        }
    }

    /// One line for people: the warnings in force, most severe first, or that there are none.
    var summary: String {
        let warnings = all.sorted { $0.warning.severity > $1.warning.severity }
        guard !warnings.isEmpty else {
            let covered = places.filter { $0.answer.coverage.covered }.count
            return "No official warnings in force at the \(places.count) place(s) with alerts on "
                + "(\(covered) known to be covered by a warning service)."
        }
        let listed = warnings.prefix(5).map { "\($0.place): \($0.warning.event) (\($0.warning.severity.cap))" }
        let more = warnings.count > 5 ? "; and \(warnings.count - 5) more" : ""
        return "Official warnings in force: \(listed.joined(separator: "; "))\(more)."
    }
}
