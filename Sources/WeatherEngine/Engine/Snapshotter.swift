import Dispatch
import EventLog
import Foundation
import Synchronization
import WeatherDomain
import WeatherRuntime

/// Writes snapshots of the whole state, off the log writer's thread.
///
/// Live state is spread over several actors, so the snapshotter keeps its own copy: it starts from
/// the state start-up rebuilt (copy-on-write, so free until it changes) and folds in every committed
/// batch, which the writer hands to `record` (only a queue append on the writer's thread). Its own
/// thread folds the batches in chunks (taking each event as the writer had it) and, every `every`
/// events, encodes and writes a snapshot; a snapshot in progress only delays the next one, never an
/// append. `finish` (called once the writer has stopped, so after `service.stopped` is durable) writes
/// a last snapshot when anything but the service's own start and stop happened since the last one, so a
/// clean restart replays at most those few lines, and a client that only reads rewrites nothing.
///
/// A snapshot covers only events the log has fsynced (see `durable(through:writer:)`); should a power
/// failure still take some, the log no longer holds the snapshot's line with its chain and start-up
/// ignores the snapshot.
package final class Snapshotter: Sendable {
    /// How many snapshot files are kept.
    package static let kept = 2

    /// The copy of the state the snapshotter's thread folds batches into; only that thread touches it.
    private struct Folded: Sendable {
        var state: WeatherState
        var chain: UInt32
        var failed = false
        /// The seq of the last event other than a start or stop of the service (those change no state).
        var lastChange: Int64 = 0
    }

    /// Event types that only record the service starting or stopping: a shutdown after nothing but these
    /// writes no snapshot (a short-lived client's start and stop would otherwise rewrite it every time).
    static let lifecycleTypes: Set<String> = ["service.started", "service.stopped"]

    private struct Queue {
        var batches: [[EventEnvelope]] = []
        var events = 0
        /// The seq of the last snapshot written (or loaded at start-up, or skipped): `record` decides
        /// from it whether a snapshot is due, the thread whether to write one.
        var lastWritten: Int64 = 0
        var stopping = false
        var sleeping = false
    }

    private let store: SnapshotStore
    private let every: Int64
    private let fsync: FsyncMode
    private let logger: Logger
    private let queue = Mutex(Queue())
    private let initial: Folded
    private let wake = ThreadSemaphore()
    /// How many events wait in the queue before the thread is woken to fold them: folding in chunks
    /// keeps a thread wake-up off every durable change.
    private let chunk: Int

    /// Creates a snapshotter continuing from the state start-up rebuilt.
    ///
    /// - Parameters:
    ///   - chain: the chain of the log line holding `state.lastSeq`.
    ///   - snapshotSeq: the seq of the snapshot start-up loaded, if any.
    ///   - lastChange: the seq of the last change start-up replayed after it (not a start or stop of the service).
    ///   - every: events between periodic snapshots; 0 writes one only at shutdown.
    package init(
        state: WeatherState, chain: UInt32, snapshotSeq: Int64?, lastChange: Int64? = nil, store: SnapshotStore,
        every: Int, fsync: FsyncMode, logger: Logger
    ) {
        self.store = store
        self.every = Int64(every)
        self.fsync = fsync
        self.logger = logger
        initial = Folded(state: state, chain: chain, lastChange: lastChange ?? 0)
        queue.withLock { $0.lastWritten = snapshotSeq ?? 0 }
        chunk = every > 0 ? min(every, 1024) : 1024
    }

    /// Queues a committed batch; called on the writer's thread, so it only appends to a queue (and wakes
    /// the snapshotter's thread once a chunk of events waits, or a snapshot is due: so the first batch
    /// after a full replay of a long log gets its snapshot at once, not only at a clean shutdown).
    package func record(_ batch: [EventEnvelope]) {
        let wakeUp = queue.withLock { queue -> Bool in
            queue.batches.append(batch)
            queue.events += batch.count
            let due = every > 0 && (batch.last?.seq ?? 0) - queue.lastWritten >= every
            guard queue.sleeping, queue.events >= chunk || due else { return false }
            queue.sleeping = false
            return true
        }
        if wakeUp { wake.signal() }
    }

    /// Asks `run` to fold what is queued, write a last snapshot and return. Call it after the writer stopped.
    package func finish() {
        queue.withLock {
            $0.stopping = true
            $0.sleeping = false
        }
        wake.signal()
    }

    /// Runs the snapshotter's thread until `finish`; call it once.
    ///
    /// - Parameter writer: the log's writer, whose seq → offset index each snapshot stores.
    package func run(writer: LogWriter) async {
        await onOwnThread(named: "weatherd-snapshotter") { [self] in loop(writer: writer) }
    }

    private func loop(writer: LogWriter) {
        var folded = initial
        while true {
            let (batches, stopping) = queue.withLock { queue -> ([[EventEnvelope]], Bool) in
                let batches = queue.batches
                queue.batches.removeAll()
                queue.events = 0
                if batches.isEmpty, !queue.stopping { queue.sleeping = true }
                return (batches, queue.stopping)
            }
            if batches.isEmpty, !stopping {
                wake.wait()
                continue
            }
            for batch in batches {
                fold(batch, into: &folded)
                if every > 0, folded.state.lastSeq - lastWritten >= every { write(folded, writer: writer) }
            }
            if stopping, batches.isEmpty, folded.lastChange > lastWritten { write(folded, writer: writer) }
            if stopping, batches.isEmpty { return }
        }
    }

    private func fold(_ batch: [EventEnvelope], into folded: inout Folded) {
        guard !folded.failed else { return }
        for envelope in batch {
            do {
                switch try envelope.decodedEvent() {
                case .event(let event): folded.state.apply(event, seq: envelope.seq, corr: envelope.corr)
                case .unknown(let kind): folded.state.skip(kind, seq: envelope.seq)
                }
                folded.chain = envelope.chain
                if !Self.lifecycleTypes.contains(envelope.type) { folded.lastChange = envelope.seq }
            } catch {
                // This process encoded the event a moment ago, so it decodes; were it ever not to, the copy
                // would be wrong, so no further snapshot is written (start-up then replays more of the log).
                logger.error("snapshots stop: seq \(envelope.seq) does not decode: \(error)")
                folded.failed = true
                return
            }
        }
    }

    /// The seq of the last snapshot written.
    private var lastWritten: Int64 { queue.withLock { $0.lastWritten } }

    private func write(_ folded: Folded, writer: LogWriter) {
        let seq = folded.state.lastSeq
        defer { queue.withLock { $0.lastWritten = seq } }
        guard !folded.failed, seq >= 1 else { return }
        guard durable(through: seq, writer: writer) else {
            logger.debug("no snapshot of seq \(seq): the log is not yet durable that far")
            return
        }
        let file = SnapshotFile(
            seq: seq, chain: folded.chain, commandWindow: folded.state.commands.window, fsync: fsync.rawValue,
            build: Engine.version, index: writer.index.prefix(through: seq), state: folded.state.snapshotJSON)
        do {
            try store.write(file.bytes, seq: seq)
            try store.prune(keep: Self.kept)
            logger.debug("snapshot of seq \(seq) written")
        } catch {
            // A snapshot is only an optimisation: the next one is tried after `every` more events.
            logger.warning("could not write the snapshot of seq \(seq): \(error)")
        }
    }

    /// Whether the log is fsynced through `seq`, so that a snapshot of it never covers an event a power
    /// loss could take from the log (start-up checks only the chain of the snapshot's own line).
    ///
    /// Under `--fsync always` every committed event is. Under `batch` the writer syncs at most 100 ms
    /// behind, so this waits up to a second for it. Under `never` the log is left to the OS, and so are
    /// its snapshots (the mode is recorded in each).
    private func durable(through seq: Int64, writer: LogWriter) -> Bool {
        if fsync != .batch || writer.status.durableSeq >= seq { return true }
        for _ in 0..<100 {
            usleep(10_000)
            if writer.status.durableSeq >= seq { return true }
        }
        return false
    }
}
