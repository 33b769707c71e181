import Synchronization

/// A long-running part of weatherd: it runs until its work is done or its task is cancelled, then winds
/// down and returns.
///
/// Cancellation is the graceful shutdown: a service that is cancelled stops taking new work, finishes or
/// cuts what it holds within its own deadline on the clock, and returns.
package protocol Service: Sendable {
    /// Runs the service until its work is done or its task is cancelled.
    func run() async throws
}

/// Runs services together with one graceful shutdown (swift-service-lifecycle's shape).
///
/// Services start in order. The group shuts down when `triggerGracefulShutdown` is called (a signal)
/// or when any service returns on its own (standard input ended, the daemon was idle): it then cancels
/// the services in reverse order, waiting for each to return before cancelling the next, so the log
/// service, started first, stops last and records `service.stopped` after everything else. Cancelling
/// the group's own task cancels every service at once.
package final class ServiceGroup: Sendable {
    private let services: [any Service]
    private let trigger = Latch()
    private let onError: @Sendable (any Error) -> Void

    /// - Parameter onError: told of an error a service's `run()` threw (it then counts as returned).
    package init(services: [any Service], onError: @escaping @Sendable (any Error) -> Void = { _ in }) {
        self.services = services
        self.onError = onError
    }

    /// Starts the graceful shutdown (once; later calls do nothing).
    package func triggerGracefulShutdown() { trigger.open() }

    /// Runs every service until all have returned.
    package func run() async {
        let stops = services.map { _ in Latch() }
        let finished = services.map { _ in Latch() }
        await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                for (service, (stop, done)) in zip(services, zip(stops, finished)) {
                    group.addTask { [trigger, onError] in
                        await Self.run(service, until: stop, onError: onError)
                        done.open()
                        trigger.open()
                    }
                }
                group.addTask { [trigger] in
                    await trigger.waitIgnoringCancellation()
                    for (stop, done) in zip(stops, finished).reversed() {
                        stop.open()
                        await done.waitIgnoringCancellation()
                    }
                }
            }
        } onCancel: {
            trigger.open()
        }
    }

    /// Runs `service` in a task that is cancelled once `stop` opens.
    private static func run(
        _ service: any Service, until stop: Latch, onError: @escaping @Sendable (any Error) -> Void
    ) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await service.run()
                } catch is CancellationError {
                    // Cancelled: the graceful shutdown it was asked for.
                } catch {
                    onError(error)
                }
            }
            group.addTask { await stop.wait() }
            await group.next()
            group.cancelAll()
        }
    }
}

/// Returns once the calling task is cancelled: the wait of a service whose work happens elsewhere until
/// shutdown.
package func untilCancelled() async { await Latch().wait() }

/// Runs `body` where the caller's cancellation does not reach: the bounded drain a cancelled service
/// performs before it returns (answering what it holds within a deadline on the clock), whose own waits
/// must not end at once because the shutdown that started it is a cancellation.
package func shieldedFromCancellation<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
    await Task { await body() }.value
}
