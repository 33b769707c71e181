/// Runs `operation` with a deadline on `clock` that holds even when the operation ignores cancellation.
///
/// URLSession's own resource timeout is not enforced on Linux, and a task group would wait for
/// a child that ignores cancellation; so the operation runs in a task of its own, and whichever
/// of it and the timer finishes first gives the caller its value. A late operation is cancelled and
/// left to finish on its own. Cancelling the caller ends the wait at once, as a timeout.
package func withDeadline<T: Sendable>(
    _ deadline: WallInstant, clock: any RuntimeClock, operation: @escaping @Sendable () async -> T,
    onTimeout: @escaping @Sendable () -> T
) async -> T {
    let first = Promise<T>()
    let racers: [Task<Void, Never>] = [
        Task { first.fulfill(await operation()) },
        Task {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            first.fulfill(onTimeout())
        },
    ]
    let value = await withTaskCancellationHandler {
        await first.wait()
    } onCancel: {
        first.fulfill(onTimeout())
    }
    for racer in racers { racer.cancel() }
    return value
}
