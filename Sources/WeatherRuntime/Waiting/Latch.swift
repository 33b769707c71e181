/// A one-shot signal: `open` once, and every `wait`, before or after, returns.
package final class Latch: Sendable {
    private let opened = Promise<Void>()

    package init() {}

    /// Whether `open` was called.
    package var isOpen: Bool { opened.current != nil }

    /// Opens the latch and resumes every waiter.
    package func open() { opened.fulfill(()) }

    /// Returns once the latch is open, or at once when the waiting task is cancelled.
    package func wait() async { _ = await opened.waitUnlessCancelled() }

    /// Returns once the latch is open, even when the waiting task is cancelled: for a group's own
    /// bookkeeping, which must outlive the cancellation it carries out.
    package func waitIgnoringCancellation() async { await opened.wait() }
}
