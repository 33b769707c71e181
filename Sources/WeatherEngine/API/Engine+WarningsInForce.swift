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
}

extension Engine {
    /// The official warnings in force at the current location and every favorite with alerts on, from the
    /// cache alone (no call): what the last check or `warnings/list` fetched, less what has ended since.
    /// `stale` marks a set older than the 5 minutes warnings are cached.
    package func warningsInForce() async -> WarningsInForce {
        let now = clock.timestamp()
        let cached = await cache.read { $0 }
        var places: [WarningsInForce.PlaceWarnings] = []
        for target in await alertTargets() {
            let asked = await describe(target.place)
            // A point whose coverage was never learned is shown as not yet checked.
            let known = cachedCoverage(of: asked, in: cached)
            let (coverage, place) =
                known
                ?? (.none(note: "Not checked yet: weatherd has not yet asked which service covers this point."), asked)
            var answer = WarningsAnswer(place: place, coverage: coverage, warnings: [], fetchedAt: nil, stale: false)
            let found = CachedWarnings.lookup(
                coverage, at: place, in: cached, now: now, language: fetcher.warningsLanguage)
            let entry = found?.entry
            if let entry {
                answer.warnings = entry.value.filter { $0.inForce(at: now) }
                answer.matches = found?.matches ?? [:]
                answer.fetchedAt = entry.fetchedAt
                answer.stale = now.milliseconds - entry.fetchedAt.milliseconds >= FetchActor.warningsTTL.milliseconds
            }
            places.append(
                WarningsInForce.PlaceWarnings(
                    favoriteId: target.favoriteId, answer: answer,
                    checked: entry != nil || (known != nil && coverage.source == nil)))
        }
        return WarningsInForce(places: places)
    }
}
