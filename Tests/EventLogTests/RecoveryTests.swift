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

    @Test("a last line torn at every byte offset before its newline is a tail to cut, and reading changes no byte")
    func tornAtEveryOffset() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, starts) = Self.log(4)
        let lastStart = try #require(starts.last)
        // A cut of only the final newline leaves an intact line, which is kept (see `missingNewline`).
        for cut in (lastStart + 1)..<(bytes.count - 1) {
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

    @Test("a complete last line with a bad crc is damage, not a torn write, and no byte changes")
    func badLastLine() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, starts) = Self.log(3)
        var damaged = bytes
        damaged[starts[2] + 20] ^= 0x20
        try directory.writeLog(damaged)
        let damage = try #require(throws: LogDamage.self) { try Self.read(directory) }
        #expect(damage.kind == .damagedLine)
        #expect(damage.line == 3)
        #expect(damage.seq == 3)
        #expect(damage.offset == Int64(starts[2]))
        #expect(damage.problem.reason == .badCRC)
        #expect(directory.logBytes() == damaged)
    }

    @Test("a bad crc on each of the last 5 complete lines is refused at the first of them")
    func lastFiveLines() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, starts) = Self.log(10)
        var damaged = bytes
        for line in 5..<10 { damaged[starts[line] + 20] ^= 0x20 }
        try directory.writeLog(damaged)
        let damage = try #require(throws: LogDamage.self) { try Self.read(directory) }
        #expect(damage.line == 6)
        #expect(damage.offset == Int64(starts[5]))
    }

    @Test("zeros or garbage after the last intact line are a torn tail")
    func garbageTail() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, _) = Self.log(3)
        try directory.writeLog(bytes + [UInt8](repeating: 0, count: 4096))
        var (outcome, seqs) = try Self.read(directory)
        #expect(seqs == [1, 2, 3])
        #expect(outcome.tail?.offset == Int64(bytes.count))
        #expect(outcome.tail?.length == 4096)

        try directory.writeLog(bytes + Array("{\"seq\":4}\ngarbage\n".utf8))
        (outcome, seqs) = try Self.read(directory)
        #expect(seqs == [1, 2, 3])
        #expect(outcome.tail?.reason == .badJSON)
    }

    @Test("a bad tail longer than the writer's largest batch is damage, one within it a torn tail")
    func tailBound() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, _) = Self.log(3)
        try directory.writeLog(bytes + [UInt8](repeating: 0, count: 1001))
        let damage = try #require(throws: LogDamage.self) {
            try LogReader.read(path: directory.logPath, maxTornBytes: 1000) { _, _ in true }
        }
        #expect(damage.kind == .tailTooLong)
        #expect(damage.line == 4)
        #expect(damage.seq == 4)
        #expect(damage.offset == Int64(bytes.count))
        try directory.writeLog(bytes + [UInt8](repeating: 0, count: 1000))
        let outcome = try LogReader.read(path: directory.logPath, maxTornBytes: 1000) { _, _ in true }
        #expect(outcome.tail?.length == 1000)
        #expect(LogWriter.maxBatchBytes == 8 << 20)
    }

    @Test("a last line whose checks hold but whose newline is missing is kept, and the newline restored")
    func missingNewline() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, _) = Self.log(3)
        try directory.writeLog(Array(bytes.dropLast()))
        let (outcome, seqs) = try Self.read(directory)
        #expect(seqs == [1, 2, 3])
        #expect(outcome.tail == nil)
        #expect(outcome.missingNewline)
        #expect(outcome.position.nextSeq == 4)
        #expect(outcome.position.length == Int64(bytes.count - 1))
        try TailRepair.restoreNewline(logPath: directory.logPath, length: outcome.position.length)
        #expect(directory.logBytes() == bytes)
        let (after, _) = try Self.read(directory)
        #expect(!after.missingNewline)
    }

    @Test("another program's JSON-lines file is not a weatherd log, and no byte changes")
    func foreignFile() throws {
        let directory = TemporaryDataDirectory()
        var foreign: [UInt8] = []
        var index = 0
        while foreign.count < 61_890 {
            foreign += Array(#"{"name":"item \#(index)","value":\#(index * 7)}"#.utf8) + [10]
            index += 1
        }
        try directory.writeLog(foreign)
        let damage = try #require(throws: LogDamage.self) { try Self.read(directory) }
        #expect(damage.kind == .notAWeatherdLog)
        #expect(damage.line == 1)
        #expect(damage.offset == 0)
        #expect(damage.description.contains("not a weatherd log"))
        #expect(directory.logBytes() == foreign)
        try directory.writeLog(Array("just some text without a newline".utf8))
        #expect(throws: LogDamage.self) { try Self.read(directory) }
    }

    @Test("a first write cut short, or lost to zeros, is a torn tail, not another program's file")
    func tornFirstWrite() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, _) = Self.log(1)
        for torn in [Array(bytes[..<4]), Array(bytes[..<30]), [UInt8](repeating: 0, count: bytes.count)] {
            try directory.writeLog(torn)
            let (outcome, seqs) = try Self.read(directory)
            #expect(seqs.isEmpty)
            #expect(outcome.tail?.offset == 0)
            #expect(outcome.tail?.length == Int64(torn.count))
        }
    }

    @Test("a log that is a symbolic link is refused, and the file it points to is not touched")
    func symlinkedLog() throws {
        let directory = TemporaryDataDirectory()
        let (bytes, _) = Self.log(3)
        let elsewhere = directory.root + "/elsewhere.jsonl"
        try Data(bytes.dropLast(5)).write(to: URL(fileURLWithPath: elsewhere))
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.logPath, withDestinationPath: elsewhere)
        let error = try #require(throws: StorageError.self) { try Self.read(directory) }
        #expect(error.errno == ELOOP)
        #expect(error.description.contains("symbolic link"))
        #expect(throws: StorageError.self) { try PosixLogFile(path: directory.logPath) }
        #expect(throws: StorageError.self) { try DataDirectory(path: directory.path).ensureLog() }
        #expect(Array(try #require(FileManager.default.contents(atPath: elsewhere))) == Array(bytes.dropLast(5)))
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
