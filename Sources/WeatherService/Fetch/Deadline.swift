import Synchronization

/// Runs `operation` with a deadline that holds even when the operation ignores cancellation.
///
/// URLSession's own resource timeout is not enforced on Linux, and a task group would wait for
/// a child that ignores cancellation; so the operation runs in a task of its own, and whichever
/// of it and the timer finishes first resumes the caller. A late operation is cancelled and left
/// to finish on its own.
func withDeadline<T: Sendable>(
    _ limit: Duration, operation: @escaping @Sendable () async -> T, onTimeout: @escaping @Sendable () -> T
) async -> T {
    let race = Race<T>()
    let value = await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        race.start(continuation)
        race.add(Task { race.finish(await operation()) })
        race.add(
            Task {
                do {
                    try await Task.sleep(for: limit)
                } catch {
                    return
                }
                race.finish(onTimeout())
            })
    }
    race.cancelAll()
    return value
}

/// The first of several tasks to finish resumes the waiting caller; the rest are cancelled.
private final class Race<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<T, Never>?, tasks: [Task<Void, Never>])>((nil, []))

    func start(_ continuation: CheckedContinuation<T, Never>) { state.withLock { $0.continuation = continuation } }

    func add(_ task: Task<Void, Never>) { state.withLock { $0.tasks.append(task) } }

    func finish(_ value: T) {
        let continuation = state.withLock { state -> CheckedContinuation<T, Never>? in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: value)
    }

    func cancelAll() {
        for task in state.withLock({ $0.tasks }) { task.cancel() }
    }
}
