import Dispatch

extension DispatchSemaphore {
    /// Blocks the calling thread (never a task) until signalled or `milliseconds` have passed on the
    /// monotonic clock: the log writer's wait for its next batch while a sync is due.
    package func wait(milliseconds: Int) -> DispatchTimeoutResult {
        wait(timeout: .now() + .milliseconds(milliseconds))
    }
}
