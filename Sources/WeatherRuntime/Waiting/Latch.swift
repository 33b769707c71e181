import Synchronization

/// A one-shot signal: `open` once, and every `wait`, before or after, returns.
package final class Latch: Sendable {
    private let opened = Atomic<Bool>(false)
    private let waiters = WaitQueue<Void>()

    package init() {}

    /// Whether `open` was called.
    package var isOpen: Bool { opened.load(ordering: .acquiring) }

    /// Opens the latch and resumes every waiter.
    package func open() {
        guard !opened.exchange(true, ordering: .acquiringAndReleasing) else { return }
        waiters.resumeAll(())
    }

    /// Returns once the latch is open, or at once when the waiting task is cancelled.
    package func wait() async { _ = await waiters.wait { isOpen ? () : nil } }

    /// Returns once the latch is open, even when the waiting task is cancelled: for a group's own
    /// bookkeeping, which must outlive the cancellation it carries out.
    package func waitIgnoringCancellation() async {
        _ = await waiters.wait(ignoringCancellation: true) { isOpen ? () : nil }
    }
}
