import Providers
import Synchronization
import WeatherDomain
import WeatherRuntime

/// Who watches which places' next minutes: the places named by a watch (a bar, an MCP subscription to a
/// nowcast resource), and whether anything follows the alerts (an events or alerts subscription), which makes
/// the places with alerts on watched. Each watch is held for as long as its holder's task runs.
package final class NowcastWatchers: Sendable {
    private struct State {
        var places: [Int: Place] = [:]
        var followers = 0
        var nextToken = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// The places watched by name, and whether anything follows the alerts.
    package var watched: (places: [Place], followingAlerts: Bool) {
        state.withLock { (Array($0.places.values), $0.followers > 0) }
    }

    /// Watches `place` while `body` runs.
    func watching<T: Sendable>(_ place: Place, _ body: () async throws -> T) async rethrows -> T {
        let token = state.withLock { state in
            state.nextToken += 1
            state.places[state.nextToken] = place
            return state.nextToken
        }
        defer { _ = state.withLock { $0.places.removeValue(forKey: token) } }
        return try await body()
    }

    /// Counts a follower of the alerts while `body` runs.
    func following<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        state.withLock { $0.followers += 1 }
        defer { state.withLock { $0.followers -= 1 } }
        return try await body()
    }
}

extension Engine {
    /// Keeps `place`'s nowcast refreshed at its source's cadence until cancelled (a bar's, or an MCP
    /// subscription's, `nowcast/watch`).
    package func watchNowcast(_ place: PlaceQuery, cause: String) async throws {
        let resolved = try await resolve(place, cause: cause)
        await nowcastWatchers.watching(resolved) { await untilCancelled() }
    }

    /// Runs `body` (an events or alerts subscription) with the places with alerts on watched.
    package func followingAlerts<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await nowcastWatchers.following(body)
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
    package func refreshWatchedNowcasts(cause: String) async {
        for place in await watchedPlaces() {
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

    /// The watched places, each once: by name, the alert targets while followed or with the `nowcast` rule on.
    private func watchedPlaces() async -> [Place] {
        let (named, following) = nowcastWatchers.watched
        let ruleOn = await alerts.read { $0.settings.nowcast }
        var places = named
        if following || ruleOn { places += await alertTargetPlaces() }
        var seen: Set<String> = []
        return places.filter { seen.insert($0.key).inserted }
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
