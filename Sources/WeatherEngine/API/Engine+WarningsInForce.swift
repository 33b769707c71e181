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
    ///
    /// The state is read once and each place is described by the places known at its key (`KnownPlaces`), so
    /// the answer costs O(places), whatever else weatherd knows.
    package func warningsInForce() async -> WarningsInForce {
        let now = clock.timestamp()
        let targets = await alertTargets()
        let known = await knownPlaces()
        let cache = await cache.read { $0 }
        return WarningsInForce(
            targets: targets, known: known, cache: cache, now: now, language: fetcher.warningsLanguage
        ) { self.cachedCoverage(of: $0, in: cache) }
    }
}

extension WarningsInForce {
    /// The warnings in force at each of `targets`, from `cache`: each place described by the places `known` at
    /// its key, its coverage as `coverage` decides it from the cache (nil: not learned yet), the aggregator's
    /// documents read in `language` (`--warnings-language`).
    init(
        targets: [AlertTarget], known: KnownPlaces, cache: WeatherCache, now: Timestamp, language: String?,
        coverage: (Place) -> (coverage: WarningCoverage, place: Place)?
    ) {
        places = targets.map { target in
            let asked = known.describe(target.place)
            // A point whose coverage was never learned is shown as not yet checked.
            let learned = coverage(asked)
            let (coverage, place) =
                learned
                ?? (.none(note: "Not checked yet: weatherd has not yet asked which service covers this point."), asked)
            var answer = WarningsAnswer(place: place, coverage: coverage, warnings: [], fetchedAt: nil, stale: false)
            let found = CachedWarnings.lookup(coverage, at: place, in: cache, now: now, language: language)
            let entry = found?.entry
            if let entry {
                answer.warnings = entry.value.filter { $0.inForce(at: now) }
                answer.matches = found?.matches ?? [:]
                answer.fetchedAt = entry.fetchedAt
                answer.stale = now.milliseconds - entry.fetchedAt.milliseconds >= FetchActor.warningsTTL.milliseconds
            }
            return PlaceWarnings(
                favoriteId: target.favoriteId, answer: answer,
                checked: entry != nil || (learned != nil && coverage.source == nil))
        }
    }
}
