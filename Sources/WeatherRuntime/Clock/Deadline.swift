/// Runs `operation` with a deadline on `clock` that holds even when the operation ignores cancellation.
///
/// URLSession's own resource timeout is not enforced on Linux, and a task group would wait for
/// a child that ignores cancellation; so the operation runs in a task of its own, and the caller waits
/// in a group for whichever comes first, its value or the deadline. A late operation is cancelled and
/// left to finish on its own. Cancelling the caller ends the wait at once, as a timeout.
package func withDeadline<T: Sendable>(
    _ deadline: RuntimeInstant, clock: any RuntimeClock, operation: @escaping @Sendable () async -> T,
    onTimeout: @escaping @Sendable () -> T
) async -> T {
    let answer = Promise<T>()
    let running = Task { answer.fulfill(await operation()) }
    defer { running.cancel() }
    let first: T? = await withTaskGroup(of: T?.self) { group in
        group.addTask { await answer.waitUnlessCancelled() }
        group.addTask {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return nil
            }
            return onTimeout()
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
    return first ?? onTimeout()
}

/// What `wait` returns, unless `deadline` passes on `clock` first (nil), or the task is cancelled (nil).
///
/// For waits that end when cancelled (a channel's flush, the next request): they run as a child of the race,
/// with no task of their own. A wait that may ignore cancellation takes `withDeadline`.
package func firstBefore<T: Sendable>(
    _ deadline: RuntimeInstant, _ clock: any RuntimeClock, _ wait: @escaping @Sendable () async -> T?
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await wait() }
        group.addTask {
            try? await clock.sleep(until: deadline, tolerance: nil)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
