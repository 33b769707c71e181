import Synchronization

/// A long-running part of weatherd: it runs until its work is done, until it is asked to shut down gracefully
/// (it then stops taking new work, finishes or cuts what it holds, and returns), or until it is cancelled (it
/// then returns as soon as it can).
package protocol Service: Sendable {
    /// Runs the service until its work is done, a graceful shutdown, or cancellation.
    func run() async throws
}

/// Runs services together with one graceful shutdown (swift-service-lifecycle's shape).
///
/// Services start in order. The graceful shutdown begins when `triggerGracefulShutdown` is called (a signal) or
/// when any service returns on its own (standard input ended, the daemon was idle): the group then asks the
/// services to shut down gracefully in reverse order, waiting for each to return before asking the next, so the
/// log service, started first, stops last and records `service.stopped` after everything else. Graceful shutdown
/// is not cancellation: a service asked to stop finishes what it holds (answers in flight, a last flush) with its
/// tasks uncancelled. Cancellation comes only as the escalation: a second trigger (a second signal), the
/// `escalation` deadline passing on the clock, or the group's own task being cancelled cancel every service.
package final class ServiceGroup: Sendable {
    private let services: [any Service]
    private let clock: any RuntimeClock
    private let escalation: Duration
    private let trigger = Latch()
    private let triggers = Mutex(0)
    private let escalated = Latch()
    private let onError: @Sendable (any Error) -> Void

    /// - Parameters:
    ///   - escalation: how long the graceful shutdown may take in all before the services are cancelled.
    ///   - onError: told of an error a service's `run()` threw (it then counts as returned).
    package init(
        services: [any Service], clock: any RuntimeClock, escalation: Duration = .seconds(10),
        onError: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        self.services = services
        self.clock = clock
        self.escalation = escalation
        self.onError = onError
    }

    /// Starts the graceful shutdown; a second call escalates it to cancellation.
    package func triggerGracefulShutdown() {
        let count = triggers.withLock { count -> Int in
            count += 1
            return count
        }
        if count == 1 { trigger.open() } else { escalated.open() }
    }

    /// What a child task of the group reports.
    private enum Report: Sendable {
        case serviceReturned, allStopped, escalate, nothing
    }

    /// Runs every service until all have returned.
    package func run() async {
        let shutdowns = services.map { _ in GracefulShutdown() }
        let finished = services.map { _ in Latch() }
        let stopped = Latch()
        await withTaskCancellationHandler {
            await withTaskGroup(of: Report.self) { group in
                for (service, (shutdown, done)) in zip(services, zip(shutdowns, finished)) {
                    group.addTask { [trigger, onError] in
                        await GracefulShutdown.$current.withValue(shutdown) {
                            do {
                                try await service.run()
                            } catch is CancellationError {
                                // Cancelled: the escalation it was asked for.
                            } catch {
                                onError(error)
                            }
                        }
                        done.open()
                        trigger.open()
                        return .serviceReturned
                    }
                }
                group.addTask { [trigger] in
                    await trigger.waitIgnoringCancellation()
                    for (shutdown, done) in zip(shutdowns, finished).reversed() {
                        shutdown.trigger()
                        await done.waitIgnoringCancellation()
                    }
                    stopped.open()
                    return .allStopped
                }
                group.addTask { [trigger, escalated, clock, escalation] in
                    // Escalation: a second trigger, or the deadline once the graceful shutdown has begun.
                    await trigger.wait()
                    let escalate = await withTaskGroup(of: Bool.self) { race in
                        race.addTask {
                            await escalated.wait()
                            return escalated.isOpen
                        }
                        race.addTask {
                            do { try await clock.sleep(for: escalation) } catch { return false }
                            return true
                        }
                        race.addTask {
                            await stopped.wait()
                            return false
                        }
                        let first = await race.next() ?? false
                        race.cancelAll()
                        return first
                    }
                    return escalate && !stopped.isOpen ? .escalate : .nothing
                }
                while let report = await group.next() {
                    switch report {
                    case .allStopped, .escalate: group.cancelAll()
                    case .serviceReturned, .nothing: continue
                    }
                }
            }
        } onCancel: {
            trigger.open()
            escalated.open()
        }
    }
}

/// The graceful shutdown of one service: triggered once by its group, told to the handlers the service's code
/// registered (`withGracefulShutdownHandler`), and visible to it as `isShuttingDownGracefully`.
package final class GracefulShutdown: Sendable {
    /// The graceful shutdown of the service the current task runs in (nil outside a `ServiceGroup`).
    @TaskLocal package static var current: GracefulShutdown?

    private struct State {
        var triggered = false
        var handlers: [UInt64: @Sendable () -> Void] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())
    private let begun = Latch()

    package init() {}

    /// Starts the shutdown (once): every handler runs, and later ones run as they are registered.
    package func trigger() {
        let handlers = state.withLock { state -> [@Sendable () -> Void]? in
            guard !state.triggered else { return nil }
            state.triggered = true
            defer { state.handlers = [:] }
            return state.handlers.sorted { $0.key < $1.key }.map(\.value)
        }
        guard let handlers else { return }
        begun.open()
        for handler in handlers { handler() }
    }

    /// Whether the shutdown has begun.
    package var isTriggered: Bool { begun.isOpen }

    /// Returns once the shutdown has begun, or at once when the waiting task is cancelled.
    package func wait() async { await begun.wait() }

    func add(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
        let id = state.withLock { state -> UInt64? in
            guard !state.triggered else { return nil }
            defer { state.next += 1 }
            state.handlers[state.next] = handler
            return state.next
        }
        if id == nil { handler() }
        return id
    }

    func remove(_ id: UInt64) {
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }
}

/// Runs `operation`; `onGracefulShutdown` is called once if the service's graceful shutdown begins meanwhile (at
/// once if it has begun already). Outside a service group the handler is never called.
package func withGracefulShutdownHandler<T: Sendable>(
    operation: () async throws -> T, onGracefulShutdown handler: @escaping @Sendable () -> Void
) async rethrows -> T {
    guard let shutdown = GracefulShutdown.current, let id = shutdown.add(handler) else { return try await operation() }
    defer { shutdown.remove(id) }
    return try await operation()
}

/// Runs `operation` and cancels it when the service's graceful shutdown begins: for a loop of timers whose work
/// can simply stop (swift-service-lifecycle's `cancelOnGracefulShutdown`). Returns nil when it was cancelled so.
@discardableResult
package func cancelOnGracefulShutdown<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws
    -> T?
{
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            await gracefulShutdown()
            return nil
        }
        defer { group.cancelAll() }
        while let outcome = try await group.next() {
            if let outcome { return outcome }
            if GracefulShutdown.current?.isTriggered ?? false || Task.isCancelled { return nil }
        }
        return nil
    }
}

/// Returns once the current service's graceful shutdown has begun, or its task is cancelled (at once when it
/// runs in no service group and is cancelled; never otherwise).
package func gracefulShutdown() async {
    if let shutdown = GracefulShutdown.current {
        await shutdown.wait()
    } else {
        await Latch().wait()
    }
}

/// Whether the current service's graceful shutdown has begun.
package var isShuttingDownGracefully: Bool { GracefulShutdown.current?.isTriggered ?? false }

/// Returns once the calling task is cancelled: a wait whose end is the end of the task (a subscription).
package func untilCancelled() async { await Latch().wait() }
