import EventLog
import WeatherDomain

/// Rebuilds state by folding the log: at start-up (from a snapshot when one fits), and for `state/verify`.
///
/// Replay only rebuilds state: it never fetches, alerts or notifies.
package enum Replay {
    /// The result of a replay.
    package struct Result: Sendable {
        package var state: WeatherState
        package var outcome: LogReader.Outcome
        /// The seq → offset index of the whole valid log (the snapshot's part plus the part read).
        package var index: SeqIndex
        /// Where the replay started and how much it read.
        package var startup: Startup
        /// The seq of the last event folded in that was not the service's own start or stop (nil when none).
        package var lastChange: Int64?
    }

    /// What start-up did: the snapshot it started from, if any, and how many events it folded in after it.
    package struct Startup: Sendable, Equatable {
        /// The seq of the snapshot used, or nil for a full replay.
        package var snapshotSeq: Int64?
        /// Events folded in (or skipped as unknown) on top of the snapshot, or from the start.
        package var replayedEvents: Int64

        package init(snapshotSeq: Int64?, replayedEvents: Int64) {
            self.snapshotSeq = snapshotSeq
            self.replayedEvents = replayedEvents
        }
    }

    /// A snapshot's state, ready to continue from: the log must still hold line `seq` with `chain`.
    package struct Base: Sendable {
        package var state: WeatherState
        package var chain: UInt32
        package var index: SeqIndex

        package init(state: WeatherState, chain: UInt32, index: SeqIndex) {
            self.state = state
            self.chain = chain
            self.index = index
        }
    }

    /// Folds the log of the data dir at `directory` into a fresh state, or into `base` from the line after its
    /// seq. A log whose oldest segments audit retention dropped has no fresh start: without `base`, it is
    /// folded into the state stored in `log-base.json` when the segments were dropped.
    ///
    /// With a base, reading starts at the indexed line at or before the base's seq, and the line holding
    /// that seq must have the base's chain: that one comparison proves the log is the one the snapshot
    /// was taken from (the chain covers every earlier line).
    ///
    /// - Parameters:
    ///   - through: stop after this seq (the whole valid log when nil).
    ///   - limit: ignore what follows this committed end.
    ///   - base: a snapshot to continue from.
    /// - Throws: `SnapshotError.mismatch` when the log does not continue `base` (it ends before the base's
    ///   seq, has another chain there, or is damaged before it); `LogDamage` for damage other than a torn
    ///   tail; `ReplayError` for an intact line whose `data` is not JSON or, for a known type and version,
    ///   does not match its schema (start-up refuses rather than drop an event it cannot read);
    ///   `StorageError` when the file cannot be read; `LogDamage` (`manifest`) for a truncated log whose
    ///   `log-base.json` is missing or does not fit it.
    package static func run(
        directory: String, commandWindow: Int, through: Int64? = nil, limit: LogEnd? = nil, from base: Base? = nil,
        catalog: EventCatalog = .standard, logger: Logger? = nil
    ) throws -> Result {
        let origin = try base ?? truncationBase(directory: directory, commandWindow: commandWindow)
        return try run(
            commandWindow: commandWindow, through: through, from: origin, catalog: catalog, logger: logger
        ) { start, index, body in
            try LogReader.read(directory: directory, start: start, limit: limit, index: index, body)
        }
    }

    /// `run(directory:…)` over one log file without segments (a golden log, a log file copied aside).
    package static func run(
        path: String, commandWindow: Int, through: Int64? = nil, from base: Base? = nil,
        catalog: EventCatalog = .standard, logger: Logger? = nil
    ) throws -> Result {
        try run(commandWindow: commandWindow, through: through, from: base, catalog: catalog, logger: logger) {
            start, _, body in
            try LogReader.read(path: path, start: start, body)
        }
    }

    private static func run(
        commandWindow: Int, through: Int64?, from base: Base?, catalog: EventCatalog, logger: Logger?,
        read: (LogWriter.Position, SeqIndex?, (EventEnvelope, LinePlace) throws -> Bool) throws -> LogReader.Outcome
    ) throws -> Result {
        var state = base?.state ?? WeatherState(commandWindow: commandWindow)
        let baseSeq = base?.state.lastSeq ?? 0
        let start = base.map { $0.index.start(after: baseSeq - 1) } ?? .empty
        var confirmed = base == nil
        var replayed: Int64 = 0
        var lastChange: Int64?
        var deferred = DeferredReports()
        let outcome: LogReader.Outcome
        do {
            outcome = try read(start, base?.index) { envelope, place in
                if let through, envelope.seq > through { return false }
                if let base, envelope.seq <= baseSeq {
                    if envelope.seq == baseSeq {
                        guard envelope.chain == base.chain else {
                            throw SnapshotError.mismatch("the log's line of seq \(baseSeq) has another chain")
                        }
                        confirmed = true
                    }
                    return true
                }
                if DeferredReports.handles(envelope, catalog: catalog) {
                    try deferred.fold(envelope, place: place, into: &state)
                } else {
                    try fold(envelope, place: place, into: &state, catalog: catalog, logger: logger)
                }
                replayed += 1
                if !Snapshotter.lifecycleTypes.contains(envelope.type) { lastChange = envelope.seq }
                return true
            }
        } catch let damage as LogDamage where !confirmed {
            throw SnapshotError.mismatch("the log is damaged before seq \(baseSeq): \(damage.problem.detail)")
        }
        guard confirmed else { throw SnapshotError.mismatch("the log ends before seq \(baseSeq)") }
        try deferred.finish(into: &state, catalog: catalog)
        return Result(
            state: state, outcome: outcome, index: outcome.index,
            startup: Startup(snapshotSeq: base.map { _ in baseSeq }, replayedEvents: replayed), lastChange: lastChange)
    }

    private static func fold(
        _ envelope: EventEnvelope, place: LinePlace, into state: inout WeatherState, catalog: EventCatalog,
        logger: Logger?
    ) throws {
        let data: JSONValue
        do {
            data = try envelope.decodedData()
        } catch {
            throw ReplayError(seq: envelope.seq, place: place, detail: "data is not valid JSON: \(error)")
        }
        let outcome: EventCatalog.Outcome
        do {
            outcome = try catalog.decode(type: envelope.type, version: envelope.v, data: data)
        } catch {
            throw ReplayError(
                seq: envelope.seq, place: place,
                detail: "\(envelope.type) v\(envelope.v) does not match its schema: \(error)")
        }
        switch outcome {
        case .event(let event): state.apply(event, seq: envelope.seq, corr: envelope.corr)
        case .unknown(let kind):
            state.skip(kind, seq: envelope.seq)
            logger?.debug("seq \(envelope.seq): \(kind) is not known to this build; kept and skipped")
        }
    }
}

/// An intact line (its crc holds) whose payload cannot be read: start-up refuses rather than guess.
package struct ReplayError: Error, Sendable, CustomStringConvertible {
    package var seq: Int64
    /// The file holding the line, and where in it the line starts.
    package var path: String
    package var offset: Int64
    package var detail: String

    init(seq: Int64, place: LinePlace, detail: String) {
        self.seq = seq
        path = place.path
        offset = place.offset
        self.detail = detail
    }

    package var description: String { "\(path): seq \(seq) at byte offset \(offset): \(detail)" }
}
