import Foundation
import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Durable changes under `--fsync always` against their floor, all in one run on one directory:
///
/// - the raw baseline: `write` of one `rawLineBytes`-byte line then `fdatasync`, per iteration, on a new file
///   opened for appending (as the log is), measured in two halves, before and after weatherd's runs, so a drift
///   of the disk during the run weighs on both sides;
/// - serial changes over stdio: `settings/set` alternating imperial and metric (each one writes an event), sent
///   one at a time, each answered before the next, with the p50 and p99 of the round trip;
/// - the same over the socket: a client of `weatherd serve` on its socket, and a stdio client through the relay;
/// - pipelined changes: the same requests with up to `window` in flight;
/// - the floor of any server: this program as a child (`floor-server`), one thread that reads a request line
///   from its stdin pipe, appends a `rawLineBytes`-byte line and `fdatasync`s, and writes an answer line, sent
///   the same requests one at a time. What a serial change costs beyond it is weatherd's own.
///
/// The serial rate over the raw rate is the figure the target is about (≥ 0.8).
func durable(binary: String, dir: String, serialCount: Int, pipelinedCount: Int, window: Int) throws -> JSONValue {
    let rawLineBytes = 300
    let rawPath = dir + "/durable-raw-\(getpid()).log"
    defer { unlink(rawPath) }
    let rawFirst = try rawWriteSync(path: rawPath, count: serialCount / 2, lineBytes: rawLineBytes)

    let alone = try changes(
        binary: binary, dataDir: dir + "/durable-\(getpid())", face: .standalone, serialCount: serialCount,
        pipelinedCount: pipelinedCount, window: window)
    let direct = try changes(
        binary: binary, dataDir: dir + "/durable-socket-\(getpid())", face: .socket(dir + "/d-\(getpid()).sock"),
        serialCount: serialCount, pipelinedCount: pipelinedCount, window: window)
    let shared = try changes(
        binary: binary, dataDir: dir + "/durable-relay-\(getpid())", face: .relay, serialCount: serialCount,
        pipelinedCount: pipelinedCount, window: window)
    let floor = try floorRoundTrips(path: rawPath, count: serialCount, lineBytes: rawLineBytes)
    let rawSecond = try rawWriteSync(path: rawPath, count: serialCount - serialCount / 2, lineBytes: rawLineBytes)

    let raw = (rawFirst.seconds + rawSecond.seconds) / Double(serialCount)
    let rawSamples = (rawFirst.samples + rawSecond.samples).sorted()
    func microseconds(_ value: Double) -> JSONValue { .double((value * 1e6).rounded()) }
    var figures: [String: JSONValue] = [
        "bench": "durable", "fsync": "always",
        "rawLineBytes": .int(Int64(rawLineBytes)),
        "eventLineBytes": .int(Int64(alone.eventLineBytes)),
        "rawWriteFsyncPerSecond": .double((1 / raw).rounded()),
        "rawFirstHalfPerSecond": .double((Double(serialCount / 2) / rawFirst.seconds).rounded()),
        "rawSecondHalfPerSecond": .double(
            (Double(serialCount - serialCount / 2) / rawSecond.seconds).rounded()),
        "rawP50Microseconds": microseconds(rawSamples[rawSamples.count / 2]),
        "rawP99Microseconds": microseconds(rawSamples[rawSamples.count * 99 / 100]),
        "floorPerSecond": .double((Double(serialCount) / floor.seconds).rounded()),
        "floorRatioToRaw": .double(Rounding.round(raw / (floor.seconds / Double(serialCount)), decimals: 3)),
        "floorP50Microseconds": microseconds(floor.samples[floor.samples.count / 2]),
        "serialCount": .int(Int64(serialCount)), "pipelinedCount": .int(Int64(pipelinedCount)),
        "pipelinedWindow": .int(Int64(window)),
    ]
    for (name, run) in [("stdio", alone), ("socket", direct), ("relay", shared)] {
        let perSerial = run.serialSeconds / Double(serialCount)
        figures[name] = .object([
            "serialPerSecond": .double((1 / perSerial).rounded()),
            "serialRatioToRaw": .double(Rounding.round(raw / perSerial, decimals: 3)),
            "serialRatioToFloor": .double(
                Rounding.round(floor.seconds / Double(serialCount) / perSerial, decimals: 3)),
            "serialP50Microseconds": microseconds(run.samples[run.samples.count / 2]),
            "serialP99Microseconds": microseconds(run.samples[run.samples.count * 99 / 100]),
            "pipelinedPerSecond": .double((Double(pipelinedCount) / run.pipelinedSeconds).rounded()),
            "readP50Microseconds": microseconds(run.reads[run.reads.count / 2]),
            "readP99Microseconds": microseconds(run.reads[run.reads.count * 99 / 100]),
        ])
    }
    figures["relayAddedReadP50Microseconds"] = microseconds(
        shared.reads[shared.reads.count / 2] - alone.reads[alone.reads.count / 2])
    figures["relayAddedReadP99Microseconds"] = microseconds(
        shared.reads[shared.reads.count * 99 / 100] - alone.reads[alone.reads.count * 99 / 100])
    figures["target"] = .string(
        "serial >= 0.8x raw (stdio: standalone; socket: a client of weatherd serve on its socket; "
            + "relay: a stdio client through the relay and the daemon)")
    return .object(figures)
}

/// How a bench reaches weatherd: standalone on stdio, a client of `weatherd serve` on its socket, or a stdio client
/// through the relay and the daemon.
private enum Face {
    case standalone
    case socket(String)
    case relay
}

/// One weatherd's figures: serial changes (each answered before the next; sorted round trips), pipelined
/// changes, and serial reads (`settings/get`, sorted round trips).
private func changes(
    binary: String, dataDir: String, face: Face, serialCount: Int, pipelinedCount: Int, window: Int
) throws -> (samples: [Double], serialSeconds: Double, pipelinedSeconds: Double, reads: [Double], eventLineBytes: Int) {
    let durable = ["--fsync", "always", "--snapshot-every", "0"]
    let child: Child
    switch face {
    case .standalone: child = try Child(binary: binary, dataDir: dataDir, extra: durable)
    case .relay: child = try Child(binary: binary, dataDir: dataDir, extra: durable, relay: true)
    case .socket(let path): child = try Child(binary: binary, dataDir: dataDir, extra: durable, socketPath: path)
    }
    child.send(request(0, "service/status", "{}"))
    child.readLines(1)
    var id = 0
    func change() -> [UInt8] {
        id += 1
        return request(id, "settings/set", #"{"units":"\#(id % 2 == 0 ? "metric" : "imperial")"}"#)
    }
    _ = roundTrips(child, (0..<50).map { _ in change() })
    let serial = roundTrips(child, (0..<serialCount).map { _ in change() })
    let pipelinedLines = (0..<pipelinedCount).map { _ in change() }
    let pipelined = seconds { child.pipeline(pipelinedLines, window: window) }
    let reads = roundTrips(child, (0..<serialCount).map { request(id + 1 + $0, "settings/get", "{}") })
    child.stop()
    let logBytes = (try? FileManager.default.attributesOfItem(atPath: dataDir + "/events.jsonl")[.size] as? Int) ?? 0
    return (
        serial.samples, serial.seconds, pipelined, reads.samples, logBytes / (50 + serialCount + pipelinedCount + 2)
    )
}

/// `count` serial round trips to a `floor-server` child appending to `path`: each request answered before the next.
private func floorRoundTrips(
    path: String, count: Int, lineBytes: Int
) throws -> (seconds: Double, samples: [Double]) {
    let child = try Child(executable: CommandLine.arguments[0], arguments: ["floor-server", path, String(lineBytes)])
    defer { child.stop() }
    let line = request(0, "settings/set", #"{"units":"metric"}"#)
    _ = roundTrips(child, Array(repeating: line, count: 50))
    return roundTrips(child, Array(repeating: line, count: count))
}

/// Sends `lines` one at a time, each answered before the next: the elapsed time and the sorted round trips.
/// The callers send a few first so that their figures do not carry the threads' and the file's start-up.
func roundTrips(_ child: Child, _ lines: [[UInt8]]) -> (seconds: Double, samples: [Double]) {
    var samples: [Double] = []
    samples.reserveCapacity(lines.count)
    let elapsed = seconds {
        for line in lines {
            let start = ContinuousClock.now
            child.send(line)
            child.readLines(1)
            samples.append(elapsedSeconds(since: start))
        }
    }
    return (elapsed, samples.sorted())
}

/// A `lineBytes`-byte line of `x`s ending in a newline, the raw baseline's append.
private func rawLine(_ lineBytes: Int) -> [UInt8] {
    var line = [UInt8](repeating: UInt8(ascii: "x"), count: lineBytes)
    line[lineBytes - 1] = 10
    return line
}

/// The floor server (`weatherd-bench floor-server PATH BYTES`): on one thread, for each line read from standard
/// input, appends a BYTES-byte line to PATH, `fdatasync`s it, and writes one answer line to standard output;
/// exits at end of input.
func floorServer(path: String, lineBytes: Int) -> Never {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    guard fd >= 0 else { exit(1) }
    let line = rawLine(lineBytes)
    let answer = Array(#"{"jsonrpc":"2.0","id":0,"result":{"units":"metric"}}"#.utf8) + [10]
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count <= 0 { exit(0) }
        for byte in buffer[..<count] where byte == 10 {
            let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == lineBytes, fdatasync(fd) == 0 else { exit(1) }
            _ = answer.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        }
    }
}

/// `count` iterations of `write` (one `lineBytes`-byte line) then `fdatasync`, appended to `path`.
func rawWriteSync(path: String, count: Int, lineBytes: Int) throws -> (seconds: Double, samples: [Double]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    guard fd >= 0 else { throw BenchError("cannot open \(path)") }
    defer { close(fd) }
    let line = rawLine(lineBytes)
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
