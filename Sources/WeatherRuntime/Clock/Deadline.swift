import Synchronization

/// Runs `operation` with a deadline on `clock` that holds even when the operation ignores cancellation.
///
/// URLSession's own resource timeout is not enforced on Linux, and a task group would wait for
/// a child that ignores cancellation; so the operation runs in a task of its own, and whichever
/// of it and the timer finishes first resumes the caller. A late operation is cancelled and left
/// to finish on its own. Cancelling the caller ends the wait at once, as a timeout.
package func withDeadline<T: Sendable>(
    _ deadline: WallInstant, clock: any RuntimeClock, operation: @escaping @Sendable () async -> T,
    onTimeout: @escaping @Sendable () -> T
) async -> T {
    let race = Race<T>()
    let value = await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            race.start(continuation)
            race.add(Task { race.finish(await operation()) })
            race.add(
                Task {
                    do {
                        try await clock.sleep(until: deadline, tolerance: nil)
                    } catch {
                        return
                    }
                    race.finish(onTimeout())
                })
        }
    } onCancel: {
        race.finish(onTimeout())
    }
    race.cancelAll()
    return value
}

/// Waits for a shared task's value, but gives up with `CancellationError` when the waiting task is
/// cancelled; the shared task goes on for its other waiters.
package func value<T: Sendable>(of task: Task<T, Never>) async throws -> T {
    let race = Race<Result<T, CancellationError>>()
    let result = await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, CancellationError>, Never>) in
            race.start(continuation)
            race.add(Task { race.finish(.success(await task.value)) })
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
    return try result.get()
}

/// The first of several finishers resumes the waiting caller; the rest are ignored and their tasks cancelled.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, Never>?
        /// A value that arrived before the caller started waiting.
        var early: T?
        var done = false
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, Never>) {
        let early = state.withLock { state -> T? in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            state.early = nil
            return early
        }
        if let early { continuation.resume(returning: early) }
    }

    func add(_ task: Task<Void, Never>) { state.withLock { $0.tasks.append(task) } }

    func finish(_ value: T) {
        let continuation = state.withLock { state -> CheckedContinuation<T, Never>? in
            guard !state.done else { return nil }
            state.done = true
            guard let continuation = state.continuation else {
                state.early = value
                return nil
            }
            state.continuation = nil
            return continuation
        }
        continuation?.resume(returning: value)
    }

    func cancelAll() {
        for task in state.withLock({ $0.tasks }) { task.cancel() }
    }
}
