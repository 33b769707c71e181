import Synchronization

/// When a graceful shutdown began, and so the deadline by which what is still in flight must end.
///
/// The first `begin()` fixes the deadline at `grace` from then on the clock; later calls keep it. What
/// drains at shutdown waits for the work or for `reached()`, whichever comes first, and then cuts what is
/// left, so every drain of one shutdown shares one bound instead of adding theirs up.
package final class ShutdownDeadline: Sendable {
    private let clock: any RuntimeClock
    private let grace: Duration
    private let moment = Mutex<RuntimeInstant?>(nil)
    private let begun = Latch()

    package init(clock: any RuntimeClock, grace: Duration) {
        self.clock = clock
        self.grace = grace
    }

    /// Starts the countdown (once).
    package func begin() {
        let first = moment.withLock { moment -> Bool in
            guard moment == nil else { return false }
            moment = clock.now.advanced(by: grace)
            return true
        }
        if first { begun.open() }
    }

    /// Returns once the shutdown has begun, or at once when the waiting task is cancelled.
    package func begun() async { await begun.wait() }

    /// Whether the shutdown has begun.
    package var hasBegun: Bool { begun.isOpen }

    /// The deadline, once the shutdown has begun.
    package var deadline: RuntimeInstant? { moment.withLock { $0 } }

    /// Returns once the shutdown has begun and its deadline has passed, or at once when the waiting task
    /// is cancelled.
    package func reached() async {
        await begun.wait()
        guard let deadline, !Task.isCancelled else { return }
        try? await clock.sleep(until: deadline, tolerance: nil)
    }
}
