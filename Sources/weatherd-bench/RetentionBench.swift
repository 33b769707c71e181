import EventLog
import Foundation
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherTesting

/// Log size over a year with and without payload retention, compaction throughput, and start-up of a
/// compacted log.
///
/// A day of a 50-place dashboard refreshed every 10 minutes is written in two forms: with `--forecast-ttl 600`
/// every refresh is an upstream call (7,200 forecasts, one every 12 s), with the default `--forecast-ttl 3600`
/// one in six is (1,200, one every 72 s; the other refreshes are answered from the cache and write nothing).
/// Each is written in
/// 64 MiB segments, two months in the past, and compacted with `--retain-payloads 0` (everything replaced).
/// The year's figures are built from that day's measured bytes: 365 full days without retention; with a payload
/// window of N days, N full days plus 365 − N compacted ones, where a compacted day is the day's events at the
/// measured size of a stripped line (within one day compaction keeps each place's last fetch whole, which in a
/// year happens once, not every day), plus each 64 MiB segment's first line, kept whole. With `--retain-audit
/// 90d` as well, the disk holds at most 30 full and 60 compacted days. Replay time is measured on the day's log
/// before and after compaction.
func retention(dir: String, forecastTTLMinutes: Int) throws -> JSONValue {
    let dataDir = dir + "/retention"
    try? FileManager.default.removeItem(atPath: dataDir)
    let now = SystemClock().timestamp()
    let perDay = 50 * 24 * 60 / forecastTTLMinutes
    let rawBytes = try LogGenerator.write(
        mix: .dashboard, count: perDay, to: dataDir, segmentBytes: 64 << 20,
        start: Timestamp(milliseconds: now.milliseconds - 60 * 86_400_000),
        step: Int64(86_400_000 / perDay))
    let replayBefore = try seconds { _ = try Replay.run(directory: dataDir, commandWindow: 100_000) }
    // What `weather/forecastChanges` reads: one place's forecasts of three dates, from the whole day.
    let (key, dates) = try firstForecast(in: dataDir)
    var changes: [ForecastLogScan.Fetch] = []
    let changesBefore = try seconds {
        changes = try ForecastLogScan.readAll(directory: dataDir, key: key, dates: dates)
    }
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
    let compactedFiles = try LogFiles.list(directory: dataDir)
    let compactedBytes = compactedFiles.bytes
    var stripped = (lines: 0, bytes: 0)
    for first in compactedFiles.segments {
        let bytes = [UInt8](FileManager.default.contents(atPath: compactedFiles.path(ofSegment: first)) ?? Data())
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.firstRange(of: strippedMark) != nil {
            stripped.lines += 1
            stripped.bytes += line.count + 1
        }
    }
    guard stripped.lines > 0 else { throw BenchError("compaction stripped nothing") }
    let replayAfter = try seconds { _ = try Replay.run(directory: dataDir, commandWindow: 100_000) }
    var changesCompacted: [ForecastLogScan.Fetch] = []
    let changesAfter = try seconds {
        changesCompacted = try ForecastLogScan.readAll(directory: dataDir, key: key, dates: dates)
    }
    guard changes.count > 1, changesCompacted.map(kept) == changes.map(kept) else {
        throw BenchError("the compacted day does not give the same forecasts of a date")
    }
    outcome = try LogReader.read(directory: dataDir) { _, _ in true }
    guard outcome.lines == Int64(perDay) else { throw BenchError("the compacted log lost lines") }
    try? FileManager.default.removeItem(atPath: dataDir)
    let gb = { (bytes: Double) in Rounding.round(bytes / 1e9, decimals: 2) }
    let fullDay = Double(rawBytes)
    let strippedLine = Double(stripped.bytes) / Double(stripped.lines)
    let compactedDay = Double(perDay) * strippedLine
    // Each sealed segment keeps its first line whole: one full line per 64 MiB written.
    let firstLines = fullDay * 365 / Double(64 << 20) * (fullDay / Double(perDay))
    let year = { (fullDays: Double) in fullDay * fullDays + compactedDay * (365 - fullDays) + firstLines }
    return .object([
        "bench": "retention", "forecastTtlSeconds": .int(Int64(forecastTTLMinutes * 60)),
        "dashboardDayEvents": .int(Int64(perDay)), "dayBytes": .int(rawBytes),
        "dayBytesCompacted": .int(compactedBytes), "strippedEvents": .int(report.eventsStripped),
        "strippedLineBytes": .double(strippedLine.rounded()),
        "compactedDayBytesInAYear": .double(compactedDay.rounded()),
        "yearGBWithoutRetention": .double(gb(fullDay * 365)), "yearGBWithRetention30d": .double(gb(year(30))),
        "yearGBWithRetention7d": .double(gb(year(7))),
        "boundGBWithAuditRetention90d": .double(gb(fullDay * 30 + compactedDay * 60)),
        "compactionMBPerSecond": .double(
            Rounding.round(Double(report.bytesBefore) / 1e6 / compactSeconds, decimals: 0)),
        "replayDayMs": .double(Rounding.round(replayBefore * 1000, decimals: 0)),
        "replayDayCompactedMs": .double(Rounding.round(replayAfter * 1000, decimals: 0)),
        "forecastChangesFetchesOfAPlace": .int(Int64(changes.count)),
        "forecastChangesDayMs": .double(Rounding.round(changesBefore * 1000, decimals: 0)),
        "forecastChangesDayCompactedMs": .double(Rounding.round(changesAfter * 1000, decimals: 0)),
        // A query reads from 17 days before its first date: within the payload window, 17 whole days.
        "forecastChangesQuerySeconds": .double(Rounding.round(changesBefore * 17, decimals: 2)),
        "target": "a year of the dashboard under 1 GB with every audit fact kept",
    ])
}

/// What a stripped line holds and a whole one does not.
private let strippedMark = Array(#""compacted":{"bytes":"#.utf8)

/// The key of the day's first forecast and its first three dates.
private func firstForecast(in directory: String) throws -> (key: String, dates: Set<String>) {
    var found: (String, Set<String>)?
    _ = try LogReader.read(directory: directory) { envelope, _ in
        guard envelope.type == "weather.fetched", case .object(let data) = try JSONValue.parse(envelope.data),
            data["kind"] == "forecast", let key = data["key"]?.stringValue, let days = data["daily"]?.arrayValue
        else { return true }
        found = (key, Set(days.prefix(3).compactMap { $0["date"]?.stringValue }))
        return false
    }
    guard let found else { throw BenchError("the day holds no forecast") }
    return found
}

/// What compaction keeps of a fetch's days, to compare a day's answers before and after it.
private func kept(_ fetch: ForecastLogScan.Fetch) -> [String] {
    fetch.days.map { day in
        "\(fetch.fetchedAt)|\(day.date)|\(day.min)|\(day.max)|\(day.pop ?? -1)|\(day.precipitation ?? -1)|\(day.condition)"
    }
}
