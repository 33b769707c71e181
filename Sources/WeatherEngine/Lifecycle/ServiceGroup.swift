import Synchronization

/// A one-shot signal: `open` once, and every `wait`, before or after, returns.
public final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether `open` was called.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Opens the latch and resumes every waiter.
    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.isOpen else { return [] }
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the latch is open, or at once when the waiting task is cancelled.
    public func wait() async {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

/// A long-running part of weatherd: it runs until its work is done or `shutdown` opens, then winds
/// down gracefully and returns.
public protocol Service: Sendable {
    /// Runs the service; returns after `shutdown` opened and the service has finished its work.
    func run(shutdown: Latch) async
}

/// Runs services together with one graceful shutdown.
///
/// Services start in order. The group shuts down when `triggerGracefulShutdown` is called or when any
/// service returns on its own (standard input ended, the daemon was idle): it then opens each
/// service's shutdown in reverse order, waiting for each to return before the next, so the log
/// service, started first, stops last and records `service.stopped` after everything else.
public final class ServiceGroup: Sendable {
    private let services: [any Service]
    private let shutdowns: [Latch]
    private let finished: [Latch]
    private let trigger = Latch()

    public init(services: [any Service]) {
        self.services = services
        shutdowns = services.map { _ in Latch() }
        finished = services.map { _ in Latch() }
    }

    /// Starts the graceful shutdown (once; later calls do nothing).
    public func triggerGracefulShutdown() { trigger.open() }

    /// Runs every service until all have returned.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            for (index, service) in services.enumerated() {
                group.addTask { [shutdowns, finished, trigger] in
                    await service.run(shutdown: shutdowns[index])
                    finished[index].open()
                    trigger.open()
                }
            }
            group.addTask { [self] in
                await trigger.wait()
                for index in services.indices.reversed() {
                    shutdowns[index].open()
                    await finished[index].wait()
                }
            }
        }
    }
}
