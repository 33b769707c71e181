import EventLog
import Foundation
import WeatherDomain
import WeatherRuntime

/// Payload retention for weatherd's events: what compaction may strip, and the runs that strip it.
package enum LogMaintenance {
    /// The payloads compaction strips once replaced by a later fetch of the same cache entry: a `weather.fetched`
    /// report (entry: kind and key; a forecast's days stay, reduced to their summaries, and a current fetch's
    /// time, temperature, precipitation and condition, which verification reads), a `warnings.fetched` set
    /// of warnings (entry: source and key) and an `air_quality.fetched` answer (entry: kind and key) and a
    /// `nowcast.fetched` set of steps (entry: source and key) and a `past.fetched` page's columns (entry: its
    /// `entry`, as a climate page refetched after a year), an `ensemble.fetched` spread's days and hours and a
    /// `models.fetched` page's runs (entry: their `entry`).
    package static let rules: [PayloadRule] = [
        PayloadRule(
            type: "weather.fetched", version: 1, payloadMembers: WeatherFetched.payloadMembers,
            reducedMembers: WeatherFetched.reducedMembers, entryMembers: WeatherFetched.entryMembers),
        PayloadRule(
            type: "warnings.fetched", version: 1, payloadMembers: WarningsFetched.payloadMembers,
            entryMembers: WarningsFetched.entryMembers),
        PayloadRule(
            type: "warnings.fetched", version: 2, payloadMembers: WarningsFetched.payloadMembers,
            entryMembers: WarningsFetched.entryMembers),
        PayloadRule(
            type: "air_quality.fetched", version: 1, payloadMembers: AirQualityFetched.payloadMembers,
            entryMembers: AirQualityFetched.entryMembers),
        PayloadRule(
            type: "nowcast.fetched", version: 1, payloadMembers: NowcastFetched.payloadMembers,
            entryMembers: NowcastFetched.entryMembers),
        PayloadRule(
            type: "past.fetched", version: 1, payloadMembers: PastFetched.payloadMembers,
            entryMembers: PastFetched.entryMembers),
        PayloadRule(
            type: "ensemble.fetched", version: 1, payloadMembers: EnsembleFetched.payloadMembers,
            entryMembers: EnsembleFetched.entryMembers),
        PayloadRule(
            type: "models.fetched", version: 1, payloadMembers: ModelsFetched.payloadMembers,
            entryMembers: ModelsFetched.entryMembers),
    ]

    /// Compacts the sealed segments of the log in `directory`: payloads written more than `retainPayloads`
    /// before `now` and replaced since are stripped.
    package static func compact(
        directory: String, retainPayloads: Duration, now: Timestamp,
        beforeStep: (CompactionStep, String) throws -> Void = { _, _ in }
    ) throws -> SegmentCompactor.Report {
        let cutoff = Timestamp(milliseconds: now.milliseconds - retainPayloads.components.seconds * 1000)
        return try SegmentCompactor.compact(
            directory: directory, rules: rules, cutoff: cutoff, now: now, beforeStep: beforeStep)
    }

    /// A truncation ready to record: the segments to drop and the snapshot that becomes `log-base.json`.
    struct PlannedTruncation: Sendable {
        var plan: LogTruncation.Plan
        var base: SnapshotFile
        var baseBytes: [UInt8]
    }

    /// The oldest sealed segments whose every event was written more than `retainAudit` before `now`, with the
    /// newest snapshot of this build past them as their base; nil when nothing is due, or no such snapshot exists
    /// yet (the next run tries again: snapshots are written every `--snapshot-every` events and at shutdown).
    static func planTruncation(
        directory: String, retainAudit: Duration, now: Timestamp, snapshots: SnapshotStore, logger: Logger
    ) throws -> PlannedTruncation? {
        let cutoff = Timestamp(milliseconds: now.milliseconds - retainAudit.components.seconds * 1000)
        guard let plan = try LogTruncation.plan(directory: directory, cutoff: cutoff) else { return nil }
        guard let (base, bytes) = try newestSnapshot(after: plan.throughSeq, in: snapshots) else {
            logger.info("audit retention waits for a snapshot past seq \(plan.throughSeq) to keep as the log's base")
            return nil
        }
        return PlannedTruncation(plan: plan, base: base, baseBytes: bytes)
    }

    /// The `log.truncated` that records `plan`: what goes, why, and the seq of the base that keeps its state.
    static func record(
        of plan: LogTruncation.Plan, cutoff: Timestamp, retainAudit: Duration, baseSeq: Int64
    ) -> LogTruncated {
        LogTruncated(
            fromSeq: plan.fromSeq, throughSeq: plan.throughSeq, lastChain: CRC32C.hexString(plan.lastChain),
            segments: plan.segments.map {
                LogTruncated.Segment(
                    file: $0.name, firstSeq: $0.firstSeq, lastSeq: $0.lastSeq, bytes: $0.bytes, lastAt: $0.lastAt)
            }, cutoff: cutoff, retainAudit: Configuration.durationText(retainAudit), baseSeq: baseSeq)
    }

    /// Completes a truncation the log records (`state.lastTruncation`) but the files may not show yet: a crash
    /// came between the event and the removal of the segments. Does nothing when it is complete.
    static func finishTruncation(
        _ truncation: LogTruncated, directory: String, now: Timestamp, snapshots: SnapshotStore
    ) throws {
        let files = try LogFiles.list(directory: directory)
        let recorded = files.manifest.truncated?.throughSeq ?? 0
        guard recorded < truncation.throughSeq || files.segments.contains(where: { $0 <= recorded }) else { return }
        guard let chain = CRC32C.parseHex(truncation.lastChain) else { return }
        var bytes: [UInt8] = []
        if recorded < truncation.throughSeq {
            guard let (_, newest) = try newestSnapshot(after: truncation.throughSeq, in: snapshots) else { return }
            bytes = newest
        }
        try LogTruncation.drop(
            directory: directory, throughSeq: truncation.throughSeq, lastChain: chain, base: bytes, now: now)
    }

    private static func newestSnapshot(
        after seq: Int64, in snapshots: SnapshotStore
    ) throws -> (SnapshotFile, [UInt8])? {
        for entry in try snapshots.list() where entry.seq > seq {
            let bytes = try snapshots.read(entry.path)
            guard let file = try? SnapshotFile(bytes: bytes), file.seq == entry.seq, file.build == Engine.version
            else { continue }
            return (file, bytes)
        }
        return nil
    }
}

/// Keeps the log's sealed segments in bounds in the background: a first run `delay` after start (so start-up
/// is not slowed), then every `interval`. Each run first drops the segments audit retention no longer keeps
/// (recording `log.truncated` through the writer before any file is touched), then rewrites the segments that
/// have payloads to strip, one at a time. The file work runs in the blocking pool, off the log writer's
/// path; a run stops between segments at shutdown.
struct CompactionService: Service {
    let directory: String
    let retainPayloads: Duration
    let retainAudit: Duration?
    let writer: LogWriter
    let snapshots: SnapshotStore
    /// The last `log.truncated` start-up replayed.
    let lastTruncation: LogTruncated?
    let clock: any RuntimeClock
    /// Where the blocking reads and writes run.
    let pool: BlockingPool
    let delay: Duration
    let interval: Duration
    let logger: Logger
    /// Whether every committed event is shipped (`--nats`), so a round may strip or drop it: compaction and
    /// retention never touch an event the stream has not acknowledged.
    var shipped: @Sendable () -> Bool = { true }

    func run() async throws {
        try await cancelOnGracefulShutdown { try await runRounds() }
    }

    private func runRounds() async throws {
        var wait = delay
        var lastTruncation = lastTruncation
        while true {
            try await clock.sleep(for: wait)
            wait = interval
            guard shipped() else {
                logger.info("log compaction and retention wait for the log to be shipped")
                continue
            }
            if let retainAudit {
                lastTruncation = await truncateOnce(retainAudit: retainAudit, after: lastTruncation)
            }
            await compactOnce()
        }
    }

    /// One run of audit retention: finish an interrupted truncation, then record and perform a new one.
    ///
    /// - Parameter pending: the last `log.truncated` recorded (finished first, should a crash have cut it short).
    /// - Returns: the last `log.truncated` recorded after the run.
    func truncateOnce(retainAudit: Duration, after pending: LogTruncated?) async -> LogTruncated? {
        let (directory, snapshots, now, logger) = (directory, snapshots, clock.timestamp(), logger)
        let planned = await pool.run {
            () -> Result<LogMaintenance.PlannedTruncation?, any Error> in
            Result {
                if let pending {
                    try LogMaintenance.finishTruncation(pending, directory: directory, now: now, snapshots: snapshots)
                }
                return try LogMaintenance.planTruncation(
                    directory: directory, retainAudit: retainAudit, now: now, snapshots: snapshots, logger: logger)
            }
        }
        let truncation: LogMaintenance.PlannedTruncation
        switch planned {
        case .success(let due?): truncation = due
        case .success(nil): return pending
        case .failure(let error):
            logger.warning("audit retention did not run: \(error)")
            return pending
        }
        let plan = truncation.plan
        let event = LogMaintenance.record(
            of: plan, cutoff: Timestamp(milliseconds: now.milliseconds - retainAudit.components.seconds * 1000),
            retainAudit: retainAudit, baseSeq: truncation.base.seq)
        do {
            let ticket = try writer.append([NewEvent(.logTruncated(event), cause: "retention", corr: nil)])
            _ = try await ticket.committed()
        } catch {
            logger.warning("audit retention could not record log.truncated, so nothing was dropped: \(error)")
            return pending
        }
        let (base, bytes) = (truncation.baseBytes, plan.segments.reduce(0) { $0 + $1.bytes })
        let dropped = await pool.run { () -> Result<Void, any Error> in
            Result {
                try LogTruncation.drop(
                    directory: directory, throughSeq: plan.throughSeq, lastChain: plan.lastChain, base: base, now: now)
            }
        }
        switch dropped {
        case .success:
            logger.info(
                "audit retention dropped seqs \(plan.fromSeq)…\(plan.throughSeq) (\(plan.segments.count) segment(s), "
                    + "\(bytes) bytes); their state is kept in \(LogTruncation.baseName)")
        case .failure(let error):
            logger.warning("audit retention recorded log.truncated but could not drop the files yet: \(error)")
        }
        return event
    }

    private func compactOnce() async {
        let (directory, retain, now, logger) = (directory, retainPayloads, clock.timestamp(), logger)
        let outcome = await pool.run {
            () -> Result<SegmentCompactor.Report, any Error> in
            Result { try LogMaintenance.compact(directory: directory, retainPayloads: retain, now: now) }
        }
        switch outcome {
        case .success(let report) where report.segmentsCompacted > 0:
            logger.info(
                "compacted \(report.segmentsCompacted) segment(s): \(report.eventsStripped) replaced payloads "
                    + "stripped, \(report.bytesBefore) → \(report.bytesAfter) bytes")
        case .success: break
        case .failure(let error): logger.warning("log compaction did not run: \(error)")
        }
    }
}
