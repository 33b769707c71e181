import EventLog
import Foundation
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Full start-up replay (verify crc and chain, decode, apply) of a generated log, against two baselines
/// on the same file: reading and splitting lines, and `JSONSerialization`-decoding every line.
func replay(dir: String, count: Int, mix: LogGenerator.Mix, baselines: Bool = true) throws -> JSONValue {
    let dataDir = dir + "/replay-\(mix.rawValue)"
    let bytes = try LogGenerator.write(mix: mix, count: count, to: dataDir)
    let path = dataDir + "/events.jsonl"
    var lines = count
    var decodedLines = count
    var split = 0.0
    var serialization = 0.0
    if baselines {
        split = try seconds { lines = try forEachLine(path) { _ in } }
        decodedLines = 0
        serialization = try seconds {
            _ = try forEachLine(path) { line in
                if (try? JSONSerialization.jsonObject(with: Data(line))) != nil { decodedLines += 1 }
            }
        }
    }
    var result: Replay.Result?
    let weatherd = try seconds { result = try Replay.run(directory: dataDir, commandWindow: 100_000) }
    guard let result, result.outcome.lines == Int64(count), lines == count, decodedLines == count else {
        throw BenchError("replay of the \(mix.rawValue) log did not read every line")
    }
    let stateBytes = result.state.json.jsonBytes.count
    var figures: [String: JSONValue] = [
        "bench": .string("replay-\(mix.rawValue)"), "events": .int(Int64(count)), "logBytes": .int(bytes),
        "stateBytes": .int(Int64(stateBytes)), "eventsPerSecond": .double((Double(count) / weatherd).rounded()),
        "target": .string(mix == .small ? ">= 150000 events/s" : ">= 1.0x JSONSerialization"),
    ]
    if baselines {
        figures["splitOnlyPerSecond"] = .double((Double(count) / split).rounded())
        figures["jsonSerializationPerSecond"] = .double((Double(count) / serialization).rounded())
        figures["ratioToSplitOnly"] = .double(Rounding.round(split / weatherd, decimals: 3))
        figures["ratioToJSONSerialization"] = .double(Rounding.round(serialization / weatherd, decimals: 3))
    }
    return .object(figures)
}

/// Full start-up replay of a data dir already on disk (`--log`, e.g. one kept with `--keep` by another build),
/// so two builds can be compared on the very same bytes: the best of three runs.
func replay(existing dataDir: String) throws -> JSONValue {
    var best = Double.infinity
    var result: Replay.Result?
    for _ in 0..<3 {
        best = min(best, try seconds { result = try Replay.run(directory: dataDir, commandWindow: 100_000) })
    }
    guard let result else { throw BenchError("replay of \(dataDir) read nothing") }
    let bytes = try LogFiles.list(directory: dataDir).bytes
    return .object([
        "bench": "replay-existing", "dataDir": .string(dataDir), "events": .int(result.outcome.lines),
        "logBytes": .int(bytes), "eventsPerSecond": .double((Double(result.outcome.lines) / best).rounded()),
        "megabytesPerSecond": .double((Double(bytes) / best / 1_000_000).rounded()),
    ])
}

/// Calls `body` with every line of the file (without its newline); returns the number of lines.
func forEachLine(_ path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw BenchError("cannot open \(path)") }
    defer { close(fd) }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var pending: [UInt8] = []
    var lines = 0
    while true {
        let count = chunk.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
        if count <= 0 { break }
        try chunk.withUnsafeBytes { raw in
            var start = 0
            let bytes = UnsafeRawBufferPointer(rebasing: raw[..<count])
            while let newline = bytes[start...].firstIndex(of: 10) {
                if pending.isEmpty {
                    try body(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]))
                } else {
                    pending.append(contentsOf: bytes[start..<newline])
                    try pending.withUnsafeBytes { try body($0) }
                    pending.removeAll(keepingCapacity: true)
                }
                lines += 1
                start = newline + 1
            }
            pending.append(contentsOf: bytes[start...])
        }
    }
    return lines
}

/// A benchmark that could not measure what it meant to.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
