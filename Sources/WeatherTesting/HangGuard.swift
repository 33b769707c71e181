import WeatherRuntime

/// How long a test waits for something before calling it a hang. Only a guard: no verdict depends on how
/// soon anything happens, and a guard that fires is a hang (or a lost event) and says so.
package let hangGuardLimit: Duration = .seconds(240)

/// Runs `body`, giving up with nil after `limit` of real time: the one use of real time in a wait.
package func withHangGuard<T: Sendable>(
    _ limit: Duration = hangGuardLimit, _ body: @escaping @Sendable () async -> T?
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// Returns true once `condition` holds, looked at again every 20 ms (what it reads may change on another
/// thread or in another process, which tell no one); false only when the hang guard fires first.
///
/// The guard counts the time this wait got to run: a 20 ms sleep that took seconds means the process's threads
/// were all held by other tests (a loaded machine runs the whole suite at once on its cooperative threads), and
/// the work waited for was held with it, so that stall is not counted against it. Otherwise a wait that woke
/// after a long stall would give up at once, before the work queued ahead of it had run.
///
/// Each wait looks at its own condition only: nothing wakes every waiter of the suite at once.
package func eventually(
    _ limit: Duration = hangGuardLimit, _ condition: () throws -> Bool
) async rethrows -> Bool {
    try await eventually(limit, asking: condition)
}

/// `eventually` for a condition that must itself wait to be known (a question to a browser, a server).
package func eventually(
    _ limit: Duration = hangGuardLimit, asking condition: () async throws -> Bool
) async rethrows -> Bool {
    let poll = Duration.milliseconds(20)
    var giveUp = ContinuousClock.now.advanced(by: limit)
    while try await !condition() {
        let asleep = ContinuousClock.now
        if asleep >= giveUp { return false }
        try? await Task.sleep(for: poll)
        // Time past a generous second per poll is a stall of the whole process, not of what this waits for.
        let stalled = asleep.duration(to: ContinuousClock.now) - .seconds(1)
        if stalled > .zero { giveUp = giveUp.advanced(by: stalled) }
    }
    return true
}
