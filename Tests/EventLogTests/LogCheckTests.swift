import EventLog
import Foundation
import Testing
import WeatherTesting

/// Log lines sealed with `chain` and `crc` by the format's rule, so each test can damage exactly one thing.
private struct Sealer {
    var chain = Array("00000000".utf8)

    /// The line for `body` (everything before `,"chain"`), continuing the chain.
    mutating func seal(_ body: String) -> String {
        let bodyBytes = Array(body.utf8)
        let chainHex = CRC32C.hex(CRC32C.checksum(chain + bodyBytes))
        chain = chainHex
        let beforeCRC = bodyBytes + Array(#","chain":""#.utf8) + chainHex + [UInt8(ascii: "\"")]
        return String(decoding: beforeCRC, as: UTF8.self) + #","crc":""#
            + String(
                decoding: CRC32C.hex(CRC32C.checksum(beforeCRC)), as: UTF8.self) + #""}"#
    }

    /// A `favorite.added` body with `seq` and an optional extra member in `data`.
    static func favorite(_ seq: Int, extra: String = "") -> String {
        #"{"seq":\#(seq),"ts":"2026-11-22T12:00:00.000Z","type":"favorite.added","v":1,"cause":"rpc:\#(seq)","data":{"#
            + #""addedAt":"2026-11-22T12:00:00.000Z",\#(extra)"id":"fav-\#(seq)","lat":1,"lon":2,"name":"P","notify":true}"#
    }

    /// Sealed lines of `favorite.added` for seq 1 through `count`.
    static func favorites(_ count: Int) -> [String] {
        var sealer = Sealer()
        return (1...count).map { sealer.seal(favorite($0)) }
    }
}

@Suite("The independent log checker")
struct LogCheckTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let check: LogCheck

    init() throws {
        check = try LogCheck(schemasDirectory: LogCheckTests.root.appendingPathComponent("Events/schemas").path)
    }

    /// Writes `lines` (each followed by a newline, unless `finalNewline` is false) as a data dir's `events.jsonl`.
    func dataDirectory(_ lines: [String], finalNewline: Bool = true) throws -> TemporaryDataDirectory {
        let directory = TemporaryDataDirectory()
        let text = lines.joined(separator: "\n") + (finalNewline ? "\n" : "")
        try directory.writeLog(Array(text.utf8))
        return directory
    }

    /// The problem the checker finds in `lines`, or nil when it accepts them.
    func problem(_ lines: [String], finalNewline: Bool = true) throws -> LogCheck.Problem? {
        let directory = try dataDirectory(lines, finalNewline: finalNewline)
        do {
            try check.check(dataDirectory: directory.path)
            return nil
        } catch let problem as LogCheck.Problem {
            return problem
        }
    }

    @Test("every golden log is accepted, with its events counted by type")
    func goldenLogs() throws {
        let golden = LogCheckTests.root.appendingPathComponent("Events/golden").path
        let logs = try FileManager.default.contentsOfDirectory(atPath: golden).filter { $0.hasSuffix(".jsonl") }
        #expect(logs.count >= 3)
        for name in logs {
            let path = golden + "/" + name
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            let summary = try check.check(files: [path])
            #expect(summary.events == lines.count, "\(name)")
            #expect(summary.lastSeq == Int64(lines.count), "\(name)")
            #expect(summary.types.values.reduce(0, +) == lines.count, "\(name)")
        }
    }

    @Test("a well-sealed log passes, and so does the catalog's own example line")
    func wellSealed() throws {
        #expect(try problem(Sealer.favorites(5)) == nil)
        let example =
            #"{"seq":1,"ts":"2026-11-22T18:34:27.123Z","type":"service.started","v":1,"cause":"startup","data":"#
            + #"{"fsync":"always","pid":4242,"version":"0.1.0"},"chain":"45fc1bbc","crc":"d7260975"}"#
        #expect(try problem([example]) == nil)
        #expect(try problem([example.replacingOccurrences(of: "45fc1bbc", with: "45fc1bbd")]) != nil)
        let directory = try dataDirectory(Sealer.favorites(3))
        #expect(
            try check.check(dataDirectory: directory.path) == .init(events: 3, lastSeq: 3, types: ["favorite.added": 3])
        )
    }

    @Test("a changed byte fails crc, at the line's offset and seq")
    func changedByte() throws {
        var lines = Sealer.favorites(4)
        lines[2] = lines[2].replacingOccurrences(of: #""name":"P""#, with: #""name":"Q""#)
        let found = try #require(try problem(lines))
        #expect(found.message.contains("crc"))
        #expect(found.seq == 3)
        #expect(found.offset == lines[0].utf8.count + lines[1].utf8.count + 2)
    }

    @Test("a deleted and a reordered line fail chain", arguments: [true, false])
    func brokenChain(deleted: Bool) throws {
        var lines = Sealer.favorites(5)
        if deleted { lines.remove(at: 2) } else { lines.swapAt(1, 2) }
        let found = try #require(try problem(lines))
        #expect(found.message.contains("chain"))
        #expect(found.seq == (deleted ? 3 : 2))
    }

    @Test("a spliced line from another log with the right seq fails chain")
    func splicedFromAnotherLog() throws {
        var other = Sealer()
        _ = other.seal(Sealer.favorite(1, extra: #""country":"NO","#))
        var lines = Sealer.favorites(3)
        lines[1] = other.seal(Sealer.favorite(2))
        #expect(try problem(lines)?.message.contains("chain") == true)
    }

    @Test("a seq gap with intact checksums is named")
    func seqGap() throws {
        var sealer = Sealer()
        let lines = [sealer.seal(Sealer.favorite(1)), sealer.seal(Sealer.favorite(3))]
        let found = try #require(try problem(lines))
        #expect(found.message.contains("seq"))
        #expect(found.seq == 2)
    }

    @Test("envelope keys out of order, missing or unknown are refused even with intact checksums")
    func envelopeKeys() throws {
        let swapped = Sealer.favorite(1).replacingOccurrences(
            of: #""type":"favorite.added","v":1"#, with: #""v":1,"type":"favorite.added""#)
        let unknown = Sealer.favorite(1).replacingOccurrences(of: #""v":1,"#, with: #""v":1,"extra":0,"#)
        let missing = Sealer.favorite(1).replacingOccurrences(of: #","cause":"rpc:1""#, with: "")
        for (body, word) in [(swapped, "order"), (unknown, "keys"), (missing, "keys")] {
            var sealer = Sealer()
            #expect(try problem([sealer.seal(body)])?.message.contains(word) == true, "\(body)")
        }
    }

    @Test("a last line without its newline is refused")
    func noFinalNewline() throws {
        #expect(try problem(Sealer.favorites(2), finalNewline: false)?.message.contains("newline") == true)
    }

    @Test("a payload its schema rejects, and a type without a schema, are refused")
    func schemas() throws {
        var sealer = Sealer()
        let badMember = sealer.seal(Sealer.favorite(1, extra: #""colour":"red","#))
        #expect(try problem([badMember])?.message.contains("favorite.added.v1") == true)
        var other = Sealer()
        let unknownType = other.seal(
            #"{"seq":1,"ts":"2026-11-22T12:00:00.000Z","type":"favorite.painted","v":1,"cause":"rpc:1","data":{}"#)
        #expect(try problem([unknownType])?.message.contains("no schema for favorite.painted.v1") == true)
    }

    @Test("sealed segments continue the chain in seq order; out of order they are refused")
    func segments() throws {
        let lines = Sealer.favorites(6)
        let directory = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let first = directory.path + "/events-00000000000000000001.jsonl"
        let second = directory.path + "/events-00000000000000000003.jsonl"
        try Data((lines[0..<2].joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: first))
        try Data((lines[2..<4].joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: second))
        try Data((lines[4..<6].joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: directory.logPath))
        #expect(try LogCheck.logFiles(ofDataDirectory: directory.path) == [first, second, directory.logPath])
        #expect(try check.check(dataDirectory: directory.path).lastSeq == 6)
        #expect(throws: LogCheck.Problem.self) { try check.check(files: [second, first, directory.logPath]) }
        #expect(throws: LogCheck.Problem.self) { try check.check(files: [first, directory.logPath]) }
    }
}
