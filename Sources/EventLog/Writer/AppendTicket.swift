import Synchronization
import WeatherRuntime

/// The promise of an append: resolves once the batch holding its events is durable (or failed).
///
/// Two ways to hear the outcome: `committed()` / `settled()` wait in a task (the writer resumes the task,
/// which then runs on the cooperative pool), and `onCommitted(_:)` runs a callback on the writer's own thread
/// right after the batch is durable, for an answer that must not wait for a task to be scheduled.
package final class AppendTicket: Sendable {
    /// What an append comes to: its committed envelopes, or why nothing of it reached the log.
    package typealias Outcome = Result<[EventEnvelope], StorageFailure>

    /// The seqs assigned to the events, in order.
    package let seqs: ClosedRange<Int64>

    private struct State {
        var outcome: Outcome?
        var callbacks: [@Sendable (Outcome) -> Void] = []
    }

    private let state = Mutex<State>(State())
    /// The tasks waiting in `committed()` or `settled()`.
    private let waiters = WaitQueue<Outcome>()

    init(seqs: ClosedRange<Int64>) { self.seqs = seqs }

    /// Waits for the batch; not cancellable, because the write happens whether or not anyone waits.
    ///
    /// - Throws: `StorageFailure` when the append failed; nothing of it reached the log.
    package func committed() async throws(StorageFailure) -> [EventEnvelope] {
        try await outcome().get()
    }

    /// Waits until the batch is durable or failed, whichever it is.
    package func settled() async { _ = await outcome() }

    private func outcome() async -> Outcome {
        // Waiting ignores cancellation, so it can only return with the outcome.
        await waiters.wait(ignoringCancellation: true) { state.withLock { $0.outcome } }!
    }

    /// Runs `callback` exactly once with the append's outcome, without a task.
    ///
    /// While the append is on its way, the callback runs later on the log writer's thread, as soon as the
    /// batch holding the append is written and (under `--fsync always`) synced, after the writer's `status`
    /// covers it (`lastSeq`, and under `always` `durableSeq`, are at least `seqs.upperBound`) and after the
    /// writer's `onCommit` (the bus) had the batch; the callbacks of one batch run in seq order, then the
    /// writer's `afterCallbacks`, and only then are the tasks waiting in `committed()` resumed. On a failed
    /// write or sync it runs there with the failure.
    /// Once the ticket is resolved, it runs at once on the calling thread, before `onCommitted` returns.
    ///
    /// The callback holds up the writer, so every later append, while it runs: it must be short (format
    /// nothing big, block on nothing) and must never wait for a ticket, this one or another.
    ///
    /// - Returns: true when the ticket was already resolved, so the callback has run on this thread before
    ///   `onCommitted` returned (and no `afterCallbacks` of the writer follows it: whatever the callback left
    ///   for that hook, such as an answer to write out, is the caller's to finish); false when it will run on
    ///   the writer's thread.
    @discardableResult
    package func onCommitted(_ callback: @escaping @Sendable (Outcome) -> Void) -> Bool {
        let ready: Outcome? = state.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.callbacks.append(callback)
            return nil
        }
        guard let ready else { return false }
        callback(ready)
        return true
    }

    /// Whether the ticket has been resolved.
    package var isResolved: Bool { state.withLock { $0.outcome != nil } }

    /// Who is waiting for a resolved ticket, taken out of it under its lock.
    struct Resolution {
        let outcome: Outcome
        let callbacks: [@Sendable (Outcome) -> Void]
        let waiters: WaitQueue<Outcome>

        func runCallbacks() { for callback in callbacks { callback(outcome) } }

        func resumeTasks() { waiters.resumeAll(outcome) }
    }

    /// Records the outcome and hands back those waiting for it, to be told by the caller; nil when the
    /// ticket was already resolved.
    func settle(_ outcome: Outcome) -> Resolution? {
        state.withLock { state -> Resolution? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.callbacks = [] }
            return Resolution(outcome: outcome, callbacks: state.callbacks, waiters: waiters)
        }
    }
}

/// An append that did not reach the log; the service is read-only from then on.
package struct StorageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The underlying error, or nil when the writer was already read-only or stopped.
    package var cause: StorageError?
    /// What happened, for the client.
    package var message: String

    package init(cause: StorageError?, message: String) {
        self.cause = cause
        self.message = message
    }

    package var description: String { message }
}
