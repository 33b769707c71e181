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
/// Each wait looks at its own condition only: nothing wakes every waiter of the suite at once.
package func eventually(
    _ limit: Duration = hangGuardLimit, _ condition: () throws -> Bool
) async rethrows -> Bool {
    let giveUp = ContinuousClock.now.advanced(by: limit)
    while try !condition() {
        if ContinuousClock.now >= giveUp { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}
