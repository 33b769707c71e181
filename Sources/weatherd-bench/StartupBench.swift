import Foundation
import WeatherDomain
import WeatherEngine
import WeatherTesting

/// Time from exec to the first answer on a data dir of `count` events, without a snapshot and then with
/// the one written at the first run's clean shutdown (whose time from end of input to exit, snapshot
/// included, is reported too); with each run's peak memory against a fresh start.
func startup(binary: String, dir: String, count: Int, mix: LogGenerator.Mix) throws -> [JSONValue] {
    let dataDir = dir + "/startup-\(mix.rawValue)"
    let bytes = try LogGenerator.write(mix: mix, count: count, to: dataDir)
    try? FileManager.default.removeItem(atPath: dataDir + "/snapshots")
    let fresh = try firstAnswer(binary: binary, dataDir: dir + "/startup-fresh")
    let quarterDir = dir + "/startup-quarter-\(mix.rawValue)"
    try LogGenerator.write(mix: mix, count: count / 4, to: quarterDir)
    let quarter = try firstAnswer(binary: binary, dataDir: quarterDir)
    let full = try firstAnswer(binary: binary, dataDir: dataDir)
    let snapshot = try firstAnswer(binary: binary, dataDir: dataDir)
    let bound = 1.5 * Double(fresh.peak) + 30 * 1_048_576
    return [
        .object([
            "bench": .string("startup-\(mix.rawValue)"), "events": .int(Int64(count)), "logBytes": .int(bytes),
            "withoutSnapshotSeconds": .double(Rounding.round(full.seconds, decimals: 3)),
            "withSnapshotSeconds": .double(Rounding.round(snapshot.seconds, decimals: 3)),
            "freshStartSeconds": .double(Rounding.round(fresh.seconds, decimals: 3)),
            "exitAfterEndOfInputSeconds": .double(Rounding.round(full.exit, decimals: 3)),
            "withoutSnapshotStartup": full.startup, "withSnapshotStartup": snapshot.startup,
            "ratioWithoutToTarget": .double(Rounding.round(full.seconds / 10, decimals: 3)),
            "ratioWithToTarget": .double(Rounding.round(snapshot.seconds / 1, decimals: 3)),
            "target": .string("<= 1 s with a snapshot, <= 10 s without"),
        ]),
        .object([
            "bench": .string("memory-\(mix.rawValue)"), "events": .int(Int64(count)),
            "freshStartPeakRSSBytes": .int(fresh.peak), "afterFullReplayPeakRSSBytes": .int(full.peak),
            "afterFullReplayOfQuarterLogPeakRSSBytes": .int(quarter.peak),
            "afterSnapshotStartPeakRSSBytes": .int(snapshot.peak),
            "ratioFullReplayToFresh": .double(Rounding.round(Double(full.peak) / Double(fresh.peak), decimals: 3)),
            "ratioToBound": .double(Rounding.round(Double(full.peak) / bound, decimals: 3)),
            "target": .string("after replay <= 1.5x fresh + 30 MB (ratioToBound <= 1)"),
        ]),
    ]
}

/// Starts weatherd, sends `service/status`, and times the first answer; the run then ends cleanly.
func firstAnswer(
    binary: String, dataDir: String
) throws -> (seconds: Double, peak: Int64, startup: JSONValue, exit: Double) {
    let status = request(1, "service/status", "{}")
    var child: Child?
    var line: [UInt8] = []
    let elapsed = try seconds {
        child = try Child(binary: binary, dataDir: dataDir)
        child?.send(status)
        line = child?.readLine() ?? []
    }
    guard let child else { throw BenchError("weatherd did not start") }
    let peak = child.peakResidentBytes
    let exit = seconds { child.stop() }
    let answer = try JSONValue.parse(line)
    guard let result = answer.objectValue?["result"]?.objectValue else {
        throw BenchError("no service/status answer: \(String(decoding: line, as: UTF8.self))")
    }
    return (elapsed, peak, result["startup"] ?? .null, exit)
}
