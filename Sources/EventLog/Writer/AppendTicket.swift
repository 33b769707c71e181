import Synchronization

/// The promise of an append: resolves once the batch holding its events is durable (or failed).
public final class AppendTicket: Sendable {
    /// The seqs assigned to the events, in order.
    public let seqs: ClosedRange<Int64>

    private enum State {
        case waiting([CheckedContinuation<Result<[EventEnvelope], StorageFailure>, Never>])
        case done(Result<[EventEnvelope], StorageFailure>)
    }

    private let state = Mutex<State>(.waiting([]))

    init(seqs: ClosedRange<Int64>) { self.seqs = seqs }

    /// Waits for the batch; not cancellable, because the write happens whether or not anyone waits.
    ///
    /// - Throws: `StorageFailure` when the append failed; nothing of it reached the log.
    public func committed() async throws(StorageFailure) -> [EventEnvelope] {
        try await outcome().get()
    }

    /// Waits until the batch is durable or failed, whichever it is.
    public func settled() async { _ = await outcome() }

    private func outcome() async -> Result<[EventEnvelope], StorageFailure> {
        await withCheckedContinuation { continuation in
            let ready: Result<[EventEnvelope], StorageFailure>? = state.withLock { state in
                switch state {
                case .done(let result): return result
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Whether the ticket has been resolved.
    public var isResolved: Bool {
        state.withLock { if case .done = $0 { true } else { false } }
    }

    func resolve(_ result: Result<[EventEnvelope], StorageFailure>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result<[EventEnvelope], StorageFailure>, Never>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }
}

/// An append that did not reach the log; the service is read-only from then on.
public struct StorageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The underlying error, or nil when the writer was already read-only or stopped.
    public var cause: StorageError?
    /// What happened, for the client.
    public var message: String

    public init(cause: StorageError?, message: String) {
        self.cause = cause
        self.message = message
    }

    public var description: String { message }
}
