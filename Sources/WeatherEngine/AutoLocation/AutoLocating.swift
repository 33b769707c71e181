import Synchronization
import WeatherDomain
import WeatherRuntime

/// The engine's looking for the machine's location (`--auto-location`): at most one search at a time, which
/// every request that waits for it shares, and a search for a location found before at most once per
/// `AutoLocating.recheckInterval` on the engine's clock.
package final class AutoLocating: Sendable {
    /// The outcome of one search: the current location after it, or why there is none.
    package typealias Outcome = Result<Location, any Error>

    /// How often a location found before is looked for again (when a request uses it): a move of 5 km or more
    /// replaces it.
    package static let recheckInterval: Duration = .seconds(600)

    private struct State {
        var inFlight: Promise<Outcome>?
        var lastStarted: WallInstant?
    }

    private let state = Mutex(State())

    package init() {}

    /// The search to wait for: the one in flight, or a new one when `due` says so; `started` is true when the
    /// caller must run it (and `finish` it).
    func join(at now: WallInstant, due: (WallInstant?) -> Bool) -> (search: Promise<Outcome>, started: Bool)? {
        state.withLock { state in
            if let running = state.inFlight { return (running, false) }
            guard due(state.lastStarted) else { return nil }
            let search = Promise<Outcome>()
            state.inFlight = search
            state.lastStarted = now
            return (search, true)
        }
    }

    /// Ends the search in flight with `outcome`, answering every request that waits for it.
    func finish(_ outcome: Outcome) {
        let search = state.withLock { state in
            defer { state.inFlight = nil }
            return state.inFlight
        }
        search?.fulfill(outcome)
    }
}
