import Foundation
import Synchronization
import WeatherDomain
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The single writer of the log, with group commit.
///
/// `append` is synchronous and cheap: it assigns seqs in call order and queues the events. A
/// dedicated thread takes everything queued, encodes it into one buffer, issues one `write` and
/// (with `--fsync always`) one `fdatasync`, then hands the committed envelopes to `onCommit`
/// (the bus) and resolves the callers' tickets: first their `onCommitted` callbacks, on this thread in seq
/// order, then the tasks waiting in `committed()`. Concurrent appends therefore share fsyncs.
///
/// The thread takes whatever is queued as soon as it looks: a lone append is written at once, never held back
/// for company. Once the queue is empty it sleeps on a semaphore, whose wake-up costs tens of microseconds when
/// the thread's core has gone idle; so when the last append came within `spinLimit` of the batch before it (one
/// client changing state serially, or steady traffic), the thread first polls for up to `spinLimit`, yielding
/// its core to anyone runnable, and sleeps only if nothing came. After a longer gap it sleeps at once.
///
/// A batch holds at most `maxBatchBytes` (one append larger on its own goes alone), so a crash tears at
/// most that many bytes off the end of the log: start-up repairs no more than that.
///
/// A failed write or sync cuts the file back to the end of the last committed batch, fails that
/// batch and everything queued behind it, and leaves the writer read-only: a failed `fdatasync`
/// is never retried, because the kernel may already have dropped the data it failed to write.
package final class LogWriter: Sendable {
    /// A place in the log: the next seq, the chain of the line before it, and where that line starts (or the
    /// log ends): `length` bytes into the file whose first line holds seq `file` (a sealed segment
    /// `events-<file>.jsonl`, or the active `events.jsonl`, whose first seq is `file`).
    package struct Position: Sendable, Equatable {
        package var nextSeq: Int64
        package var lastChain: UInt32
        package var length: Int64
        /// The first seq of the file `length` is an offset in.
        package var file: Int64

        package init(nextSeq: Int64, lastChain: UInt32, length: Int64, file: Int64 = 1) {
            self.nextSeq = nextSeq
            self.lastChain = lastChain
            self.length = length
            self.file = file
        }

        /// An empty log.
        package static let empty = Position(nextSeq: 1, lastChain: 0, length: 0)
    }

    /// What the writer has done so far.
    package struct Status: Sendable, Equatable {
        /// The seq of the last committed event (0 when none).
        package var lastSeq: Int64
        /// The active file's committed length in bytes.
        package var length: Int64
        /// The first seq of the active file (1 until the log first rolls over).
        package var file: Int64
        /// How many times the active file rolled over into a sealed segment.
        package var rollOvers: Int
        /// Batches written and fsyncs issued.
        package var batches: Int
        package var syncs: Int
        /// The last seq known to be on disk (fsynced); under `--fsync never` the one the log started with.
        package var durableSeq: Int64
        /// Set once an append failed: the service is read-only.
        package var failure: StorageFailure?

        /// Where the committed log ends.
        package var end: LogEnd { LogEnd(file: file, length: length) }
    }

    struct Queued {
        var events: [NewEvent]
        var firstSeq: Int64
        var ticket: AppendTicket
    }

    struct State {
        var queue: [Queued] = []
        var nextSeq: Int64
        var lastChain: UInt32
        var status: Status
        var index: SeqIndex
        var stopping = false
        var sleeping = false
        /// Set by the batch timer (`--fsync batch`): the writer has been idle with unsynced lines long enough.
        var syncDue = false
    }

    /// The most bytes one batch (one `write`, then one sync) holds, unless a single append is larger.
    ///
    /// It bounds what a crash can tear: start-up treats more bad bytes than this at the end of the log as
    /// damage. 8 MiB is far above any batch weatherd writes in practice (a request line is at most
    /// `--max-line-bytes`, 1 MiB by default, and its event at most a few times that once escaped).
    package static let maxBatchBytes: Int64 = 8 << 20

    let file: any LogFile
    let batchLimit: Int
    let segmentBytes: Int64
    let mode: FsyncMode
    let now: @Sendable () -> Timestamp
    let onCommit: @Sendable ([EventEnvelope]) -> Void
    let afterCallbacks: @Sendable () -> Void
    let state: Mutex<State>
    let wake = ThreadSemaphore()
    /// The clock and loop of the batch timer (`--fsync batch`: a sync 100 ms after the writer fell idle).
    let runtime: Runtime
    /// Appends so far; the spinning writer polls it rather than the lock.
    let arrivals = Atomic<UInt64>(0)
    /// The longest the thread polls for an append before it sleeps, in nanoseconds (0: never polls).
    let spinLimit: UInt64

    /// The name of the writer's thread (the system keeps at most 15 bytes of a thread's name).
    static let threadName = "weatherd-log"

    /// Names the calling thread `threadName`, for `top -H` and `perf`.
    ///
    /// On Linux, Foundation passes a name set before `start` on to nothing, and one set from inside the thread
    /// not always (it kept the name inherited from a dispatch thread now and then), so there the thread writes
    /// its own `comm`.
    private static func nameCurrentThread() {
        #if os(Linux)
            let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            _ = threadName.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
        #else
            Thread.current.name = threadName
        #endif
    }

    /// The default `spinLimit`: above the time a client takes to read an answer and send its next change.
    package static let defaultSpinLimit: Duration = .microseconds(100)

    /// Creates a writer that appends to `file`, which currently ends at `position`.
    ///
    /// - Parameters:
    ///   - index: the seq → offset index built while the log was read, extended as lines are written.
    ///   - now: the wall clock for `ts`.
    ///   - batchLimit: the most bytes of one batch (`maxBatchBytes`; tests use less).
    ///   - segmentBytes: the active file rolls over into a sealed segment before a batch that would take it
    ///     past this size; a batch is cut after the last append that fits, so a segment is larger only when a
    ///     single append is (`Int64.max`: never).
    ///   - spinLimit: how long the idle thread polls for the next append before it sleeps, when appends have
    ///     been coming that soon after a batch (`.zero`: it always sleeps at once; at most 1 ms). The spin is a
    ///     use of the processor, not a wait anything depends on, so it is measured on the system's monotonic
    ///     clock, not the runtime's.
    ///   - runtime: the clock and loop that time `--fsync batch`'s syncs.
    ///   - afterCallbacks: called on the writer's thread once the `onCommitted` callbacks of a batch (committed
    ///     or failed) have run, before the tasks waiting for it resume: where answers that the callbacks queued
    ///     can be written out together, in one `write` per batch rather than one per answer.
    ///   - onCommit: called on the writer's thread with each durable batch, before callers are answered.
    package init(
        file: any LogFile, position: Position, index: SeqIndex = SeqIndex(), mode: FsyncMode,
        batchLimit: Int = Int(LogWriter.maxBatchBytes), segmentBytes: Int64 = .max,
        spinLimit: Duration = LogWriter.defaultSpinLimit, runtime: Runtime,
        now: @escaping @Sendable () -> Timestamp, afterCallbacks: @escaping @Sendable () -> Void = {},
        onCommit: @escaping @Sendable ([EventEnvelope]) -> Void
    ) {
        self.file = file
        self.batchLimit = batchLimit
        self.segmentBytes = max(1, segmentBytes)
        let (seconds, attoseconds) = min(max(spinLimit, .zero), .milliseconds(1)).components
        self.spinLimit = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        self.mode = mode
        self.now = now
        self.onCommit = onCommit
        self.afterCallbacks = afterCallbacks
        self.runtime = runtime
        let status = Status(
            lastSeq: position.nextSeq - 1, length: position.length, file: position.file, rollOvers: 0, batches: 0,
            syncs: 0, durableSeq: position.nextSeq - 1, failure: nil)
        state = Mutex(State(nextSeq: position.nextSeq, lastChain: position.lastChain, status: status, index: index))
    }

    /// The writer's counters and read-only flag.
    package var status: Status { state.withLock { $0.status } }

    /// The seq → offset index of the committed log.
    package var index: SeqIndex { state.withLock { $0.index } }

    /// Queues events for the log; they get consecutive seqs in call order.
    ///
    /// - Throws: `StorageFailure` at once when the writer is read-only or stopped.
    package func append(_ events: [NewEvent]) throws(StorageFailure) -> AppendTicket {
        precondition(!events.isEmpty, "append needs at least one event")
        let (ticket, sleeping) = try state.withLock { state throws(StorageFailure) -> (AppendTicket, Bool) in
            if let failure = state.status.failure { throw failure }
            if state.stopping {
                throw StorageFailure(cause: nil, message: "The log is closed because weatherd is shutting down.")
            }
            let first = state.nextSeq
            state.nextSeq += Int64(events.count)
            let ticket = AppendTicket(seqs: first...(state.nextSeq - 1))
            state.queue.append(Queued(events: events, firstSeq: first, ticket: ticket))
            arrivals.add(1, ordering: .releasing)
            let sleeping = state.sleeping
            state.sleeping = false
            return (ticket, sleeping)
        }
        if sleeping { wake.signal() }
        return ticket
    }

    /// Stops accepting appends; `run` returns once everything queued is written and synced.
    package func finish() {
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    /// Runs the writer on a thread of its own until `finish` and the queue is drained (cancellation does not stop
    /// it: the log service records `service.stopped` after everything else, then calls `finish`).
    package func run() async {
        await onOwnThread(named: Self.threadName) { [self] in
            Self.nameCurrentThread()
            loop()
        }
    }

    private enum Work {
        case batch([Queued], previousChain: UInt32, end: LogEnd)
        /// Nothing queued, and the batch timer fired: sync what is written.
        case sync
        /// Nothing queued: poll until `arrivals` passes this count (or the spin ends).
        case spin(arrivals: UInt64)
        case idle
        case stop
    }

    /// Takes everything queued as the next batch; with nothing queued, says to stop (once `finish` was called),
    /// to spin (when `spin`), or else to sleep, marking the thread as sleeping so that the next append wakes it.
    private func takeWork(spin: Bool) -> Work {
        state.withLock { state -> Work in
            if state.queue.isEmpty {
                if state.stopping { return .stop }
                if state.syncDue {
                    state.syncDue = false
                    return .sync
                }
                if spin { return .spin(arrivals: arrivals.load(ordering: .relaxed)) }
                state.sleeping = true
                return .idle
            }
            let queued = state.queue
            state.queue.removeAll(keepingCapacity: true)
            return .batch(queued, previousChain: state.lastChain, end: state.status.end)
        }
    }

    /// Polls `arrivals` until it passes `seen` or the monotonic clock reaches `deadline` (in nanoseconds),
    /// yielding the core between looks.
    private func spin(past seen: UInt64, until deadline: UInt64) {
        while arrivals.load(ordering: .acquiring) == seen, monotonicNanoseconds() < deadline {
            sched_yield()
        }
    }

    /// The batch timer's end: wakes the writer to sync.
    private func syncIsDue() {
        let sleeping = state.withLock { state -> Bool in
            state.syncDue = true
            defer { state.sleeping = false }
            return state.sleeping
        }
        if sleeping { wake.signal() }
    }

    /// The writer thread's work: commits batches as they come, syncs them under `--fsync batch` (100 ms after
    /// the writer fell idle, or once 100 ms have passed since the last sync, on the runtime's clock), and spins or
    /// sleeps between them, until `finish` and an empty queue.
    private func loop() {
        let clock = runtime.clock
        var unsynced = false
        var lastSync = clock.now
        var timer: LoopTimer?
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        // When the last batch ended (0 before the first), whether the next idle spell starts with a spin,
        // and whether this one already did.
        var idleSince: UInt64 = 0
        var spinNext = false
        var spun = false
        func sync() {
            syncQuietly()
            unsynced = false
            lastSync = clock.now
            timer?.cancel()
            timer = nil
        }
        while true {
            switch takeWork(spin: spinNext && !spun) {
            case .stop:
                if unsynced { sync() }
                return
            case .sync:
                timer = nil
                if unsynced { sync() }
            case .spin(let seen):
                spun = true
                spin(past: seen, until: idleSince + spinLimit)
            case .idle:
                if unsynced, timer == nil {
                    timer = clock.schedule(at: clock.now.advanced(by: Self.batchSyncInterval), on: runtime.loop) {
                        [weak self] in self?.syncIsDue()
                    }
                }
                wake.wait()
            case .batch(let queued, let previousChain, let end):
                if spinLimit > 0 {
                    spinNext = idleSince > 0 && monotonicNanoseconds() - idleSince <= spinLimit
                    spun = false
                }
                buffer.removeAll(keepingCapacity: true)
                if commit(queued, previousChain: previousChain, end: end, buffer: &buffer) {
                    unsynced = unsynced || mode == .batch
                } else {
                    unsynced = false
                }
                // Under steady traffic the writer is never idle for long, so `batch` also syncs here.
                if unsynced, lastSync.duration(to: clock.now) >= Self.batchSyncInterval { sync() }
                if spinLimit > 0 { idleSince = monotonicNanoseconds() }
            }
        }
    }

    /// How long `--fsync batch` leaves written lines unsynced at most (while the clock runs).
    package static let batchSyncInterval: Duration = .milliseconds(100)
}
