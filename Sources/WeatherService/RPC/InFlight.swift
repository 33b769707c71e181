import Synchronization
import WeatherDomain

/// The requests being worked on: for `$/cancelRequest` by id, and for draining at shutdown.
final class InFlight: Sendable {
    private struct State {
        var cancels: [JSONValue: [UInt64: @Sendable () -> Void]] = [:]
        var count = 0
        var nextToken: UInt64 = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Counts one unit of work (a line being handled) as started.
    func enter() { state.withLock { $0.count += 1 } }

    /// Counts one unit of work as finished.
    func leave() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Starts a request's work in a task that `cancel(id:)` can reach, and returns the task.
    ///
    /// The task is created and registered under the lock, so it cannot finish (and unregister)
    /// before it is registered.
    func start(id: JSONValue, _ operation: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            let task = Task {
                await operation()
                self.unregister(id: id, token: token)
            }
            state.cancels[id, default: [:]][token] = { task.cancel() }
        }
    }

    private func unregister(id: JSONValue, token: UInt64) {
        state.withLock { state in
            state.cancels[id]?[token] = nil
            if state.cancels[id]?.isEmpty == true { state.cancels[id] = nil }
        }
    }

    /// Cancels every running request with this id; returns how many there were.
    @discardableResult
    func cancel(id: JSONValue) -> Int {
        let cancels = state.withLock { state in Array((state.cancels[id] ?? [:]).values) }
        for cancel in cancels { cancel() }
        return cancels.count
    }

    /// Waits until no work is in flight.
    func drain() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> Bool in
                if state.count == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }
}
