import Providers
import WeatherDomain
import WeatherRuntime

/// The official warnings in force at a place, as `warnings/list` and MCP's `get_warnings` answer them.
package struct WarningsAnswer: Sendable, Equatable {
    /// The place, with the country and region weatherd knows for it.
    package var place: Place
    package var coverage: WarningCoverage
    /// The warnings in force now, in the source's order.
    package var warnings: [OfficialWarning]
    /// When the source was last reached (nil outside coverage).
    package var fetchedAt: Timestamp?
    /// True when the source could not be reached and the last set is served.
    package var stale: Bool

    /// The credit each source asks for.
    package static func attribution(_ source: OfficialWarning.Source) -> String {
        switch source {
        case .nws: "National Weather Service"
        case .meteoalarm: MeteoAlarmWarningProvider.attribution
        }
    }
}

extension Engine {
    /// The official warnings in force at a place: from NWS for US places (and any point NWS covers), from
    /// MeteoAlarm's country feed matched by region or name for European ones, none (with the coverage note)
    /// elsewhere. Cached 5 minutes; when the source cannot be reached, the last set is served, marked stale.
    package func warnings(_ place: PlaceQuery, origin: Origin) -> Completion<WarningsAnswer> {
        Completion {
            let resolved = await self.describe(try await self.resolve(place, cause: origin.cause))
            return try await self.warningsAnswer(at: resolved, cause: origin.cause)
        }
    }

    /// The warnings in force at a resolved place; one without a country has its coverage (and country and
    /// region) learned first (`coverage(of:cause:)`), and is answered as the place so described.
    func warningsAnswer(at asked: Place, refresh: Bool = false, cause: String) async throws -> WarningsAnswer {
        let (coverage, place) = try await coverage(of: asked, cause: cause)
        let answer: FetchAnswer<[OfficialWarning]>
        var warnings: [OfficialWarning]
        switch coverage {
        case .none:
            return WarningsAnswer(place: place, coverage: coverage, warnings: [], fetchedAt: nil, stale: false)
        case .nws:
            answer = try await fetcher.nwsWarnings(at: place, refresh: refresh, cause: cause)
            warnings = answer.value
        case .meteoalarm(let country, _):
            answer = try await fetcher.meteoAlarmWarnings(country: country, refresh: refresh, cause: cause)
            warnings = MeteoAlarmAreas.warnings(answer.value, for: place)
        }
        // The set was decided when fetched; a warning may have ended since.
        let now = clock.timestamp()
        warnings = warnings.filter { now < $0.activeUntil }
        return WarningsAnswer(
            place: place, coverage: coverage, warnings: warnings, fetchedAt: answer.fetchedAt, stale: answer.stale)
    }

    /// `place` with the country, region and name weatherd knows for its coordinates, where it lacks them: those
    /// of a favorite, a searched city or a geocoded candidate at the same cache key (about 1 km). A place still
    /// without a country has it learned from NWS or the provider when its warnings are asked for.
    func describe(_ place: Place) async -> Place { await knownPlaces().describe(place) }

    /// The places weatherd knows by name, indexed by key: built once for an answer about many places.
    func knownPlaces() async -> KnownPlaces {
        let history = await history.read { $0 }
        let favorites = await favorites.read { $0 }
        let geocodes = await cache.read { $0.geocodes }
        return KnownPlaces(history: history, favorites: favorites, geocodes: geocodes)
    }
}
