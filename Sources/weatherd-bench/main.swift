import Foundation
import WeatherDomain

#if canImport(Glibc)
    import Glibc
#endif

/// weatherd-bench: measures a release `weatherd` against baselines taken in the same run on the
/// same file system, and prints one JSON line of figures per subcommand (each with its ratio).
///
/// usage: weatherd-bench append|group|rpc|all [--binary PATH] [--dir DIR] [--count N]

/// A running weatherd with raw pipes: lines in, lines counted out.
final class Child {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    /// Lines already read beyond what earlier calls asked for.
    var surplus = 0

    init(binary: String, dataDir: String) throws {
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--data-dir", dataDir, "--log-level", "error", "--refresh-interval", "0"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func send(_ bytes: [UInt8]) { input.fileHandleForWriting.write(Data(bytes)) }

    /// Reads until `count` newline-terminated lines have arrived.
    func readLines(_ count: Int) {
        var seen = surplus
        let fd = output.fileHandleForReading.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while seen < count {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if read <= 0 { return }
            for byte in buffer[..<read] where byte == 10 { seen += 1 }
        }
        surplus = seen - count
    }

    func stop() {
        input.fileHandleForWriting.closeFile()
        process.waitUntilExit()
    }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func request(_ id: Int, _ method: String, _ params: String) -> [UInt8] {
    Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#.utf8) + [10]
}

/// `count` changes one at a time (each answered before the next), against a raw write+fdatasync loop.
func append(binary: String, dir: String, count: Int) throws -> JSONValue {
    let dataDir = dir + "/append-\(getpid())"
    let child = try Child(binary: binary, dataDir: dataDir)
    let lines = (0..<count).map { request($0, "settings/set", #"{"units":"\#($0 % 2 == 0 ? "imperial" : "metric")"}"#) }
    let service = seconds {
        for line in lines {
            child.send(line)
            child.readLines(1)
        }
    }
    child.stop()
    let lineSize = 190
    let raw = try seconds {
        let path = dir + "/raw-\(getpid()).log"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0o600)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer {
            close(fd)
            unlink(path)
        }
        let bytes = [UInt8](repeating: 120, count: lineSize)
        for _ in 0..<count {
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            fdatasync(fd)
        }
    }
    return .object([
        "bench": "append", "count": .int(Int64(count)), "eventsPerSecond": .double((Double(count) / service).rounded()),
        "rawWriteFsyncPerSecond": .double((Double(count) / raw).rounded()),
        "ratioToRaw": .double(Rounding.round(raw / service, decimals: 3)), "target": ">= 0.8",
    ])
}

/// `count` changes from `writers` pipelined writers (all sent at once, `writers` in flight at a time).
func group(binary: String, dir: String, count: Int, writers: Int) throws -> Double {
    let child = try Child(binary: binary, dataDir: dir + "/group-\(writers)-\(getpid())")
    let lines = (0..<count).map { request($0, "settings/set", #"{"units":"\#($0 % 2 == 0 ? "imperial" : "metric")"}"#) }
    let elapsed = seconds {
        var sent = 0
        var answered = 0
        while answered < count {
            while sent < count, sent - answered < writers {
                child.send(lines[sent])
                sent += 1
            }
            child.readLines(1)
            answered += 1
        }
    }
    child.stop()
    return Double(count) / elapsed
}

/// Pipelined read-only requests, and the serial round trip's p50 and p99.
func rpc(binary: String, dir: String, count: Int) throws -> JSONValue {
    let child = try Child(binary: binary, dataDir: dir + "/rpc-\(getpid())")
    var batch: [UInt8] = []
    for index in 0..<count { batch += request(index, index % 2 == 0 ? "favorites/list" : "settings/get", "{}") }
    let pipelined = seconds {
        child.send(batch)
        child.readLines(count)
    }
    var samples: [Double] = []
    for index in 0..<2000 {
        let line = request(count + index, "settings/get", "{}")
        samples.append(
            seconds {
                child.send(line)
                child.readLines(1)
            })
    }
    child.stop()
    samples.sort()
    return .object([
        "bench": "rpc", "pipelinedRequestsPerSecond": .double((Double(count) / pipelined).rounded()),
        "target": ">= 100000",
        "serialP50Microseconds": .double((samples[samples.count / 2] * 1e6).rounded()),
        "serialP99Microseconds": .double((samples[samples.count * 99 / 100] * 1e6).rounded()),
    ])
}

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "all" : arguments.removeFirst()
var binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
    "weatherd"
).path
var dir = FileManager.default.temporaryDirectory.path
var count = 20_000
while let flag = arguments.first {
    arguments.removeFirst()
    let value = arguments.isEmpty ? "" : arguments.removeFirst()
    switch flag {
    case "--binary": binary = value
    case "--dir": dir = value
    case "--count": count = Int(value) ?? count
    default:
        FileHandle.standardError.write(
            Data("usage: weatherd-bench append|group|rpc|all [--binary PATH] [--dir DIR] [--count N]\n".utf8))
        exit(2)
    }
}
let workDir = dir + "/weatherd-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: workDir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: workDir) }
var results: [JSONValue] = []
if command == "append" || command == "all" {
    results.append(try append(binary: binary, dir: workDir, count: min(count, 5000)))
}
if command == "group" || command == "all" {
    let serial = try group(binary: binary, dir: workDir, count: min(count, 5000), writers: 1)
    let eight = try group(binary: binary, dir: workDir, count: count, writers: 8)
    let many = try group(binary: binary, dir: workDir, count: count * 2, writers: 64)
    results.append(
        .object([
            "bench": "group", "writers1PerSecond": .double(serial.rounded()),
            "writers8PerSecond": .double(eight.rounded()),
            "writers64PerSecond": .double(many.rounded()),
            "ratio64ToSerial": .double(Rounding.round(many / serial, decimals: 1)),
            "target": "64 writers >= 50000/s and >= 10x serial",
        ]))
}
if command == "rpc" || command == "all" { results.append(try rpc(binary: binary, dir: workDir, count: count * 5)) }
for result in results { FileHandle.standardOutput.write(Data((result.jsonString + "\n").utf8)) }
