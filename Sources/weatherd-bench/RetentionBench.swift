import EventLog
import Foundation
import WeatherDomain
import WeatherEngine
import WeatherTesting

/// Log size over a year with and without payload retention, compaction throughput, and start-up of a
/// compacted log.
///
/// A day of a 50-place dashboard refreshed every 10 minutes is written in two forms: with `--forecast-ttl 600`
/// every refresh is an upstream call (7,200 forecasts, one every 12 s), with the default `--forecast-ttl 3600`
/// one in six is (1,200, one every 72 s; the other refreshes are answered from the cache and write nothing).
/// Each is written in
/// 64 MiB segments, two months in the past, and compacted with `--retain-payloads 0` (everything replaced);
/// the year's figures are that day's measured bytes: 365 full days without retention, and with the default
/// 30 days, 30 full days plus 335 compacted ones (compaction keeps a place's last fetch, and a segment's
/// first line, so a compacted day is measured, not assumed); with `--retain-audit 90d` as well, the disk holds
/// at most 30 full and 60 compacted days. Replay time is measured on the day's log before and after compaction.
func retention(dir: String, forecastTTLMinutes: Int) throws -> JSONValue {
    let dataDir = dir + "/retention"
    try? FileManager.default.removeItem(atPath: dataDir)
    let now = WallClock.system.now()
    let perDay = 50 * 24 * 60 / forecastTTLMinutes
    let rawBytes = try LogGenerator.write(
        mix: .dashboard, count: perDay, to: dataDir, segmentBytes: 64 << 20,
        start: Timestamp(milliseconds: now.milliseconds - 60 * 86_400_000),
        step: Int64(86_400_000 / perDay))
    let replayBefore = try seconds { _ = try Replay.run(directory: dataDir, commandWindow: 100_000) }
    // Seal the active file too, as a day later it would be: the day is all in sealed segments.
    let files = try LogFiles.list(directory: dataDir)
    var outcome = try LogReader.read(directory: dataDir) { _, _ in true }
    guard rename(files.activePath, dataDir + "/" + LogFiles.segmentName(outcome.position.file)) == 0 else {
        throw BenchError("cannot seal the active file")
    }
    _ = FileManager.default.createFile(atPath: files.activePath, contents: nil)
    var report = SegmentCompactor.Report()
    let compactSeconds = try seconds {
        report = try LogMaintenance.compact(directory: dataDir, retainPayloads: .zero, now: now)
    }
    let compactedBytes = try LogFiles.list(directory: dataDir).bytes
    let replayAfter = try seconds { _ = try Replay.run(directory: dataDir, commandWindow: 100_000) }
    outcome = try LogReader.read(directory: dataDir) { _, _ in true }
    guard outcome.lines == Int64(perDay) else { throw BenchError("the compacted log lost lines") }
    try? FileManager.default.removeItem(atPath: dataDir)
    let gb = { (bytes: Double) in Rounding.round(bytes / 1e9, decimals: 2) }
    let yearRaw = Double(rawBytes) * 365
    let yearRetained = Double(rawBytes) * 30 + Double(compactedBytes) * 335
    return .object([
        "bench": "retention", "forecastTtlSeconds": .int(Int64(forecastTTLMinutes * 60)),
        "dashboardDayEvents": .int(Int64(perDay)), "dayBytes": .int(rawBytes),
        "dayBytesCompacted": .int(compactedBytes), "strippedEvents": .int(report.eventsStripped),
        "yearGBWithoutRetention": .double(gb(yearRaw)), "yearGBWithRetention30d": .double(gb(yearRetained)),
        "boundGBWithAuditRetention90d": .double(gb(Double(rawBytes) * 30 + Double(compactedBytes) * 60)),
        "compactionMBPerSecond": .double(
            Rounding.round(Double(report.bytesBefore) / 1e6 / compactSeconds, decimals: 0)),
        "replayDayMs": .double(Rounding.round(replayBefore * 1000, decimals: 0)),
        "replayDayCompactedMs": .double(Rounding.round(replayAfter * 1000, decimals: 0)),
        "target": "a year of the dashboard under 1 GB with every audit fact kept",
    ])
}
