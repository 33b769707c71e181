import EventLog
import Synchronization
import WeatherDomain
import WeatherRuntime

/// The events one request commits, gathered while it runs and appended together: one batch, one fsync.
///
/// A request that calls upstream and then decides (a city geocoded, recorded in the search history, its weather
/// fetched) learns its events one by one, with calls in between. It stages each in its batch instead of appending
/// it: an upstream call's audit as it comes (`FetchActor`), a decision as a `SlicePart` that is decided when the
/// batch is appended. When the request is done, `SliceWriter.committing` appends everything staged as one joint
/// append, in the order it was staged, and waits until it is durable; only then is the request answered. Nothing
/// staged is visible before: the cache and the other slices apply their shares once durable, as they apply any
/// change.
///
/// A staged upstream answer that someone else needs first (another request joins the call) makes the batch append
/// what it holds so far at once (`flush`), so that nobody waits for the rest of this request.
package final class ChangeBatch: Sendable {
    private struct State {
        var parts: [SlicePart] = []
        var staged: [StagedChange] = []
        var closed = false
        /// The ticket of the newest append of this batch.
        var newest: AppendTicket?
        /// Why an append of this batch failed: the batch is over then.
        var failure: StorageFailure?
    }

    private let state = Mutex(State())
    private let slices: SliceWriter

    init(slices: SliceWriter) { self.slices = slices }

    /// Stages `part`, to be appended with the rest of the batch; nil once the batch is closed (the request is
    /// over: the caller appends on its own).
    func stage(_ part: SlicePart) -> StagedChange? {
        state.withLock { state -> StagedChange? in
            guard !state.closed else { return nil }
            let staged = StagedChange()
            state.parts.append(part)
            state.staged.append(staged)
            return staged
        }
    }

    /// Stages a part of the request's own (a decision it made): its batch is open until the request is done.
    @discardableResult
    func add(_ part: SlicePart) -> StagedChange {
        guard let staged = stage(part) else { preconditionFailure("a part was added to a request's closed batch") }
        return staged
    }

    /// Appends what is staged so far as one joint append, now.
    ///
    /// - Throws: `StorageFailure` when the log refuses it (the staged parts then fail with it).
    func flush() throws(StorageFailure) { _ = try appendStaged(closing: false) }

    /// Appends the rest and closes the batch (what is staged later is appended on its own).
    ///
    /// - Returns: the ticket of the batch's newest append, which is durable only once all of them are (nil when
    ///   the batch appended nothing).
    /// - Throws: `StorageFailure` when this or an earlier append of the batch failed.
    func close() throws(StorageFailure) -> AppendTicket? { try appendStaged(closing: true) }

    private func appendStaged(closing: Bool) throws(StorageFailure) -> AppendTicket? {
        // Under the batch's lock, so that two flushes cannot reach the log in another order than they staged.
        try state.withLock { state throws(StorageFailure) -> AppendTicket? in
            state.closed = state.closed || closing
            if let failure = state.failure { throw failure }
            guard !state.parts.isEmpty else { return state.newest }
            let (parts, staged) = (state.parts, state.staged)
            (state.parts, state.staged) = ([], [])
            do throws(StorageFailure) {
                let joint = try slices.append(parts)
                var next = joint.ticket?.seqs.lowerBound ?? 0
                for (change, decided) in zip(staged, joint.decided) {
                    switch decided {
                    case .success(let events):
                        change.resolve(
                            .success(StagedChange.Appended(ticket: joint.ticket, first: next, events: events)))
                        next += Int64(events.count)
                    case .failure(let error):
                        change.resolve(.failure(error))
                    }
                }
                state.newest = joint.ticket ?? state.newest
                return state.newest
            } catch {
                state.failure = error
                for change in staged { change.resolve(.failure(error)) }
                throw error
            }
        }
    }
}

/// A part staged in a `ChangeBatch`: what it comes to once the batch appends it.
package final class StagedChange: Sendable {
    /// A staged part's events, appended from seq `first` with `ticket` (nil when it decided none).
    struct Appended: Sendable {
        var ticket: AppendTicket?
        var first: Int64
        var events: [DomainEvent]
    }

    private let appended = Promise<Result<Appended, any Error>>()

    fileprivate func resolve(_ outcome: Result<Appended, any Error>) { appended.fulfill(outcome) }

    /// Waits until the batch has appended the part and its events are durable.
    ///
    /// - Returns: the events with their seqs (none when the decision changed nothing).
    /// - Throws: the decision's error, or `StorageFailure` when the append failed.
    func committed() async throws -> [(seq: Int64, event: DomainEvent)] {
        let appended = try await appended.wait().get()
        guard let ticket = appended.ticket, !appended.events.isEmpty else { return [] }
        _ = try await ticket.committed()
        return appended.events.enumerated().map { (appended.first + Int64($0.offset), $0.element) }
    }

    /// Whether the part is over: appended and durable, or failed.
    var isSettled: Bool {
        switch appended.current {
        case nil: false
        case .failure: true
        case .success(let appended): appended.ticket?.isResolved ?? true
        }
    }
}
