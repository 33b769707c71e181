import Synchronization

/// Tasks waiting until another task or thread announces something: the one place weatherd parks tasks
/// on continuations.
///
/// A waiter first asks its owner whether what it waits for is already there (`ready`, checked under the
/// queue's lock); if not, it waits until `resumeAll` or `resumeFirst`. An owner that changes its state and
/// then announces (outside its own lock) can never lose a wakeup: either the waiter's check sees the change
/// or the announcement finds the waiter. A cancelled waiter stops waiting at once and gets `nil`.
package final class WaitQueue<Value: Sendable>: Sendable {
    private struct State {
        var waiters: [UInt64: CheckedContinuation<Value?, Never>] = [:]
        var order: [UInt64] = []
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Waits for an announcement unless `ready` already has the value.
    ///
    /// - Parameters:
    ///   - ignoringCancellation: keep waiting when the task is cancelled (bookkeeping that must outlive
    ///     the cancellation it carries out).
    ///   - ready: the value when there is no need to wait; called under the queue's lock, so it must not
    ///     announce on this queue.
    /// - Returns: the value, or nil when the waiting task was cancelled first.
    package func wait(ignoringCancellation: Bool = false, unless ready: () -> Value?) async -> Value? {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let now = state.withLock { state -> Value?? in
                    if let value = ready() { return .some(value) }
                    if !ignoringCancellation, Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    state.order.append(id)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            guard !ignoringCancellation else { return }
            let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
                guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
                // The order forgets cancelled waiters now and then, so a queue whose waiters are cancelled more
                // often than resumed does not grow (amortized: once it holds twice as many ids as waiters).
                if state.order.count > 2 * state.waiters.count + 64 {
                    let live = state.waiters
                    state.order.removeAll { live[$0] == nil }
                }
                return waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Resumes every waiter with `value`.
    package func resumeAll(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value?, Never>] in
            defer {
                state.waiters = [:]
                state.order = []
            }
            return state.order.compactMap { state.waiters[$0] }
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }
}
