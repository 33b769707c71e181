import Synchronization

/// A value that arrives once: every `wait`, before or after, gets it.
package final class Promise<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let waiters = WaitQueue<Value>()

    package init() {}

    /// The value, once it has arrived.
    package var current: Value? { value.withLock { $0 } }

    /// Gives the value (the first call only) and resumes every waiter; false when it had arrived already.
    @discardableResult
    package func fulfill(_ newValue: Value) -> Bool {
        let first = value.withLock { value -> Bool in
            guard value == nil else { return false }
            value = newValue
            return true
        }
        if first { waiters.resumeAll(newValue) }
        return first
    }

    /// The value, once it has arrived (waiting even when the task is cancelled).
    package func wait() async -> Value {
        // Waiting ignores cancellation, so it can only return with the value.
        await waiters.wait(ignoringCancellation: true) { current }!
    }

    /// The value, or nil when the waiting task is cancelled first.
    package func waitUnlessCancelled() async -> Value? { await waiters.wait { current } }
}
