import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Sealed segments")
struct SegmentTests {
    /// One event whose line has the same length at every seq below 10.
    static let event = NewEvent(
        type: "history.cleared", v: 1, cause: "test", corr: nil, data: JSONValue.object(["count": 5]).jsonBytes)

    static var lineLength: Int {
        var bytes: [UInt8] = []
        _ = EnvelopeCodec.encode(
            seq: 1, ts: Timestamp(milliseconds: 0), event: event, previousChain: 0, into: &bytes)
        return bytes.count
    }

    static func writer(_ directory: TemporaryDataDirectory, segmentBytes: Int64) throws -> LogWriter {
        try DataDirectory(path: directory.path).create()
        return LogWriter(
            file: try PosixLogFile(path: directory.logPath), position: .empty, mode: .always,
            segmentBytes: segmentBytes, runtime: .testing(), now: { Timestamp(milliseconds: 0) }
        ) { _ in }
    }

    /// The independent checker's verdict on a data dir's whole log.
    @discardableResult
    static func checkIndependently(_ directory: String) throws -> LogCheck.Summary {
        try LogCheck(schemasDirectory: LogCheckTests.root.appendingPathComponent("Events/schemas").path).check(
            dataDirectory: directory)
    }

    static func size(_ path: String) -> Int {
        var status = stat()
        return lstat(path, &status) == 0 ? Int(status.st_size) : -1
    }

    static func seqs(_ directory: String, start: LogWriter.Position = .empty) throws -> [Int64] {
        var seqs: [Int64] = []
        _ = try LogReader.read(directory: directory, start: start) { envelope, _ in
            seqs.append(envelope.seq)
            return true
        }
        return seqs
    }

    @Test("the active file fills to exactly --segment-bytes, and the next append rolls it over into its segment")
    func exactLimit() async throws {
        let directory = TemporaryDataDirectory()
        let length = Self.lineLength
        let writer = try Self.writer(directory, segmentBytes: Int64(3 * length))
        let running = Task { await writer.run() }
        for _ in 1...3 { _ = try await writer.append([Self.event]).committed() }
        #expect(Self.size(directory.logPath) == 3 * length, "three lines fill the segment exactly")
        #expect(try LogFiles.list(directory: directory.path).segments.isEmpty, "reaching the limit is not passing it")
        _ = try await writer.append([Self.event]).committed()
        #expect(try LogFiles.list(directory: directory.path).segments == [1])
        #expect(Self.size(directory.path + "/events-00000000000000000001.jsonl") == 3 * length)
        #expect(Self.size(directory.logPath) == length)
        #expect(writer.status.file == 4)
        #expect(writer.status.rollOvers == 1)
        // A sealed segment is read-only.
        #expect(access(directory.path + "/events-00000000000000000001.jsonl", W_OK) != 0 || getuid() == 0)
        writer.finish()
        await running.value
        #expect(try Self.seqs(directory.path) == Array(1...4))
        try Self.checkIndependently(directory.path)
    }

    @Test("appends queued together are cut at the segment boundary: no segment passes the limit")
    func batchCut() async throws {
        let directory = TemporaryDataDirectory()
        let length = Self.lineLength
        let writer = try Self.writer(directory, segmentBytes: Int64(3 * length))
        let tickets = try (1...7).map { _ in try writer.append([Self.event]) }
        let running = Task { await writer.run() }
        for ticket in tickets { _ = try await ticket.committed() }
        writer.finish()
        await running.value
        #expect(try LogFiles.list(directory: directory.path).segments == [1, 4])
        #expect(Self.size(directory.path + "/events-00000000000000000004.jsonl") == 3 * length)
        #expect(Self.size(directory.logPath) == length)
        #expect(try Self.seqs(directory.path) == Array(1...7))
        // The index is sparse (every 1024th seq): its one entry, seq 1, names the first segment as its file.
        let start = writer.index.start(after: 0)
        #expect(start.file == 1)
        try Self.checkIndependently(directory.path)
    }

    @Test("one append larger than a segment goes alone into one; the next append starts a new one")
    func oversizedAppend() async throws {
        let directory = TemporaryDataDirectory()
        let length = Self.lineLength
        let writer = try Self.writer(directory, segmentBytes: Int64(length))
        let running = Task { await writer.run() }
        _ = try await writer.append([Self.event, Self.event]).committed()
        #expect(Self.size(directory.logPath) == 2 * length)
        _ = try await writer.append([Self.event]).committed()
        writer.finish()
        await running.value
        #expect(try LogFiles.list(directory: directory.path).segments == [1])
        #expect(Self.size(directory.path + "/events-00000000000000000001.jsonl") == 2 * length)
        #expect(try Self.seqs(directory.path) == [1, 2, 3])
    }

    /// A log of `count` mixed events in segments of 128 KiB (about three forecasts each).
    static func segmented(_ count: Int = 1500) throws -> (TemporaryDataDirectory, LogFiles) {
        let directory = TemporaryDataDirectory()
        try LogGenerator.write(mix: .mixed, count: count, to: directory.path, segmentBytes: 128 << 10)
        return (directory, try LogFiles.list(directory: directory.path))
    }

    @Test("replay reads every segment in order, from the start or from an index entry in a middle segment")
    func readsAcross() async throws {
        try await onThread {
            let (directory, files) = try Self.segmented()
            #expect(files.segments.count >= 4)
            var index = SeqIndex()
            let outcome = try LogReader.read(directory: directory.path) { _, _ in true }
            index = outcome.index
            #expect(outcome.lines == 1500)
            #expect(outcome.position.file > files.segments.last ?? 0, "the position is in the active file")
            #expect(try Self.seqs(directory.path) == Array(1...1500))
            let start = index.start(after: 1100)
            #expect(files.segments.contains(start.file), "seq 1025 is in a sealed segment")
            #expect(try Self.seqs(directory.path, start: start) == Array(start.nextSeq...1500))
            let summary = try Self.checkIndependently(directory.path)
            #expect(summary.lastSeq == 1500)
        }
    }

    @Test("a missing, reordered, edited or torn segment is refused, naming the file")
    func refusals() async throws {
        try await onThread {
            func damage(_ change: (TemporaryDataDirectory, LogFiles) throws -> Void) throws -> LogDamage? {
                let (directory, files) = try Self.segmented()
                try change(directory, files)
                do {
                    _ = try LogReader.read(directory: directory.path) { _, _ in true }
                    return nil
                } catch let damage as LogDamage {
                    return damage
                }
            }
            let missing = try damage { _, files in unlink(files.path(ofSegment: files.segments[1])) }
            #expect(missing?.kind == .segmentMissing)
            let (_, reference) = try Self.segmented()
            #expect(missing?.path.hasSuffix(LogFiles.segmentName(reference.segments[2])) == true)
            #expect(missing?.description.contains("are missing") == true)

            let reordered = try damage { _, files in
                let (second, third) = (
                    files.path(ofSegment: files.segments[1]), files.path(ofSegment: files.segments[2])
                )
                rename(second, second + ".swap")
                rename(third, second)
                rename(second + ".swap", third)
            }
            #expect(reordered != nil)
            #expect(reordered?.path.hasSuffix(LogFiles.segmentName(reference.segments[1])) == true)

            let edited = try damage { _, files in
                let path = files.path(ofSegment: files.segments[1])
                chmod(path, 0o600)
                var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                bytes[bytes.count / 2] ^= 0x04
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            }
            #expect(edited?.path.hasSuffix(LogFiles.segmentName(reference.segments[1])) == true)

            let torn = try damage { _, files in
                let path = files.path(ofSegment: files.segments[0])
                chmod(path, 0o600)
                truncate(path, off_t(Self.size(path) - 3))
            }
            #expect(torn?.kind == .sealedSegmentTorn)
            #expect(torn?.path.hasSuffix(LogFiles.segmentName(1)) == true)

            let misnamed = try damage { directory, _ in
                try Data("x".utf8).write(to: URL(fileURLWithPath: directory.path + "/events-12.jsonl"))
            }
            #expect(misnamed?.kind == .segmentMissing)
            #expect(misnamed?.path.hasSuffix("events-12.jsonl") == true)
        }
    }

    @Test("a roll-over cut short after the segment's name was linked is completed at the next open")
    func interruptedRollOver() async throws {
        try await onThread {
            let (directory, files) = try Self.segmented()
            let outcome = try LogReader.read(directory: directory.path) { _, _ in true }
            let activeFirst = outcome.position.file
            #expect(link(directory.logPath, files.path(ofSegment: activeFirst)) == 0)
            #expect(try Self.seqs(directory.path) == Array(1...1500), "the file is read once, as the segment")
            #expect(try LogFiles.finishRollOver(directory: directory.path))
            #expect(Self.size(directory.logPath) == 0)
            #expect(try LogFiles.list(directory: directory.path).segments.last == activeFirst)
            #expect(try Self.seqs(directory.path) == Array(1...1500))
            #expect(try !LogFiles.finishRollOver(directory: directory.path), "nothing more to do")
        }
    }

    @Test("SHA-256 gives the FIPS 180-4 digests")
    func sha256() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
