import Providers
import WeatherDomain
import WeatherRuntime

/// The official warnings in force at every place with alerts on, as weatherd last fetched them.
package struct WarningsInForce: Sendable, Equatable {
    /// One place with alerts on: the current location (`favoriteId` nil) or a favorite.
    package struct PlaceWarnings: Sendable, Equatable {
        package var favoriteId: String?
        /// The place's warnings (none when they were never fetched: see `checked`).
        package var answer: WarningsAnswer
        /// Whether weatherd has fetched this place's warnings at all.
        package var checked: Bool
    }

    package var places: [PlaceWarnings]

    /// `{places: [{favoriteId?, checked, location, warnings, source, attribution, stale, fetchedAt, coverage}]}`.
    package var json: JSONValue {
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
    package var all: [(place: String, warning: OfficialWarning)] {
        places.flatMap { place in
            place.answer.warnings.map { (place.answer.place.name ?? place.answer.place.key, $0) }
        }
    }

    /// One line for people: the warnings in force, most severe first, or that there are none.
    package var summary: String {
        let warnings = all.sorted { $0.warning.severity > $1.warning.severity }
        guard !warnings.isEmpty else {
            let covered = places.filter { $0.answer.coverage.source != nil }.count
            return "No official warnings in force at the \(places.count) place(s) with alerts on "
                + "(\(covered) covered by NWS or MeteoAlarm)."
        }
        let listed = warnings.prefix(5).map { "\($0.place): \($0.warning.event) (\($0.warning.severity.rawValue))" }
        let more = warnings.count > 5 ? "; and \(warnings.count - 5) more" : ""
        return "Official warnings in force: \(listed.joined(separator: "; "))\(more)."
    }
}

extension Engine {
    /// The official warnings in force at the current location and every favorite with alerts on, from the
    /// cache alone (no call): what the last check or `warnings/list` fetched, less what has ended since.
    /// `stale` marks a set older than the 5 minutes warnings are cached.
    package func warningsInForce() async -> WarningsInForce {
        let now = clock.timestamp()
        let cached = await cache.read { $0.warnings }
        var places: [WarningsInForce.PlaceWarnings] = []
        for target in await alertTargets() {
            let place = await describe(target.place)
            let coverage = WarningCoverage.of(place)
            var answer = WarningsAnswer(place: place, coverage: coverage, warnings: [], fetchedAt: nil, stale: false)
            var entry: Cached<[OfficialWarning]>?
            switch coverage {
            case .none: break
            case .nws: entry = cached[WarningsFetched.entry(source: .nws, key: place.key)]
            case .meteoalarm(let country, _):
                entry = cached[WarningsFetched.entry(source: .meteoalarm, key: country)].map {
                    Cached(
                        value: MeteoAlarmAreas.warnings($0.value, for: place), fetchedAt: $0.fetchedAt,
                        provider: $0.provider)
                }
            }
            if let entry {
                answer.warnings = entry.value.filter { now < $0.activeUntil }
                answer.fetchedAt = entry.fetchedAt
                answer.stale = now.milliseconds - entry.fetchedAt.milliseconds >= FetchActor.warningsTTL.milliseconds
            }
            places.append(
                WarningsInForce.PlaceWarnings(
                    favoriteId: target.favoriteId, answer: answer, checked: entry != nil || coverage.source == nil))
        }
        return WarningsInForce(places: places)
    }
}

/// A page of the alerts raised and the official warnings in force, as MCP's `get_alerts` answers them.
package struct AlertsOverview: Sendable, Equatable {
    /// The page of `alerts/list`: `{alerts, nextCursor?}`.
    package var page: JSONValue
    package var inForce: WarningsInForce

    /// The page with `warnings`, the places with alerts on and their warnings in force.
    package var json: JSONValue {
        guard case .object(var object) = page else { return page }
        object["warnings"] = inForce.json["places"] ?? []
        return .object(object)
    }

    /// One line for people: how many alerts the page holds (how many official), then the warnings in force.
    package var summary: String {
        let alerts = page["alerts"]?.arrayValue ?? []
        let official = alerts.filter { $0["origin"] == "official" }.count
        return "\(alerts.count) alert(s) on this page, \(official) of them official warnings. \(inForce.summary)"
    }
}

extension Engine {
    /// A page of the alerts raised, most recent first, with the official warnings in force at the places
    /// with alerts on (from the cache).
    package func alertsOverview(_ page: PageRequest) async throws -> AlertsOverview {
        AlertsOverview(page: try await listAlerts(page)(), inForce: await warningsInForce())
    }
}
