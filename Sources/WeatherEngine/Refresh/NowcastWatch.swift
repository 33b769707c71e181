import Providers
import WeatherDomain
import WeatherRuntime

extension Engine {
    /// A holder for one connection's watches, which the connection ends when it goes.
    package func openWatches() -> NowcastWatches { nowcastWatchers.holder() }

    /// Keeps `place`'s nowcast refreshed at its source's cadence until cancelled or `watches` ends (a bar's, or
    /// an MCP subscription's, `nowcast/watch`). A place that cannot be resolved (a city no geocoder knows, the
    /// geocoder down) is watched by nobody: the subscription goes on for its other work, and stderr says why.
    package func watchNowcast(_ place: PlaceQuery, by watches: NowcastWatches, cause: String) async {
        let resolved: Place
        do {
            resolved = try await resolve(place, cause: cause)
        } catch is CancellationError {
            return
        } catch {
            logger.warning("a nowcast watch (\(cause)) watches nothing: its place is not found: \(error)")
            return
        }
        await watches.watching(resolved) { await untilCancelled() }
    }

    /// Runs `body` (an events or alerts subscription) with the places with alerts on watched, until `watches`
    /// ends.
    package func followingAlerts<T: Sendable>(by watches: NowcastWatches, _ body: () async throws -> T)
        async rethrows -> T
    {
        try await watches.following(body)
    }

    /// Refreshes the watched places' nowcasts every `interval` of the clock until cancelled.
    package func runNowcastWatch(every interval: Duration) async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: interval) } catch { return }
            await refreshWatchedNowcasts(cause: "timer:nowcast")
        }
    }

    /// Refreshes the nowcast of each watched place that is due (its last answer is older than its source's
    /// cadence and the place's jitter) and records a `nowcast.changed` for each whose summary moved to another
    /// state. The places: those watched by name, those with the `nowcast` rule on (the alert targets, when the
    /// rule is on), and the alert targets while anything follows the alerts.
    ///
    /// - Parameter keys: the place keys to refresh, if watched (those a refresh named); all when nil.
    package func refreshWatchedNowcasts(only keys: Set<String>? = nil, cause: String) async {
        let (places, targetKeys) = await watchedPlaces()
        for place in places where keys?.contains(place.key) ?? true {
            // A watch that ended since the pass began (its connection gone) is not refreshed.
            guard await stillWatched(place.key, targetKeys: targetKeys) else { continue }
            let now = clock.timestamp()
            let due = await cache.read { Self.nowcastDue(place.key, in: $0, now: now) }
            guard due else { continue }
            do {
                let answer = try await nowcastAnswer(at: place, units: UnitChoice(system: .metric), cause: cause)
                await recordChange(answer, place: place, cause: cause)
            } catch {
                logger.debug("the nowcast of \(place.key) could not be refreshed: \(error)")
            }
        }
    }

    /// Whether the place's nowcast is due: no answer yet, or the latest is older than its source's cadence and
    /// the place's jitter (0–59 s by its key, so that places spread and none is asked on the hour).
    static func nowcastDue(_ key: String, in cache: WeatherCache, now: Timestamp) -> Bool {
        let latest = Nowcast.Source.allCases.compactMap { source in
            cache.nowcasts[NowcastFetched.entry(source: source, key: key)].map { (source, $0.fetchedAt) }
        }.max { $0.1 < $1.1 }
        guard let (source, fetchedAt) = latest else { return true }
        let jitter = Int64(key.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 } % 60) * 1000
        return now.milliseconds >= fetchedAt.milliseconds + NowcastSources.cadenceSeconds(source) * 1000 + jitter
    }

    /// Appends `nowcast.changed` when the answer's state is not the one last recorded for the place.
    private func recordChange(_ answer: NowcastAnswer, place: Place, cause: String) async {
        guard let summary = answer.summary, let nowcast = answer.answer?.value else { return }
        let at = answer.now
        do {
            let submission = try await cache.submit(cause: cause, corr: nil) { cache in
                let last = cache.nowcastReadings[place.key]
                guard last?.summary.state != summary.state else { return [] }
                return [
                    .nowcastChanged(
                        NowcastChanged(
                            key: place.key, place: place, source: nowcast.source, from: last?.summary.state,
                            summary: summary, precipitation: nowcast.kind, at: at))
                ]
            }
            _ = try await cache.commit(submission)
        } catch {
            logger.error("a nowcast change could not be recorded: \(error)")
        }
    }

    /// The watched places, each once: by name, the alert targets while followed or with the `nowcast` rule on;
    /// and the keys of the alert targets among them.
    private func watchedPlaces() async -> (places: [Place], targetKeys: Set<String>) {
        let (named, following) = nowcastWatchers.watched
        let ruleOn = await alerts.read { $0.settings.nowcast }
        let targets = following || ruleOn ? await alertTargetPlaces() : []
        var seen: Set<String> = []
        return ((named + targets).filter { seen.insert($0.key).inserted }, Set(targets.map(\.key)))
    }

    /// Whether the place is still watched: by name, or as an alert target while the alerts are followed or the
    /// `nowcast` rule is on.
    private func stillWatched(_ key: String, targetKeys: Set<String>) async -> Bool {
        if nowcastWatchers.isWatched(key) { return true }
        guard targetKeys.contains(key) else { return false }
        if nowcastWatchers.followingAlerts { return true }
        return await alerts.read { $0.settings.nowcast }
    }

    /// The favorites with alerts on and the current location, named as they are.
    private func alertTargetPlaces() async -> [Place] {
        var places = await favorites.read { state in
            state.items.filter(\.notify).map {
                Place(name: $0.name, country: $0.country, state: nil, lat: $0.lat, lon: $0.lon)
            }
        }
        if let here = await location.read({ $0.current }) {
            places.append(Place(name: here.name, country: nil, state: nil, lat: here.lat, lon: here.lon))
        }
        return places
    }
}
