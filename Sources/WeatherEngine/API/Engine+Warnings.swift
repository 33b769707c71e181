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
    /// How each warning (by id) was found to concern the place: `point` (NWS, asked for it), `cell` (Bright
    /// Sky's municipal warn cell), `region` (MeteoAlarm's region name), `polygon`, `circle` or `area` (the
    /// aggregator's: see `AggregatorAreas`).
    package var matches: [String: String] = [:]
    /// What could not be read (an aggregator's document that failed), each in a sentence; empty when all was.
    package var problems: [String] = []

    package init(
        place: Place, coverage: WarningCoverage, warnings: [OfficialWarning], fetchedAt: Timestamp?, stale: Bool,
        matches: [String: String] = [:], problems: [String] = []
    ) {
        self.place = place
        self.coverage = coverage
        self.warnings = warnings
        self.fetchedAt = fetchedAt
        self.stale = stale
        self.matches = matches
        self.problems = problems
    }

    /// The credit each source asks for.
    package static func attribution(_ source: OfficialWarning.Source) -> String {
        switch source {
        case .nws: "National Weather Service"
        case .meteoalarm: MeteoAlarmWarningProvider.attribution
        case .brightsky: BrightSkyWarningProvider.attribution
        case .fpas: FPASWarningProvider.attribution
        }
    }

    /// How a source's warnings concern a place when the source answers for the place itself (nil for the
    /// aggregator, whose warnings are matched one by one).
    static func match(_ coverage: WarningCoverage) -> String? {
        switch coverage {
        case .nws: "point"
        case .brightsky: "cell"
        case .meteoalarm: "region"
        case .aggregator, .none: nil
        }
    }
}

extension Engine {
    /// The official warnings in force at a place, from the source of its jurisdiction (`WarningRouting`): NWS for
    /// US places (and any point NWS covers), Bright Sky for German ones (by municipality), MeteoAlarm's country
    /// feed matched by region or name for its other countries, the FOSS Public Alert Server elsewhere (matched by
    /// the warnings' shapes), none (with the coverage note) where no source covers the place. Cached 5 minutes;
    /// when the source cannot be reached, the last set is served, marked stale.
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
        case .brightsky:
            let cell = try await fetcher.brightSkyWarnings(at: place, refresh: refresh, cause: cause)
            answer = cell.map(cell.value.warnings)
            warnings = answer.value
        case .meteoalarm(let country, _):
            answer = try await fetcher.meteoAlarmWarnings(country: country, refresh: refresh, cause: cause)
            warnings = MeteoAlarmAreas.warnings(answer.value, for: place)
        case .aggregator:
            return try await aggregatorAnswer(at: place, coverage: coverage, refresh: refresh, cause: cause)
        }
        // The set was decided when fetched; a warning may have ended since.
        let now = clock.timestamp()
        warnings = warnings.filter { $0.inForce(at: now) }
        let match = WarningsAnswer.match(coverage)
        return WarningsAnswer(
            place: place, coverage: coverage, warnings: warnings, fetchedAt: answer.fetchedAt, stale: answer.stale,
            matches: Dictionary(warnings.map { ($0.id, match ?? "") }) { first, _ in first })
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
