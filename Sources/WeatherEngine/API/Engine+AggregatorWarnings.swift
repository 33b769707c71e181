import Providers
import WeatherDomain
import WeatherRuntime

extension Engine {
    /// The warnings the FOSS Public Alert Server has in force at `place`: the ids it lists for a small box around
    /// the place, each CAP document read once (cached by id until it ends; at most
    /// `FPASWarningProvider.maxDocuments` new ones an answer), `WarningRules.active` over them all (an update in
    /// one document replaces a message in another), then the warnings whose shapes hold the place
    /// (`AggregatorAreas`). A document that cannot be read is left out and named in `problems`.
    func aggregatorAnswer(at place: Place, coverage: WarningCoverage, refresh: Bool, cause: String) async throws
        -> WarningsAnswer
    {
        let listed = try await fetcher.aggregatorAlertIDs(at: place, refresh: refresh, cause: cause)
        var messages: [OfficialWarning] = []
        var problems: [String] = []
        for (index, id) in listed.value.enumerated() {
            guard index < FPASWarningProvider.maxDocuments else {
                problems.append(
                    "\(listed.value.count - index) more alerts listed for this area were not read "
                        + "(at most \(FPASWarningProvider.maxDocuments) an answer).")
                break
            }
            do {
                messages += try await fetcher.aggregatorDocument(id: id, cause: cause).value
            } catch let failure as ProviderError {
                problems.append("The alert \(id) could not be read: \(failure.message)")
            }
        }
        let now = clock.timestamp()
        let active = WarningRules.active(messages, now: now, language: fetcher.warningsLanguage)
        let covering = AggregatorAreas.covering(active, lat: place.lat, lon: place.lon)
        return WarningsAnswer(
            place: place, coverage: coverage, warnings: covering.map(\.warning), fetchedAt: listed.fetchedAt,
            stale: listed.stale,
            matches: Dictionary(covering.map { ($0.warning.id, $0.match.rawValue) }) { first, _ in first },
            problems: problems)
    }
}

/// The warnings a place's source has in force, from the cache alone (no call).
enum CachedWarnings {
    /// The warnings at `place` for `coverage` in `cache`, with when they were fetched and how each concerns the
    /// place; nil when nothing is cached for the place's source. For the aggregator: the list of its last answer,
    /// the documents cached of it, `WarningRules.active` at `now` over them (in `language`), then the warnings whose
    /// shapes hold the place.
    static func lookup(
        _ coverage: WarningCoverage, at place: Place, in cache: WeatherCache, now: Timestamp, language: String?
    ) -> (entry: Cached<[OfficialWarning]>, matches: [String: String])? {
        let entry: Cached<[OfficialWarning]>?
        switch coverage {
        case .none: return nil
        case .nws: entry = cache.warnings[WarningsFetched.entry(source: .nws, key: place.key)]
        case .brightsky: entry = cache.warnings[WarningsFetched.entry(source: .brightsky, key: place.key)]
        case .meteoalarm(let country, _):
            entry = cache.warnings[WarningsFetched.entry(source: .meteoalarm, key: country)].map {
                Cached(
                    value: MeteoAlarmAreas.warnings($0.value, for: place), fetchedAt: $0.fetchedAt,
                    provider: $0.provider)
            }
        case .aggregator:
            guard let listed = cache.warningLists[WarningsListed.entry(source: .fpas, kind: .alerts, key: place.key)]
            else { return nil }
            let messages = listed.value.ids.flatMap {
                cache.warnings[WarningsFetched.entry(source: .fpas, key: $0)]?.value ?? []
            }
            let covering = AggregatorAreas.covering(
                WarningRules.active(messages, now: now, language: language), lat: place.lat, lon: place.lon)
            return (
                Cached(value: covering.map(\.warning), fetchedAt: listed.fetchedAt, provider: listed.provider),
                Dictionary(covering.map { ($0.warning.id, $0.match.rawValue) }) { first, _ in first }
            )
        }
        guard let entry else { return nil }
        let match = WarningsAnswer.match(coverage) ?? ""
        return (entry, Dictionary(entry.value.map { ($0.id, match) }) { first, _ in first })
    }
}
