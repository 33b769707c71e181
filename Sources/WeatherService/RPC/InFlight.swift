import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime

/// The requests being worked on: for `$/cancelRequest` and `notifications/cancelled` by id, and for
/// draining at shutdown.
final class InFlight: Sendable {
    private struct State {
        var cancels: [JSONValue: [UInt64: (task: Task<Void, Never>, silence: Silence)]] = [:]
        var count = 0
        var nextToken: UInt64 = 0
    }

    private let state = Mutex(State())
    private let idle = WaitQueue<Void>()

    /// Counts one unit of work (a line being handled) as started.
    func enter() { state.withLock { $0.count += 1 } }

    /// Counts one unit of work as finished.
    func leave() {
        let nowIdle = state.withLock { state -> Bool in
            state.count -= 1
            return state.count == 0
        }
        if nowIdle { idle.resumeAll(()) }
    }

    /// Whether nothing is in flight.
    var isIdle: Bool { state.withLock { $0.count == 0 } }

    /// Starts a request's work in a task that `cancel(id:)` can reach.
    ///
    /// The task is created and registered under the lock, so it cannot finish (and unregister)
    /// before it is registered. `operation` is told whether the request was cancelled silently,
    /// in which case it must not be answered at all.
    func start(id: JSONValue, _ operation: @escaping @Sendable (Silence) async -> Void) {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            let silence = Silence()
            let task = Task {
                await operation(silence)
                self.unregister(id: id, token: token)
            }
            state.cancels[id, default: [:]][token] = (task, silence)
        }
    }

    private func unregister(id: JSONValue, token: UInt64) {
        state.withLock { state in
            state.cancels[id]?[token] = nil
            if state.cancels[id]?.isEmpty == true { state.cancels[id] = nil }
        }
    }

    /// Cancels every running request with this id; returns how many there were.
    ///
    /// - Parameter silently: the requests get no answer at all (MCP's `notifications/cancelled`),
    ///   rather than `-32800` (`$/cancelRequest`).
    @discardableResult
    func cancel(id: JSONValue, silently: Bool = false) -> Int {
        let entries = state.withLock { state in Array((state.cancels[id] ?? [:]).values) }
        for entry in entries {
            if silently { entry.silence.set() }
            entry.task.cancel()
        }
        return entries.count
    }

    /// Cancels every running request; each is answered `-32800` unless it finishes first.
    func cancelAll() {
        let entries = state.withLock { state in state.cancels.values.flatMap { $0.values } }
        for entry in entries { entry.task.cancel() }
    }

    /// Waits until no work is in flight, or until the waiting task is cancelled.
    func drain() async { _ = await idle.wait { isIdle ? () : nil } }

    /// Waits until no work is in flight, even when the waiting task is cancelled.
    func drainIgnoringCancellation() async { _ = await idle.wait(ignoringCancellation: true) { isIdle ? () : nil } }
}

/// Whether a request was cancelled silently: set once, read when its answer is ready.
final class Silence: Sendable {
    private let flag = Mutex(false)

    func set() { flag.withLock { $0 = true } }

    var isSet: Bool { flag.withLock { $0 } }
}
