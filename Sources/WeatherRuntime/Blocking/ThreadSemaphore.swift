import Dispatch

/// A counting semaphore for the runtime's own threads (the event loop's, the pool's, the log writer's): the one
/// way such a thread sleeps until another wakes it. Never used by a task.
package final class ThreadSemaphore: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    package init() {}

    /// Wakes one waiter, or lets the next `wait` return at once.
    package func signal() { semaphore.signal() }

    /// Blocks the calling thread until signalled.
    package func wait() { semaphore.wait() }

    /// Blocks the calling thread until signalled or `nanoseconds` have passed on the monotonic clock; false when
    /// the time ran out.
    package func wait(nanoseconds: UInt64) -> Bool {
        semaphore.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds))) == .success
    }
}
