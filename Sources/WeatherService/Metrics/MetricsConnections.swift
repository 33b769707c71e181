import Synchronization
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The metrics endpoint's open connections: the `maxConnections` bound, and their end at shutdown. It owns
/// each admitted descriptor and closes it when the connection's task is done.
package final class MetricsConnections: Sendable {
    private struct State {
        var next = 0
        /// Each open connection's descriptor and task, by number.
        var open: [Int: (fd: Int32, task: Task<Void, Never>)] = [:]
        var stopped = false
        /// The most connections ever open at once.
        var peak = 0
        /// Connections refused because `maxConnections` were open.
        var refused = 0
    }

    private let maxConnections: Int
    private let state = Mutex(State())
    private let empty = Latch()

    init(maxConnections: Int) { self.maxConnections = maxConnections }

    /// How many connections are open now.
    package var count: Int { state.withLock { $0.open.count } }
    /// The most connections that were ever open at once.
    package var peak: Int { state.withLock { $0.peak } }
    /// How many connections were refused for being one too many.
    package var refused: Int { state.withLock { $0.refused } }

    /// Serves `fd` in a task of its own, or answers 503 and closes it when `maxConnections` are open (or the
    /// service is stopping).
    func admit(_ fd: Int32, _ serve: @escaping @Sendable () async -> Void) {
        let admitted = state.withLock { state -> Bool in
            guard !state.stopped, state.open.count < maxConnections else {
                state.refused += 1
                return false
            }
            let number = state.next
            state.next += 1
            state.open[number] = (
                fd,
                Task {
                    await serve()
                    self.closed(number)
                }
            )
            state.peak = max(state.peak, state.open.count)
            return true
        }
        guard !admitted else { return }
        // A new connection's send buffer is empty, so this short answer never blocks the accept thread.
        let refusal = MetricsResponse(503, "Service Unavailable", body: "Too many metrics connections at once.\n")
        refusal.bytes().withUnsafeBytes { raw in
            _ = send(fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT) | UnixSocket.sendFlags)
        }
        shutdownSocket(fd, .both)
        close(fd)
    }

    /// Closes connection `number`'s descriptor, under the lock that `stopAndDrain` shuts descriptors down
    /// under, so it never shuts down a number the system has already given to another file.
    private func closed(_ number: Int) {
        let last = state.withLock { state -> Bool in
            if let fd = state.open.removeValue(forKey: number)?.fd { close(fd) }
            return state.stopped && state.open.isEmpty
        }
        if last { empty.open() }
    }

    /// Admits no more connections, cuts the open ones (their blocked reads and writes end) and waits for them.
    func stopAndDrain() async {
        let isEmpty = state.withLock { state -> Bool in
            state.stopped = true
            // Under the lock: each descriptor is still open here (`closed` closes it under the same lock).
            for connection in state.open.values { shutdownSocket(connection.fd, .both) }
            return state.open.isEmpty
        }
        if isEmpty { empty.open() }
        await empty.waitIgnoringCancellation()
    }
}
