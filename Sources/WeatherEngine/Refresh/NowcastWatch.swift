import Providers
import Synchronization
import WeatherDomain
import WeatherRuntime

/// Who watches which places' next minutes: the places named by a watch (a bar, an MCP subscription to a
/// nowcast resource), and whether anything follows the alerts (an events or alerts subscription), which makes
/// the places with alerts on watched.
///
/// Every watch belongs to a holder (`NowcastWatches`, one per connection), which ends them all at once: a
/// connection that goes ends its holder, and nothing it watched is refreshed from then on, whatever its tasks
/// are still doing.
package final class NowcastWatchers: Sendable {
    private struct State {
        /// Holder → its watches by token, and how many alert followers it runs.
        var holders: [Int: Held] = [:]
        /// Place key → how many watches name it.
        var keys: [String: Int] = [:]
        var followers = 0
        var nextHolder = 0
        var nextToken = 0
    }

    private struct Held {
        var places: [Int: Place] = [:]
        var followers = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// The places watched by name, and whether anything follows the alerts.
    package var watched: (places: [Place], followingAlerts: Bool) {
        state.withLock { state in
            (state.holders.values.flatMap { $0.places.values }, state.followers > 0)
        }
    }

    /// Whether a watch names the place with this key now.
    package func isWatched(_ key: String) -> Bool { state.withLock { $0.keys[key, default: 0] > 0 } }

    /// Whether anything follows the alerts now.
    package var followingAlerts: Bool { state.withLock { $0.followers > 0 } }

    /// A new holder of watches.
    package func holder() -> NowcastWatches {
        let id = state.withLock { state in
            state.nextHolder += 1
            state.holders[state.nextHolder] = Held()
            return state.nextHolder
        }
        return NowcastWatches(id: id, registry: self)
    }

    /// Adds a watch of `place` for `holder`; nil (and nothing watched) once the holder has ended.
    fileprivate func add(_ place: Place, holder: Int) -> Int? {
        state.withLock { state in
            guard state.holders[holder] != nil else { return nil }
            state.nextToken += 1
            state.holders[holder]?.places[state.nextToken] = place
            state.keys[place.key, default: 0] += 1
            return state.nextToken
        }
    }

    fileprivate func remove(_ token: Int, holder: Int) {
        state.withLock { state in
            guard let place = state.holders[holder]?.places.removeValue(forKey: token) else { return }
            Self.forget(place.key, in: &state)
        }
    }

    /// Counts a follower for `holder`; false (and nothing counted) once the holder has ended.
    fileprivate func follow(holder: Int, by change: Int) -> Bool {
        state.withLock { state in
            guard state.holders[holder] != nil else { return false }
            state.holders[holder]?.followers += change
            state.followers += change
            return true
        }
    }

    /// Ends every watch and follower of `holder`, and any it would start later.
    fileprivate func end(holder: Int) {
        state.withLock { state in
            guard let held = state.holders.removeValue(forKey: holder) else { return }
            for place in held.places.values { Self.forget(place.key, in: &state) }
            state.followers -= held.followers
        }
    }

    private static func forget(_ key: String, in state: inout State) {
        let count = state.keys[key, default: 0] - 1
        state.keys[key] = count > 0 ? count : nil
    }
}

/// The watches one connection holds: each lasts while its task runs, and all of them end, at once and for
/// good, when the connection ends the holder (`end()`, from its `finish`).
package final class NowcastWatches: Sendable {
    private let id: Int
    private let registry: NowcastWatchers

    fileprivate init(id: Int, registry: NowcastWatchers) {
        self.id = id
        self.registry = registry
    }

    /// Watches `place` while `body` runs; once the holder has ended, `body` runs with nothing watched.
    func watching<T: Sendable>(_ place: Place, _ body: () async throws -> T) async rethrows -> T {
        guard let token = registry.add(place, holder: id) else { return try await body() }
        defer { registry.remove(token, holder: id) }
        return try await body()
    }

    /// Counts a follower of the alerts while `body` runs (not once the holder has ended).
    func following<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        guard registry.follow(holder: id, by: 1) else { return try await body() }
        defer { _ = registry.follow(holder: id, by: -1) }
        return try await body()
    }

    /// Ends every watch and follower of this holder now, and refuses any it would start later.
    package func end() { registry.end(holder: id) }
}

extension Engine {
    /// A holder for one connection's watches, which the connection ends when it goes.
    package func openWatches() -> NowcastWatches { nowcastWatchers.holder() }

    /// Keeps `place`'s nowcast refreshed at its source's cadence until cancelled or `watches` ends (a bar's, or
    /// an MCP subscription's, `nowcast/watch`).
    package func watchNowcast(_ place: PlaceQuery, by watches: NowcastWatches, cause: String) async throws {
        let resolved = try await resolve(place, cause: cause)
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
