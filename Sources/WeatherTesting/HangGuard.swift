import WeatherRuntime

/// How long a test waits for something before calling it a hang. Only a guard: no verdict depends on how
/// soon anything happens, and a guard that fires is a hang (or a lost event) and says so.
package let hangGuardLimit: Duration = .seconds(240)

/// The real time a hang guard counts: the time its wait got to run.
///
/// A nap that took far longer than asked means the process's threads were all held by other tests (a loaded
/// machine runs the suite's tests together on the cooperative threads), and the work waited for was held with
/// it, so that stall is not counted against the wait: a nap counts as at most a generous second more than it
/// asked. Otherwise a wait that woke after a long stall would give up at once, before the work queued ahead of
/// it had run. A real hang is still caught once `limit` of the wait's own time has passed.
struct HangBudget {
    private var left: Duration

    init(_ limit: Duration) { left = limit }

    var isSpent: Bool { left <= .zero }

    /// Counts time spent on the wait's own work (asking whether its condition holds).
    mutating func spend(_ time: Duration) { left -= time }

    /// Naps for `length` (at most what is left), counting it as the rule above says; false when cancelled.
    mutating func nap(_ length: Duration) async -> Bool {
        let asked = min(length, left)
        let start = ContinuousClock.now
        do { try await Task.sleep(for: asked) } catch { return false }
        left -= min(start.duration(to: ContinuousClock.now), asked + .seconds(1))
        return true
    }
}

/// Runs `body`, giving up with nil after `limit` of real time, counted as `HangBudget` counts it: the one use of
/// real time in a wait.
package func withHangGuard<T: Sendable>(
    _ limit: Duration = hangGuardLimit, _ body: @escaping @Sendable () async -> T?
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            var budget = HangBudget(limit)
            while !budget.isSpent, await budget.nap(.seconds(1)) {}
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// Returns true once `condition` holds, looked at again every 20 ms (what it reads may change on another
/// thread or in another process, which tell no one); false only when the hang guard (`HangBudget`) fires first.
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
    var budget = HangBudget(limit)
    while true {
        let asked = ContinuousClock.now
        if try await condition() { return true }
        budget.spend(asked.duration(to: ContinuousClock.now))
        if budget.isSpent { return false }
        // Cancelled: the condition as it is now is the answer.
        guard await budget.nap(.milliseconds(20)) else { return try await condition() }
    }
}
