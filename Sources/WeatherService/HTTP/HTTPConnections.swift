import Synchronization

/// The HTTP listener's open connections, counted: the `maxConnections` bound and its figures. The connections'
/// tasks live in the service's task group; this only counts them.
package final class HTTPConnections: Sendable {
    private struct State {
        var open = 0
        /// The most connections ever open at once.
        var peak = 0
        /// Connections refused because `maxConnections` were open.
        var refused = 0
    }

    private let maxConnections: Int
    private let state = Mutex(State())

    init(maxConnections: Int) { self.maxConnections = maxConnections }

    /// How many connections are open now.
    package var count: Int { state.withLock { $0.open } }
    /// The most connections that were ever open at once.
    package var peak: Int { state.withLock { $0.peak } }
    /// How many connections were refused for being one too many.
    package var refused: Int { state.withLock { $0.refused } }

    /// Counts one more connection, or (past `maxConnections`) a refusal: false.
    func admit() -> Bool {
        state.withLock { state -> Bool in
            guard state.open < maxConnections else {
                state.refused += 1
                return false
            }
            state.open += 1
            state.peak = max(state.peak, state.open)
            return true
        }
    }

    /// Counts one connection closed.
    func closed() { state.withLock { $0.open -= 1 } }
}
