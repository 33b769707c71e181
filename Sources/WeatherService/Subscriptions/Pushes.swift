import Synchronization
import WeatherDomain
import WeatherEngine

/// One connection's unrequested lines (subscription notifications), the work that starts once a
/// request's answer is out (so a subscription's first notification never precedes its answer), and
/// the tasks that feed its subscriptions.
final class Pushes: Sendable {
    private struct State {
        var afterAnswer: [JSONValue: @Sendable () -> Void] = [:]
        var subscriptions: [String: Task<Void, Never>] = [:]
        var alerts: Task<Void, Never>?
        var nextSubscription = 1
        var closed = false
    }

    private let sink: any LineSink
    private let state = Mutex(State())

    init(sink: any LineSink) { self.sink = sink }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSONValue) {
        var line: [UInt8] = []
        RPCLine.notification(method: method, params: params, into: &line)
        sink.send(line)
    }

    /// Returns once the output has room for more notifications (a client that stops reading holds them back).
    func room() async { await sink.room() }

    /// Runs `action` once the answer to request `id` is out (at once for a notification).
    func afterAnswer(to id: JSONValue?, _ action: @escaping @Sendable () -> Void) {
        guard let id else { return action() }
        state.withLock { $0.afterAnswer[id] = action }
    }

    /// Called by the server after it wrote the answer to `id`.
    func answered(_ id: JSONValue) {
        state.withLock { $0.afterAnswer.removeValue(forKey: id) }?()
    }

    /// Reserves a subscription id.
    func newSubscriptionID() -> String {
        state.withLock { state in
            defer { state.nextSubscription += 1 }
            return "sub-\(state.nextSubscription)"
        }
    }

    /// Starts a subscription's task (not after `close`).
    func startSubscription(_ id: String, _ operation: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.closed else { return }
            state.subscriptions[id] = Task {
                await operation()
                _ = self.state.withLock { $0.subscriptions.removeValue(forKey: id) }
            }
        }
    }

    /// Stops one subscription, or all when `id` is nil; returns the ids stopped.
    func stopSubscriptions(_ id: String?) -> [String] {
        let stopped = state.withLock { state -> [(String, Task<Void, Never>)] in
            let chosen = state.subscriptions.filter { id == nil || $0.key == id }
            for key in chosen.keys { state.subscriptions[key] = nil }
            return Array(chosen)
        }
        for (_, task) in stopped { task.cancel() }
        return stopped.map(\.0).sorted()
    }

    /// Turns the `alerts/raised` feed on (starting `follow` once) or off.
    func setAlerts(_ on: Bool, follow: @escaping @Sendable () async -> Void) {
        let stopped = state.withLock { state -> Task<Void, Never>? in
            if on {
                if state.alerts == nil, !state.closed { state.alerts = Task { await follow() } }
                return nil
            }
            defer { state.alerts = nil }
            return state.alerts
        }
        stopped?.cancel()
    }

    /// Stops every subscription and feed, for good (the connection is ending).
    func close() {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.closed = true
            var tasks = Array(state.subscriptions.values)
            if let alerts = state.alerts { tasks.append(alerts) }
            state.subscriptions = [:]
            state.alerts = nil
            return tasks
        }
        for task in tasks { task.cancel() }
    }
}
