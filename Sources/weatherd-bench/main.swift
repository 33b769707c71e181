import Foundation
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// weatherd-bench: measures a release `weatherd` against baselines taken in the same run on the
/// same file system, and prints one JSON line of figures per subcommand (each with its ratio).
///
/// usage: weatherd-bench append|group|durable|miss|rpc|sockets|favorites|replay|startup|retention|all [--binary PATH] [--dir DIR] [--count N]
///     [--events N] [--window N]
///
/// `replay` and `startup` (which also prints the `memory` figures) generate logs of `--events` events
/// (1,000,000 by default) in a small mix and a realistic mix with 10 % cached 5-day forecasts (`--mix`
/// picks one); `--only weatherd` skips the baselines (for profiling); `--keep` leaves the generated data
/// dirs in `--dir` for a look afterwards; `replay --log DATA_DIR` replays a data dir already on disk (one
/// another build kept), so two builds compare on the same bytes. `durable` sends min(`--count`, 5,000) serial changes and `--count`
/// pipelined ones, `--window` (256) in flight; `rpc` sends 5 × `--count` pipelined reads with the same window,
/// reading the answers while it writes. `miss` sends `--count` (at most 2,000) serial `weather/current` requests that miss
/// the cache, against a stand-in provider in this process.

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "all" : arguments.removeFirst()
if command == "floor-server", arguments.count == 2 {
    floorServer(path: arguments[0], lineBytes: Int(arguments[1]) ?? 300)
}
var binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
    "weatherd"
).path
var dir = FileManager.default.temporaryDirectory.path
var count = 20_000
var events = 1_000_000
var mixes: [LogGenerator.Mix] = [.small, .mixed]
var only: String?
var keep = false
var window = 256
var existingLog: String?
while let flag = arguments.first {
    arguments.removeFirst()
    if flag == "--keep" {
        keep = true
        continue
    }
    let value = arguments.isEmpty ? "" : arguments.removeFirst()
    switch flag {
    case "--binary": binary = value
    case "--dir": dir = value
    case "--count": count = Int(value) ?? count
    case "--events": events = Int(value) ?? events
    case "--mix": mixes = LogGenerator.Mix(rawValue: value).map { [$0] } ?? mixes
    case "--only": only = value
    case "--window": window = Int(value) ?? window
    case "--log": existingLog = value
    default:
        FileHandle.standardError.write(
            Data(
                "usage: weatherd-bench append|group|durable|miss|rpc|sockets|favorites|replay|startup|retention|all [--binary PATH] [--dir DIR] [--count N] [--events N] [--window N] [--mix small|mixed] [--only weatherd] [--keep] [--log DATA_DIR]\n"
                    .utf8))
        exit(2)
    }
}
let workDir = dir + "/weatherd-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: workDir, withIntermediateDirectories: true)
defer { if !keep { try? FileManager.default.removeItem(atPath: workDir) } }
/// Prints one result line at once, so a long run shows its figures as they come.
func emit(_ result: JSONValue) { FileHandle.standardOutput.write(Data((result.jsonString + "\n").utf8)) }

if command == "retention" || command == "all" {
    for minutes in [10, 60] { emit(try retention(dir: workDir, forecastTTLMinutes: minutes)) }
}
if command == "append" || command == "all" {
    emit(try append(binary: binary, dir: workDir, count: min(count, 5000)))
}
if command == "group" || command == "all" {
    let serial = try group(binary: binary, dir: workDir, count: min(count, 5000), writers: 1)
    let eight = try group(binary: binary, dir: workDir, count: count, writers: 8)
    let many = try group(binary: binary, dir: workDir, count: count * 2, writers: 64)
    emit(
        .object([
            "bench": "group", "writers1PerSecond": .double(serial.rounded()),
            "writers8PerSecond": .double(eight.rounded()),
            "writers64PerSecond": .double(many.rounded()),
            "ratio64ToSerial": .double(Rounding.round(many / serial, decimals: 1)),
            "target": "64 writers >= 50000/s and >= 10x serial",
        ]))
}
if command == "durable" || command == "all" {
    emit(
        try durable(
            binary: binary, dir: workDir, serialCount: min(count, 5000), pipelinedCount: count, window: max(window, 1)))
}
if command == "miss" || command == "all" {
    emit(try cacheMiss(binary: binary, dir: workDir, count: min(count, 2000)))
}
if command == "rpc" || command == "all" {
    emit(try rpc(binary: binary, dir: workDir, count: count * 5, window: max(window, 1)))
}
if command == "sockets" || command == "all" {
    emit(try sockets(binary: binary, dir: workDir, clients: 8, perClient: count * 2))
}
if command == "replay", let existingLog {
    emit(try replay(existing: existingLog))
} else if command == "replay" || command == "all" {
    for mix in mixes { emit(try replay(dir: workDir, count: events, mix: mix, baselines: only != "weatherd")) }
}
if command == "favorites" || command == "all" {
    var figures: [JSONValue] = []
    for favoriteCount in [10, 10_000, 100_000] {
        let figure = try favorites(binary: binary, dir: workDir, count: favoriteCount, operations: 1000)
        emit(figure)
        figures.append(figure)
    }
    if let first = figures.first, let last = figures.last { emit(favoritesRatios(first, last)) }
}
if command == "startup" || command == "memory" || command == "all" {
    for mix in mixes {
        try startup(binary: binary, dir: workDir, count: events, mix: mix).forEach(emit)
    }
}
