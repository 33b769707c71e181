import EventLog
import Foundation
import WeatherDomain

/// Payload retention for weatherd's events: what compaction may strip, and the runs that strip it.
public enum LogMaintenance {
    /// The payloads compaction strips once replaced: a `weather.fetched` report, replaced by a later fetch of the
    /// same kind and key (the cache entry it filled).
    public static let rules: [PayloadRule] = [
        PayloadRule(
            type: "weather.fetched", version: 1, payloadMembers: WeatherFetched.payloadMembers,
            entryMembers: WeatherFetched.entryMembers)
    ]

    /// Compacts the sealed segments of the log in `directory`: payloads written more than `retainPayloads`
    /// before `now` and replaced since are stripped.
    public static func compact(
        directory: String, retainPayloads: Duration, now: Timestamp,
        beforeStep: (CompactionStep, String) throws -> Void = { _, _ in }
    ) throws -> SegmentCompactor.Report {
        let cutoff = Timestamp(milliseconds: now.milliseconds - retainPayloads.components.seconds * 1000)
        return try SegmentCompactor.compact(
            directory: directory, rules: rules, cutoff: cutoff, now: now, beforeStep: beforeStep)
    }
}

/// Compacts sealed segments in the background: a first run `delay` after start (so start-up is not slowed),
/// then every `interval`; each run rewrites the segments that have something to strip, one at a time, on a
/// thread of its own, off the log writer's path. It stops between segments at shutdown.
struct CompactionService: Service {
    let directory: String
    let retainPayloads: Duration
    let clock: WallClock
    let timer: any Clock<Duration>
    let delay: Duration
    let interval: Duration
    let logger: Logger

    func run(shutdown: Latch) async {
        let task = Task {
            var wait = delay
            while !Task.isCancelled {
                do { try await timer.sleep(for: wait) } catch { return }
                wait = interval
                await compactOnce()
            }
        }
        await shutdown.wait()
        task.cancel()
        await task.value
    }

    private func compactOnce() async {
        let (directory, retain, now, logger) = (directory, retainPayloads, clock.now(), logger)
        let outcome = await onOwnThread(named: "weatherd-compactor") {
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
