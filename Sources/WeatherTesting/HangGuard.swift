import WeatherRuntime

/// How long a test waits for something before calling it a hang. Only a guard: no verdict depends on how
/// soon anything happens, and a guard that fires is a hang (or a lost event) and says so.
package let hangGuardLimit: Duration = .seconds(240)

/// Told whenever something a test may wait for changes in this process: a line reaches a collecting sink
/// (a service's output, a child's stdout), a request reaches a stand-in upstream.
package let testChanges = WaitQueue<Void>()

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

/// Returns true once `condition` holds, checked again whenever `testChanges` is told of a change and, for
/// what happens outside this process (a file, another process), every 50 ms; false only when the hang guard
/// fires first.
package func eventually(
    _ limit: Duration = hangGuardLimit, _ condition: () throws -> Bool
) async rethrows -> Bool {
    let giveUp = ContinuousClock.now.advanced(by: limit)
    let ticks = Task {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(50))
            testChanges.resumeAll(())
        }
    }
    defer { ticks.cancel() }
    while try !condition() {
        if ContinuousClock.now >= giveUp { return false }
        _ = await testChanges.wait { ((try? condition()) ?? false) ? () : nil }
    }
    return true
}
