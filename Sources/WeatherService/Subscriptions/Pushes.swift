import Synchronization
import WeatherDomain

/// Unrequested lines for the client (subscription notifications), and the work that starts once a
/// request's answer is out, so that a subscription's first notification never precedes its answer.
public final class Pushes: Sendable {
    private struct State {
        var sink: (any LineSink)?
        var afterAnswer: [JSONValue: @Sendable () -> Void] = [:]
        var subscriptions: [String: Task<Void, Never>] = [:]
        var nextSubscription = 1
    }

    private let state = Mutex(State())

    public init() {}

    /// Connects the output; lines pushed before this are dropped.
    public func connect(_ sink: any LineSink) { state.withLock { $0.sink = sink } }

    /// Sends a notification.
    public func notify(_ method: String, _ params: JSONValue) {
        var line: [UInt8] = []
        RPCLine.notification(method: method, params: params, into: &line)
        state.withLock { $0.sink }?.send(line)
    }

    /// Returns once the output has room for more notifications (a client that stops reading holds them back).
    func room() async {
        await state.withLock { $0.sink }?.room()
    }

    /// Runs `action` once the answer to request `id` is out (at once for a notification).
    func afterAnswer(to id: JSONValue?, _ action: @escaping @Sendable () -> Void) {
        guard let id else { return action() }
        state.withLock { $0.afterAnswer[id] = action }
    }

    /// Called by the server after it wrote the answer to `id`.
    public func answered(_ id: JSONValue) {
        state.withLock { $0.afterAnswer.removeValue(forKey: id) }?()
    }

    /// Reserves a subscription id.
    func newSubscriptionID() -> String {
        state.withLock { state in
            defer { state.nextSubscription += 1 }
            return "sub-\(state.nextSubscription)"
        }
    }

    /// Starts a subscription's task.
    func startSubscription(_ id: String, _ operation: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            state.subscriptions[id] = Task {
                await operation()
                _ = self.state.withLock { $0.subscriptions.removeValue(forKey: id) }
            }
        }
    }

    /// Stops one subscription, or all when `id` is nil; returns the ids stopped.
    public func stopSubscriptions(_ id: String?) -> [String] {
        let stopped = state.withLock { state -> [(String, Task<Void, Never>)] in
            let chosen = state.subscriptions.filter { id == nil || $0.key == id }
            for key in chosen.keys { state.subscriptions[key] = nil }
            return Array(chosen)
        }
        for (_, task) in stopped { task.cancel() }
        return stopped.map(\.0).sorted()
    }
}
