import Foundation
import WeatherDomain

/// An independent checker of the event-log format, for tests.
///
/// It is written from the format as `Events/README.md` states it, and shares no code with the `EventLog` reader it
/// checks: its own CRC-32C, its own scan of the envelope's key order, Foundation's JSON parser for well-formedness,
/// and the test suite's JSON Schema validator for every event's `data` against `<type>.v<v>.json`. For each line it
/// checks, in this order: UTF-8 JSON object; envelope keys present and in order; the trailing `chain` and `crc`
/// fields; `crc`; `chain` from the previous line's (across files, so sealed segments continue the chain); `seq`
/// gapless from 1; `v` an integer and `data` an object; `data` against its schema. An event type without a schema
/// file is a problem too, so a new type cannot slip past unvalidated.
///
/// For a data dir it also reads `log-manifest.json` (its own `crc`): each segment must be named for its first seq
/// and begin where the one before ended; a log truncated by retention begins at `truncated.throughSeq + 1`,
/// continuing `truncated.lastChain`; in a segment the manifest lists as compacted, a line whose `data` has a
/// `compacted` object has its own `crc` checked and its stated `chain` taken as is, the segment must begin on the
/// manifest's `previousChain` and end on its `lastChain`, and the file must have the manifest's length and
/// CRC-32C (or its `originalBytes`: a compaction interrupted before its rename left the original).
package struct LogCheck: Sendable {
    /// What a checked log holds.
    package struct Summary: Sendable, Equatable {
        /// The number of events.
        package var events: Int
        /// The last event's `seq` (0 for an empty log).
        package var lastSeq: Int64
        /// Events per type.
        package var types: [String: Int]

        /// A summary of `events` events ending at `lastSeq`.
        package init(events: Int = 0, lastSeq: Int64 = 0, types: [String: Int] = [:]) {
            (self.events, self.lastSeq, self.types) = (events, lastSeq, types)
        }
    }

    /// The first problem found, with where it is.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        package var message: String
        /// The file it is in.
        package var file: String
        /// The byte offset of the line in that file.
        package var offset: Int
        /// The `seq` the line should have had.
        package var seq: Int64

        package var description: String { "\(file) at offset \(offset) (seq \(seq)): \(message)" }
    }

    /// The envelope's keys in their required order; `corr` is the only optional one.
    static let keyOrder = ["seq", "ts", "type", "v", "cause", "corr", "data", "chain", "crc"]

    /// The schemas by `<type>.v<v>`; nil checks the format alone (envelope, checksums, chain, seq).
    let schemas: [String: JSONSchema]?

    /// A check of the format alone: every event's `data` is taken as it is.
    package init() { schemas = nil }

    /// Loads every `*.json` schema of `schemasDirectory`, named `<type>.v<v>.json`.
    ///
    /// - Throws: the file system's error, or `JSONParseError` for a schema that is not JSON.
    package init(schemasDirectory: String) throws {
        var schemas: [String: JSONSchema] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: schemasDirectory) where name.hasSuffix(".json")
        {
            schemas[String(name.dropLast(5))] = try JSONSchema(contentsOf: schemasDirectory + "/" + name)
        }
        self.schemas = schemas
    }

    /// The log files of a data dir in seq order: the sealed `events-<first seq>.jsonl` segments, then `events.jsonl`.
    package static func logFiles(ofDataDirectory directory: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        let sealed = names.filter { $0.hasPrefix("events-") && $0.hasSuffix(".jsonl") }.sorted()
        let active = names.contains("events.jsonl") ? ["events.jsonl"] : []
        return (sealed + active).map { directory + "/" + $0 }
    }

    /// What the manifest says about one compacted segment.
    struct Compacted {
        var previousChain: String
        var lastChain: String
        var bytes: Int
        var crc: String
        var originalBytes: Int
    }

    /// Checks a data dir's whole log, with its manifest.
    ///
    /// - Throws: `Problem` for the first problem found; the file system's error for an unreadable file.
    @discardableResult
    package func check(dataDirectory directory: String) throws -> Summary {
        let manifestPath = directory + "/log-manifest.json"
        var compacted: [String: Compacted] = [:]
        var firstSeq: Int64 = 1
        var firstChain = "00000000"
        if FileManager.default.fileExists(atPath: manifestPath) {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: manifestPath)))
            func problem(_ message: String) -> Problem {
                Problem(message: message, file: manifestPath, offset: 0, seq: 0)
            }
            guard bytes.last == UInt8(ascii: "\n"), let object = try? JSONValue.parse(bytes.dropLast()),
                let crcAt = bytes.count >= 19 ? bytes.count - 19 : nil,
                bytes[crcAt...].starts(with: #","crc":""#.utf8),
                object["crc"]?.stringValue == LogCheck.hex(LogCheck.crc32c(bytes[..<crcAt]))
            else { throw problem("the manifest is not a JSON object ending in its own crc") }
            if let truncated = object["truncated"] {
                guard let through = truncated["throughSeq"]?.intValue, let chain = truncated["lastChain"]?.stringValue
                else { throw problem("truncated needs throughSeq and lastChain") }
                firstSeq = through + 1
                firstChain = chain
            }
            for item in object["compacted"]?.arrayValue ?? [] {
                guard let segment = item["segment"]?.stringValue, let previous = item["previousChain"]?.stringValue,
                    let last = item["lastChain"]?.stringValue, let size = item["bytes"]?.intValue,
                    let crc = item["crc"]?.stringValue, let original = item["originalBytes"]?.intValue
                else { throw problem("a compacted entry lacks a member") }
                compacted[segment] = Compacted(
                    previousChain: previous, lastChain: last, bytes: Int(size), crc: crc, originalBytes: Int(original))
            }
        }
        return try check(
            files: LogCheck.logFiles(ofDataDirectory: directory), firstSeq: firstSeq, firstChain: firstChain,
            compacted: compacted, namedSegments: true)
    }

    /// Checks log files that continue each other, in the order given.
    ///
    /// - Throws: `Problem` for the first problem found; the file system's error for an unreadable file.
    @discardableResult
    package func check(files: [String]) throws -> Summary {
        try check(files: files, firstSeq: 1, firstChain: "00000000", compacted: [:], namedSegments: false)
    }

    private func check(
        files: [String], firstSeq: Int64, firstChain: String, compacted: [String: Compacted], namedSegments: Bool
    ) throws -> Summary {
        var summary = Summary(lastSeq: firstSeq - 1)
        var previousChain = Array(firstChain.utf8)
        for file in files {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            let name = String(file.split(separator: "/").last ?? "")
            func fileProblem(_ message: String) -> Problem {
                Problem(message: message, file: file, offset: 0, seq: summary.lastSeq + 1)
            }
            if namedSegments, name != "events.jsonl" {
                let digits = name.dropFirst("events-".count).dropLast(".jsonl".count)
                guard digits.count == 20, Int64(digits) == summary.lastSeq + 1 else {
                    throw fileProblem(
                        "a segment named for another first seq than \(summary.lastSeq + 1) (one missing?)")
                }
            }
            let manifest = compacted[name]
            if let manifest {
                guard manifest.previousChain == String(decoding: previousChain, as: UTF8.self) else {
                    throw fileProblem("the manifest's previousChain is not the chain the file before ends in")
                }
                let isCopy = bytes.count == manifest.bytes && LogCheck.hex(LogCheck.crc32c(bytes[...])) == manifest.crc
                guard isCopy || bytes.count == manifest.originalBytes else {
                    throw fileProblem("the compacted segment's length or CRC-32C is not the manifest's")
                }
            }
            var start = 0
            while start < bytes.count {
                let seq = summary.lastSeq + 1
                func problem(_ message: String) -> Problem {
                    Problem(message: message, file: file, offset: start, seq: seq)
                }
                guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                    throw problem("the last line has no newline")
                }
                let line = Array(bytes[start..<end])
                let envelope = try checkEnvelope(
                    line, seq: seq, previousChain: previousChain, allowStripped: manifest != nil, problem: problem)
                previousChain = Array(envelope.chain.utf8)
                summary.lastSeq = seq
                summary.events += 1
                summary.types[envelope.type, default: 0] += 1
                start = end + 1
            }
            if let manifest, manifest.lastChain != String(decoding: previousChain, as: UTF8.self) {
                throw fileProblem("the compacted segment does not end in the manifest's lastChain")
            }
        }
        return summary
    }

    /// Checks one line (without its newline) and returns its `type` and `chain`.
    private func checkEnvelope(
        _ line: [UInt8], seq: Int64, previousChain: [UInt8], allowStripped: Bool, problem: (String) -> Problem
    ) throws -> (type: String, chain: String) {
        guard (try? JSONSerialization.jsonObject(with: Data(line))) is [String: Any] else {
            throw problem("not a UTF-8 JSON object")
        }
        let keys = try LogCheck.topLevelKeys(line).get(problem)
        let required = Set(LogCheck.keyOrder).subtracting(["corr"])
        guard required.isSubset(of: keys), Set(keys).isSubset(of: LogCheck.keyOrder), Set(keys).count == keys.count
        else { throw problem("envelope keys \(keys)") }
        guard keys == LogCheck.keyOrder.filter(keys.contains) else { throw problem("envelope key order \(keys)") }

        // The line ends `,"chain":"<8 hex>","crc":"<8 hex>"}`.
        let crcAt = line.count - 18
        let chainAt = crcAt - 19
        guard chainAt > 0, line[chainAt...].starts(with: #","chain":""#.utf8),
            line[crcAt...].starts(with: #","crc":""#.utf8), line.suffix(2).elementsEqual(#""}"#.utf8)
        else { throw problem("no trailing chain and crc fields") }

        let envelope = try JSONValue.parse(line)
        let crc = LogCheck.hex(LogCheck.crc32c(line[..<crcAt]))
        guard envelope["crc"]?.stringValue == crc else { throw problem("crc mismatch (a changed byte?)") }
        let chain = LogCheck.hex(LogCheck.crc32c(line[..<chainAt], seed: LogCheck.crc32c(previousChain[...])))
        let stripped = allowStripped && envelope["data"]?["compacted"]?.objectValue != nil
        guard let statedChain = envelope["chain"]?.stringValue, statedChain == chain || stripped else {
            throw problem("chain mismatch (a line deleted, reordered or spliced?)")
        }
        guard envelope["seq"]?.intValue == seq else { throw problem("seq \(envelope["seq"]?.jsonString ?? "?")") }
        guard let type = envelope["type"]?.stringValue, let version = envelope["v"]?.intValue,
            let data = envelope["data"], data.objectValue != nil
        else { throw problem("type must be a string, v an integer and data an object") }
        guard let schemas else { return (type, statedChain) }
        guard let schema = schemas["\(type).v\(version)"] else { throw problem("no schema for \(type).v\(version)") }
        let problems = schema.validate(data)
        guard problems.isEmpty else {
            throw problem("\(type).v\(version): \(problems.joined(separator: "; "))")
        }
        return (type, statedChain)
    }

    /// The keys of the JSON object `line`, in the order written.
    static func topLevelKeys(_ line: [UInt8]) -> KeyScan {
        var keys: [String] = []
        var depth = 0
        var index = 0
        var expectKey = false
        while index < line.count {
            let byte = line[index]
            switch byte {
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < line.count, line[end] != UInt8(ascii: "\"") {
                    end += line[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard end < line.count else { return .failure("an unterminated string") }
                if depth == 1, expectKey {
                    keys.append(String(decoding: line[(index + 1)..<end], as: UTF8.self))
                    expectKey = false
                }
                index = end
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectKey = depth == 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                expectKey = depth == 1
            default:
                break
            }
            index += 1
        }
        return .success(keys)
    }

    /// The result of `topLevelKeys`.
    enum KeyScan {
        case success([String])
        case failure(String)

        func get(_ problem: (String) -> Problem) throws -> [String] {
            switch self {
            case .success(let keys): return keys
            case .failure(let message): throw problem(message)
            }
        }
    }

    /// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) a byte at a time; `seed` continues an earlier checksum.
    static func crc32c(_ bytes: ArraySlice<UInt8>, seed: UInt32 = 0) -> UInt32 {
        var crc = ~seed
        for byte in bytes {
            crc = crcTable[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8)
        }
        return ~crc
    }

    /// The byte-wise table of CRC-32C, built bit by bit from the polynomial.
    static let crcTable: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
        }
        return crc
    }

    /// `value` as 8 lowercase hex digits.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
