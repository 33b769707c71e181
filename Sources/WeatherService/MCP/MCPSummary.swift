import WeatherDomain
import WeatherEngine

/// The one-line summaries that begin tool results, written from the engine's typed answers in the reader's
/// units (the unit names an answer's `units` gives), never read back from the JSON built beside them.
enum MCPSummary {
    /// `Berlin: 4 °C, slight rain, wind 17 km/h SW, as of 10:00, fresh`.
    static func current(_ weather: CurrentWeather, now: Timestamp) -> String {
        let report = weather.answer.value
        let current = report.current
        let units = weather.units
        var parts = [
            quantity(WeatherFormatting.temperature(current.temperature, units), units, .temperature),
            current.condition.text,
        ]
        if let speed = current.windSpeed {
            var said = "wind \(quantity(WeatherFormatting.speed(speed, units), units, .windSpeed))"
            if let degrees = current.windDirection { said += " \(compass(WeatherFormatting.round(degrees)))" }
            parts.append(said)
        }
        parts.append("as of \(localTime(current.observedAt, zone: report.zone(around: now)))")
        parts.append(freshness(weather.answer, now: now))
        return "\(placeName(report.place)): \(parts.joined(separator: ", "))"
    }

    /// `Berlin, 5 days: today 2–6 °C slight rain, Tue 1–5 °C overcast, …; fetched 10:00, fresh`.
    static func forecast(_ weather: ForecastWeather, now: Timestamp) -> String {
        let report = weather.answer.value
        let shown = ForecastSelection(weather)
        let zone = report.zone(around: now)
        let today = LocalDate.string(now, zone: zone)
        let days = shown.days.prefix(3).map { day -> String in
            let low = WeatherFormatting.temperature(day.min, weather.units)
            let high = WeatherFormatting.temperature(day.max, weather.units)
            let name = day.date == today ? "today" : weekday(day.date)
            return "\(name) \(whole(low))–\(quantity(high, weather.units, .temperature)) \(day.condition.text)"
        }
        let more = shown.days.count > days.count ? ", and \(shown.days.count - days.count) more" : ""
        let count = shown.days.count == 1 ? "1 day" : "\(shown.days.count) days"
        var tail: [String] = []
        if let steps = shown.steps.count { tail.append("\(steps) \(weather.type.rawValue) steps") }
        tail.append("fetched \(localTime(weather.answer.fetchedAt, zone: zone))")
        tail.append(freshness(weather.answer, now: now))
        return
            "\(placeName(report.place)), \(count): \(days.joined(separator: ", "))\(more); \(tail.joined(separator: ", "))"
    }

    /// `3 favorites: Berlin, Office, Paris`, with how to get the next page when there is one.
    static func favorites(_ page: ArraySlice<Favorite>, nextCursor: String?) -> String {
        guard !page.isEmpty else { return "No favorites on this page." }
        let more = nextCursor.map { "; more with cursor \($0)" } ?? ""
        return "\(counted(page.count, "favorite")): \(listed(page.map(\.name)))\(more)"
    }

    /// `Added fav-3: Berlin (DE) at 52.52, 13.41; alerts on`; nil (a change that changed nothing): said so.
    static func added(_ favorite: Favorite?) -> String {
        guard let favorite else { return "No favorite added: nothing changed" }
        return "Added \(describe(favorite)); alerts \(favorite.notify ? "on" : "off")"
    }

    /// `Removed fav-2: Hut (CH) at 46.5, 8.0`; nil (a change that changed nothing): said so.
    static func removed(_ favorite: Favorite?) -> String {
        guard let favorite else { return "No favorite removed: nothing changed" }
        return "Removed \(describe(favorite))"
    }

    /// `2 places match "Berlin": Berlin (DE, State of Berlin), Berlin (US, New Hampshire)`.
    static func candidates(_ candidates: [Place], query: String) -> String {
        guard !candidates.isEmpty else { return "No place matches \"\(query)\"." }
        let names = candidates.map { candidate -> String in
            let region = [candidate.country, candidate.state].compactMap { $0 }
            let name = candidate.name ?? "?"
            return region.isEmpty ? name : "\(name) (\(region.joined(separator: ", ")))"
        }
        let verb = candidates.count == 1 ? "matches" : "match"
        return "\(counted(candidates.count, "place")) \(verb) \"\(query)\": \(listed(names))"
    }

    /// `Refreshed 2 of 3 places; failed: Hut (offline); 1 pending`.
    static func refresh(_ results: [RefreshOutcome], pending: Int) -> String {
        let total = results.count + pending
        guard total > 0 else { return "Nothing to refresh: no current location and no favorites." }
        let failed = results.compactMap { result in
            result.failure.map { "\(result.place.name ?? result.label) (\($0))" }
        }
        var line = "Refreshed \(results.count - failed.count) of \(counted(total, "place"))"
        if !failed.isEmpty { line += "; failed: \(listed(failed))" }
        if pending > 0 { line += "; \(pending) pending" }
        return line
    }

    /// `Current location set to Kathmandu (27.72, 85.32); refreshing every place`.
    static func location(_ location: Location) -> String {
        let name = location.name.map { "\($0) " } ?? ""
        let refresh = location.refresh ? "refreshing the weather of every place" : "a move under 5 km, so no refresh"
        return
            "Current location set to \(name)(\(coordinate(location.lat)), \(coordinate(location.lon))); \(refresh)"
    }

    /// The 16-point compass direction the wind blows from.
    static func compass(_ degrees: Double) -> String {
        let points = [
            "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
        ]
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return points[Int((normalized / 22.5).rounded()) % 16]
    }

    private static func placeName(_ place: Place) -> String {
        place.name ?? PlaceNaming.writtenOut(lat: place.lat, lon: place.lon)
    }

    /// `fresh`, or `stale, 25 min old` (`Staleness`, the rule of every face).
    private static func freshness<Value>(_ answer: FetchAnswer<Value>, now: Timestamp) -> String {
        Staleness.mark(stale: answer.stale, fetchedAt: answer.fetchedAt, now: now) ?? "fresh"
    }

    /// `HH:MM` of `time` on the place's clocks.
    private static func localTime(_ time: Timestamp, zone: ZoneOffsets) -> String {
        let minuteOfDay = LocalDate.minuteOfDay(time, zone: zone)
        let hours = minuteOfDay / 60
        let minutes = minuteOfDay % 60
        return "\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
    }

    /// `Tue` for `YYYY-MM-DD`, else the text as it is.
    private static func weekday(_ date: String) -> String {
        LocalDate.dayNumber(of: date).map(CivilDate.weekdayAbbreviation(ofDay:)) ?? date
    }

    /// A value, to the whole, with the name of its unit in `units`: `4 °C`, `17 km/h`.
    private static func quantity(_ value: Double, _ units: UnitChoice, _ quantity: Quantity) -> String {
        "\(whole(value)) \(units.name(of: quantity))"
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

    private static func describe(_ favorite: Favorite) -> String {
        let country = favorite.country.map { " (\($0))" } ?? ""
        return "\(favorite.id): \(favorite.name)\(country) at \(coordinate(favorite.lat)), \(coordinate(favorite.lon))"
    }
}
