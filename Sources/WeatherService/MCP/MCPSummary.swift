import WeatherDomain

/// The one-line summaries that begin tool results, built from the engine's answers: the values and the
/// names of their units as the answer gives them (`units.temperature`, `units.windSpeed`), never assumed.
enum MCPSummary {
    /// `Berlin: 4 °C, slight rain, wind 17 km/h SW, as of 10:00, fresh`.
    static func current(_ answer: JSONValue, now: Timestamp) -> String {
        let current = answer["current"]
        var parts: [String] = []
        if let temperature = current?["temperature"]?.doubleValue {
            parts.append(quantity(temperature, answer["units"]?["temperature"]))
        }
        if let text = current?["condition"]?["text"]?.stringValue { parts.append(text) }
        if let wind = current?["windSpeed"]?.doubleValue {
            var said = "wind \(quantity(wind, answer["units"]?["windSpeed"]))"
            if let degrees = current?["windDirection"]?.doubleValue { said += " \(compass(degrees))" }
            parts.append(said)
        }
        if let time = localTime(answer["observedAt"], answer, now: now) { parts.append("as of \(time)") }
        parts.append(freshness(answer, now: now))
        return "\(placeName(answer)): \(parts.joined(separator: ", "))"
    }

    /// `Berlin, 5 days: today 2–6 °C slight rain, Tue 1–5 °C overcast, …; fetched 10:00, fresh`.
    static func forecast(_ answer: JSONValue, now: Timestamp) -> String {
        let days = answer["daily"]?.arrayValue ?? []
        let unit = answer["units"]?["temperature"]
        let today = answer["location"].map {
            LocalDate.string(now, zone: .of(location: $0, around: now))
        }
        let shown = days.prefix(3).map { day -> String in
            let date = day["date"]?.stringValue ?? "?"
            var said = date == today ? "today" : weekday(date)
            if let low = day["min"]?.doubleValue, let high = day["max"]?.doubleValue {
                said += " \(whole(low))–\(quantity(high, unit))"
            }
            if let text = day["condition"]?["text"]?.stringValue { said += " \(text)" }
            return said
        }
        let more = days.count > shown.count ? ", and \(days.count - shown.count) more" : ""
        let count = days.count == 1 ? "1 day" : "\(days.count) days"
        var tail: [String] = []
        if let steps = answer["entries"]?.arrayValue {
            tail.append("\(steps.count) \(answer["type"]?.stringValue ?? "") steps")
        }
        if let time = localTime(answer["fetchedAt"], answer, now: now) { tail.append("fetched \(time)") }
        tail.append(freshness(answer, now: now))
        return
            "\(placeName(answer)), \(count): \(shown.joined(separator: ", "))\(more); \(tail.joined(separator: ", "))"
    }

    /// `3 favorites: Berlin, Office, Paris`, with how to get the next page when there is one.
    static func favorites(_ page: JSONValue) -> String {
        let names = (page["favorites"]?.arrayValue ?? []).map { $0["name"]?.stringValue ?? "?" }
        guard !names.isEmpty else { return "No favorites on this page." }
        let more = page["nextCursor"]?.stringValue.map { "; more with cursor \($0)" } ?? ""
        return "\(counted(names.count, "favorite")): \(listed(names))\(more)"
    }

    /// `Added fav-3: Berlin (DE) at 52.52, 13.41; alerts on`.
    static func added(_ favorite: JSONValue) -> String {
        "Added \(describe(favorite)); alerts \(favorite["notify"] == true ? "on" : "off")"
    }

    /// `Removed fav-2: Hut (CH) at 46.5, 8.0`.
    static func removed(_ favorite: JSONValue) -> String { "Removed \(describe(favorite))" }

    /// `2 places match "Berlin": Berlin (DE, State of Berlin), Berlin (US, New Hampshire)`.
    static func candidates(_ answer: JSONValue, query: String) -> String {
        let candidates = answer["candidates"]?.arrayValue ?? []
        guard !candidates.isEmpty else { return "No place matches \"\(query)\"." }
        let names = candidates.map { candidate -> String in
            let region = [candidate["country"]?.stringValue, candidate["state"]?.stringValue].compactMap { $0 }
            let name = candidate["name"]?.stringValue ?? "?"
            return region.isEmpty ? name : "\(name) (\(region.joined(separator: ", ")))"
        }
        let verb = candidates.count == 1 ? "matches" : "match"
        return "\(counted(candidates.count, "place")) \(verb) \"\(query)\": \(listed(names))"
    }

    /// `Refreshed 2 of 3 places; failed: Hut (offline); 1 pending`.
    static func refresh(_ answer: JSONValue) -> String {
        let results = answer["results"]?.arrayValue ?? []
        let pending = answer["pending"]?.intValue ?? 0
        let total = results.count + Int(pending)
        guard total > 0 else { return "Nothing to refresh: no current location and no favorites." }
        let failed = results.filter { $0["ok"] != true }.map { result -> String in
            let name = result["name"]?.stringValue ?? result["place"]?.stringValue ?? "?"
            return "\(name) (\(result["error"]?.stringValue ?? "failed"))"
        }
        var line = "Refreshed \(results.count - failed.count) of \(counted(total, "place"))"
        if !failed.isEmpty { line += "; failed: \(listed(failed))" }
        if pending > 0 { line += "; \(pending) pending" }
        return line
    }

    /// `Current location set to Kathmandu (27.72, 85.32); refreshing every place`.
    static func location(_ answer: JSONValue) -> String {
        let lat = answer["lat"]?.doubleValue ?? 0
        let lon = answer["lon"]?.doubleValue ?? 0
        let name = answer["name"]?.stringValue.map { "\($0) " } ?? ""
        let refresh =
            answer["refresh"] == true
            ? "refreshing the weather of every place" : "a move under 5 km, so no refresh"
        return "Current location set to \(name)(\(coordinate(lat)), \(coordinate(lon))); \(refresh)"
    }

    /// The 16-point compass direction the wind blows from.
    static func compass(_ degrees: Double) -> String {
        let points = [
            "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
        ]
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return points[Int((normalized / 22.5).rounded()) % 16]
    }

    private static func placeName(_ answer: JSONValue) -> String {
        let location = answer["location"]
        if let name = location?["name"]?.stringValue { return name }
        guard let lat = location?["lat"]?.doubleValue, let lon = location?["lon"]?.doubleValue else { return "?" }
        return PlaceNaming.writtenOut(lat: lat, lon: lon)
    }

    /// `fresh`, or `stale, 25 min old` (`Staleness`, the rule of every face).
    private static func freshness(_ answer: JSONValue, now: Timestamp) -> String {
        Staleness.mark(answer, now: now) ?? "fresh"
    }

    /// `HH:MM` of a time member in the place's local time (by its zone's rules around `now`).
    private static func localTime(_ member: JSONValue?, _ answer: JSONValue, now: Timestamp) -> String? {
        guard let text = member?.stringValue, let time = Timestamp(rfc3339: text) else { return nil }
        let minuteOfDay = LocalDate.minuteOfDay(time, zone: .of(location: answer["location"], around: now))
        let hours = minuteOfDay / 60
        let minutes = minuteOfDay % 60
        return "\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
    }

    /// `Tue` for `YYYY-MM-DD`, else the text as it is.
    private static func weekday(_ date: String) -> String {
        LocalDate.dayNumber(of: date).map(CivilDate.weekdayAbbreviation(ofDay:)) ?? date
    }

    /// A value, to the whole, with its unit as the answer names it: `4 °C`, `17 km/h`.
    private static func quantity(_ value: Double, _ unit: JSONValue?) -> String {
        guard let unit = unit?.stringValue else { return whole(value) }
        return "\(whole(value)) \(unit)"
    }

    private static func whole(_ value: Double) -> String {
        let rounded = value.rounded()
        return String(Int64(rounded == 0 ? 0 : rounded))
    }

    /// Degrees to two decimals.
    private static func coordinate(_ value: Double) -> String { "\(Rounding.round(value, decimals: 2))" }

    private static func counted(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }

    /// Up to ten names, then how many more.
    private static func listed(_ names: [String]) -> String {
        let shown = names.prefix(10).joined(separator: ", ")
        return names.count > 10 ? "\(shown) and \(names.count - 10) more" : shown
    }

    private static func describe(_ favorite: JSONValue) -> String {
        let id = favorite["id"]?.stringValue ?? "?"
        let name = favorite["name"]?.stringValue ?? "?"
        let country = favorite["country"]?.stringValue.map { " (\($0))" } ?? ""
        let lat = favorite["lat"]?.doubleValue.map(coordinate) ?? "?"
        let lon = favorite["lon"]?.doubleValue.map(coordinate) ?? "?"
        return "\(id): \(name)\(country) at \(lat), \(lon)"
    }
}
