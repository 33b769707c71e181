import Foundation
import WeatherDomain

#if canImport(Glibc)
    import Glibc
#endif

/// Durable changes under `--fsync always` against their floor, all in one run on one directory:
///
/// - the raw baseline: `write` of one `rawLineBytes`-byte line then `fdatasync`, per iteration, on a new file
///   opened for appending (as the log is), measured in two halves, before and after weatherd's runs, so a drift
///   of the disk during the run weighs on both sides;
/// - serial changes over stdio: `settings/set` alternating imperial and metric (each one writes an event), sent
///   one at a time, each answered before the next, with the p50 and p99 of the round trip;
/// - pipelined changes: the same requests with up to `window` in flight.
///
/// The serial rate over the raw rate is the figure the target is about (≥ 0.8).
func durable(binary: String, dir: String, serialCount: Int, pipelinedCount: Int, window: Int) throws -> JSONValue {
    let rawLineBytes = 300
    let rawPath = dir + "/durable-raw-\(getpid()).log"
    defer { unlink(rawPath) }
    let rawFirst = try rawWriteSync(path: rawPath, count: serialCount / 2, lineBytes: rawLineBytes)

    let dataDir = dir + "/durable-\(getpid())"
    let child = try Child(binary: binary, dataDir: dataDir, extra: ["--fsync", "always", "--snapshot-every", "0"])
    child.send(request(0, "service/status", "{}"))
    child.readLines(1)
    var id = 0
    func change() -> [UInt8] {
        id += 1
        return request(id, "settings/set", #"{"units":"\#(id % 2 == 0 ? "metric" : "imperial")"}"#)
    }
    // A few round trips first, so the first figures do not carry the threads' and the file's start-up.
    for _ in 0..<50 {
        child.send(change())
        child.readLines(1)
    }
    let serialLines = (0..<serialCount).map { _ in change() }
    var samples: [Double] = []
    samples.reserveCapacity(serialCount)
    let serial = seconds {
        for line in serialLines {
            let start = ContinuousClock.now
            child.send(line)
            child.readLines(1)
            samples.append(elapsedSeconds(since: start))
        }
    }
    let pipelinedLines = (0..<pipelinedCount).map { _ in change() }
    let pipelined = seconds {
        var sent = 0
        var answered = 0
        while answered < pipelinedCount {
            var chunk: [UInt8] = []
            while sent < pipelinedCount, sent - answered < window {
                chunk += pipelinedLines[sent]
                sent += 1
            }
            if !chunk.isEmpty { child.send(chunk) }
            child.readLines(1)
            answered += 1
        }
    }
    child.stop()
    let logBytes = (try? FileManager.default.attributesOfItem(atPath: dataDir + "/events.jsonl")[.size] as? Int) ?? 0
    let changes = 50 + serialCount + pipelinedCount
    let rawSecond = try rawWriteSync(path: rawPath, count: serialCount - serialCount / 2, lineBytes: rawLineBytes)

    let raw = (rawFirst.seconds + rawSecond.seconds) / Double(serialCount)
    let rawSamples = (rawFirst.samples + rawSecond.samples).sorted()
    samples.sort()
    let perSerial = serial / Double(serialCount)
    func microseconds(_ value: Double) -> JSONValue { .double((value * 1e6).rounded()) }
    return .object([
        "bench": "durable", "fsync": "always",
        "rawLineBytes": .int(Int64(rawLineBytes)),
        "eventLineBytes": .int(Int64(logBytes / max(changes, 1))),
        "rawWriteFsyncPerSecond": .double((1 / raw).rounded()),
        "rawFirstHalfPerSecond": .double((Double(serialCount / 2) / rawFirst.seconds).rounded()),
        "rawSecondHalfPerSecond": .double(
            (Double(serialCount - serialCount / 2) / rawSecond.seconds).rounded()),
        "rawP50Microseconds": microseconds(rawSamples[rawSamples.count / 2]),
        "rawP99Microseconds": microseconds(rawSamples[rawSamples.count * 99 / 100]),
        "serialCount": .int(Int64(serialCount)),
        "serialPerSecond": .double((1 / perSerial).rounded()),
        "serialRatioToRaw": .double(Rounding.round(raw / perSerial, decimals: 3)),
        "serialP50Microseconds": microseconds(samples[samples.count / 2]),
        "serialP99Microseconds": microseconds(samples[samples.count * 99 / 100]),
        "serialOverRawMicroseconds": microseconds(perSerial - raw),
        "pipelinedCount": .int(Int64(pipelinedCount)), "pipelinedWindow": .int(Int64(window)),
        "pipelinedPerSecond": .double((Double(pipelinedCount) / pipelined).rounded()),
        "target": "serial >= 0.8x raw",
    ])
}

/// `count` iterations of `write` (one `lineBytes`-byte line) then `fdatasync`, appended to `path`.
private func rawWriteSync(path: String, count: Int, lineBytes: Int) throws -> (seconds: Double, samples: [Double]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    guard fd >= 0 else { throw BenchError("cannot open \(path)") }
    defer { close(fd) }
    var line = [UInt8](repeating: UInt8(ascii: "x"), count: lineBytes)
    line[lineBytes - 1] = 10
    var samples: [Double] = []
    samples.reserveCapacity(count)
    var failed = false
    let elapsed = seconds {
        for _ in 0..<count {
            let start = ContinuousClock.now
            let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written != lineBytes || fdatasync(fd) != 0 { failed = true }
            samples.append(elapsedSeconds(since: start))
        }
    }
    if failed { throw BenchError("the raw write+fdatasync loop failed on \(path)") }
    return (elapsed, samples)
}

func elapsedSeconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
