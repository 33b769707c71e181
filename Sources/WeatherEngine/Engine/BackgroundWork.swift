import Synchronization

/// Tasks a request started without waiting for them, so shutdown can finish them before
/// `service.stopped` is written.
package final class BackgroundWork: Sendable {
    private let tasks = Mutex<[UInt64: Task<Void, Never>]>([:])
    private let next = Mutex<UInt64>(0)

    package init() {}

    /// Runs `operation` in the background.
    package func start(_ operation: @escaping @Sendable () async -> Void) {
        let id = next.withLock { value in
            defer { value += 1 }
            return value
        }
        tasks.withLock { tasks in
            tasks[id] = Task {
                await operation()
                _ = self.tasks.withLock { $0.removeValue(forKey: id) }
            }
        }
    }

    /// Cancels every background task (at shutdown, after a grace period).
    package func cancelAll() {
        for task in tasks.withLock({ Array($0.values) }) { task.cancel() }
    }

    /// Waits until every background task has finished.
    package func drain() async {
        while let task = tasks.withLock({ $0.values.first }) { await task.value }
    }
}
