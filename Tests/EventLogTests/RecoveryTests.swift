import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("Log reader and recovery")
struct RecoveryTests {
    /// A valid log of `count` lines, and the offset where each line starts.
    static func log(_ count: Int) -> (bytes: [UInt8], starts: [Int]) {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        var chain: UInt32 = 0
        for seq in 1...count {
            starts.append(bytes.count)
            let event = NewEvent(
                type: "settings.changed", v: 1, cause: "rpc:\(seq)", corr: seq % 2 == 0 ? "c-\(seq)" : nil,
                data: JSONValue.object(["units": seq % 2 == 0 ? "imperial" : "metric"]).jsonBytes)
            chain =
                EnvelopeCodec.encode(
                    seq: Int64(seq), ts: Timestamp(milliseconds: Int64(seq) * 1000), event: event, previousChain: chain,
                    into: &bytes
                ).chain
        }
        return (bytes, starts)
    }

    static func read(_ directory: TemporaryDataDirectory) throws -> (LogReader.Outcome, [Int64]) {
        var seqs: [Int64] = []
        let outcome = try LogReader.read(path: directory.logPath) { envelope, _ in
            seqs.append(envelope.seq)
            return true
        }
        return (outcome, seqs)
    }

    @Test("a valid log reads completely, with no tail")
    func valid() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, _) = Self.log(5)
        try directory.writeLog(bytes)
        let (outcome, seqs) = try Self.read(directory)
        #expect(seqs == [1, 2, 3, 4, 5])
        #expect(outcome.tail == nil)
        #expect(outcome.position.nextSeq == 6)
        #expect(outcome.position.length == Int64(bytes.count))
    }

    @Test("a torn last line at every byte offset is a tail to cut, and the file is unchanged by reading")
    func tornAtEveryOffset() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, starts) = Self.log(4)
        let lastStart = try #require(starts.last)
        for cut in (lastStart + 1)..<bytes.count {
            let torn = Array(bytes[..<cut])
            try directory.writeLog(torn)
            let (outcome, seqs) = try Self.read(directory)
            #expect(seqs == [1, 2, 3], "cut at \(cut)")
            let tail = try #require(outcome.tail, "cut at \(cut)")
            #expect(tail.offset == Int64(lastStart))
            #expect(tail.length == Int64(cut - lastStart))
            #expect(directory.logBytes() == torn)
        }
    }

    @Test("a complete last line with a bad crc, or trailing garbage, is a torn tail")
    func badLastLine() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, starts) = Self.log(3)
        var damaged = bytes
        damaged[starts[2] + 20] ^= 0x20
        try directory.writeLog(damaged)
        var (outcome, seqs) = try Self.read(directory)
        #expect(seqs == [1, 2])
        #expect(
            outcome.tail == TornTail(offset: Int64(starts[2]), length: Int64(bytes.count - starts[2]), reason: .badCRC))

        try directory.writeLog(bytes + [UInt8](repeating: 0, count: 4096))
        (outcome, seqs) = try Self.read(directory)
        #expect(seqs == [1, 2, 3])
        #expect(outcome.tail?.offset == Int64(bytes.count))
        #expect(outcome.tail?.length == 4096)

        try directory.writeLog(bytes + Array("{\"seq\":4}\ngarbage\n".utf8))
        (outcome, seqs) = try Self.read(directory)
        #expect(seqs == [1, 2, 3])
        #expect(outcome.tail?.reason == .badJSON)
    }

    @Test("a flipped byte in a middle line is damage that names file, line, seq and offset", arguments: [0, 1, 5, 8])
    func middleDamage(line: Int) throws {
        let directory = TemporaryDataDirectory()
        let (bytes, starts) = Self.log(10)
        var damaged = bytes
        damaged[starts[line] + 3] ^= 0x04
        try directory.writeLog(damaged)
        do {
            _ = try Self.read(directory)
            Issue.record("damage in line \(line + 1) was not reported")
        } catch let damage as LogDamage {
            #expect(damage.line == Int64(line + 1))
            #expect(damage.seq == Int64(line + 1))
            #expect(damage.offset == Int64(starts[line]))
            #expect(damage.description.contains(directory.logPath))
        }
        #expect(directory.logBytes() == damaged)
    }

    @Test("a deleted middle line breaks the chain")
    func deletedLine() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, starts) = Self.log(6)
        try directory.writeLog(Array(bytes[..<starts[2]] + bytes[starts[3]...]))
        #expect(throws: LogDamage.self) { try Self.read(directory) }
    }

    @Test("repair copies the tail beside the log, truncates and reports the dropped bytes")
    func repair() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, starts) = Self.log(3)
        let torn = Array(bytes.dropLast(7))
        try directory.writeLog(torn)
        let (outcome, _) = try Self.read(directory)
        let tail = try #require(outcome.tail)
        let report = try TailRepair.repair(logPath: directory.logPath, tail: tail, now: Timestamp(milliseconds: 0))
        #expect(directory.logBytes() == Array(bytes[..<starts[2]]))
        #expect(report.droppedBytes == Int64(torn.count - starts[2]))
        #expect(report.offset == Int64(starts[2]))
        #expect(report.reason == "no_newline")
        let copy = try #require(FileManager.default.contents(atPath: directory.path + "/" + report.brokenCopy))
        #expect(Array(copy) == Array(torn[starts[2]...]))
        let (after, seqs) = try Self.read(directory)
        #expect(after.tail == nil)
        #expect(seqs == [1, 2])
    }

    @Test("reading can start at an indexed position and stop early")
    func indexedStart() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, _) = Self.log(3000)
        try directory.writeLog(bytes)
        let (outcome, _) = try Self.read(directory)
        let start = outcome.index.start(after: 2500)
        #expect(start.nextSeq == 2049)
        var seqs: [Int64] = []
        _ = try LogReader.read(path: directory.logPath, start: start) { envelope, _ in
            seqs.append(envelope.seq)
            return envelope.seq < 2600
        }
        #expect(seqs.first == 2049)
        #expect(seqs.last == 2600)
    }
}
