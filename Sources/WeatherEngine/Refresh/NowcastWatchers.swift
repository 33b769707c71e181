import Synchronization
import WeatherDomain

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
