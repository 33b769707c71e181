import WeatherDomain

extension Engine {
    /// Refreshes everything weatherd keeps for one place, as a bar's click expects: its current weather and
    /// forecast, whatever their freshness (the rate limit holds), then its official warnings and air quality
    /// with the alert rules of the places with alerts on there, and its nowcast when something watches it
    /// (`refreshKept`). Answers once all of it is done; the weather's outcome is the answer's. A city's geocoding
    /// and history entry and the weather's events go out as one append.
    package func refresh(_ place: PlaceQuery, cause: String) async throws -> RefreshReport {
        let (resolved, outcome) = try await slices.committing { batch in
            let resolved = try await resolve(place, cause: cause, batch: batch)
            let target: RefreshOutcome.Target
            switch place {
            case .currentLocation:
                target = .current
            case .favorite(let text):
                target = await favorites.read { $0.favorite(idOrName: text) }.map { .favorite(id: $0.id) } ?? .place
            case .city, .coordinates:
                target = .place
            }
            return (
                resolved, await Self.refreshWeather(target, at: resolved, fetcher: fetcher, cause: cause, batch: batch)
            )
        }
        await refreshKept(at: [resolved.key], cause: cause)
        return RefreshReport(scope: nil, results: [outcome])
    }

    /// What a refresh adds to the weather at the places with these keys (every place when nil): their official
    /// warnings and air quality, through the fetch path and within its windows (warnings 5 minutes, air quality an
    /// hour), with the alert rules (`checkOfficial`), and their nowcasts where watched, at their sources' cadence.
    func refreshKept(at keys: Set<String>?, cause: String) async {
        await checkOfficial(only: keys, cause: cause)
        await refreshWatchedNowcasts(only: keys, cause: cause)
    }
}
