import EventLog
import Synchronization
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Log writer")
struct WriterTests {
    static func event(_ index: Int) -> NewEvent {
        NewEvent(
            type: "history.cleared", v: 1, cause: "test", corr: nil,
            data: JSONValue.object(["count": .int(Int64(index))]).jsonBytes)
    }

    /// The seqs the writer handed on, in order.
    final class Published: Sendable {
        let seqs = Mutex<[Int64]>([])
    }

    static func writer(_ file: FaultInjectingFile, mode: FsyncMode = .always, published: Published? = nil) -> LogWriter
    {
        LogWriter(file: file, position: .empty, mode: mode, runtime: .testing(), now: { Timestamp(milliseconds: 0) }) {
            batch in
            published?.seqs.withLock { $0.append(contentsOf: batch.map(\.seq)) }
        }
    }

    static func lines(_ bytes: [UInt8]) -> Int { bytes.filter { $0 == UInt8(ascii: "\n") }.count }

    @Test("under --fsync batch a writer that is never idle for 100 ms still syncs, and reports how far it is durable")
    func batchSyncsUnderSteadyTraffic() async throws {
        let file = FaultInjectingFile()
        let writer = Self.writer(file, mode: .batch)
        let running = Task { await writer.run() }
        for index in 1...25 {
            _ = try await writer.append([Self.event(index)]).committed()
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(file.syncCount >= 1, "synced while appends kept coming every 20 ms")
        #expect(writer.status.durableSeq >= 1)
        #expect(file.durableContents.count > 0)
        writer.finish()
        await running.value
        #expect(writer.status.durableSeq == 25, "the last sync at shutdown covers everything")
    }

    @Test("under --fsync always the durable seq follows every commit")
    func alwaysDurable() async throws {
        let file = FaultInjectingFile()
        let writer = Self.writer(file)
        let running = Task { await writer.run() }
        _ = try await writer.append([Self.event(1), Self.event(2)]).committed()
        #expect(writer.status.durableSeq == 2)
        writer.finish()
        await running.value
    }

    @Test("appends queued while the writer is busy go out in one write and one fsync")
    func groupCommit() async throws {
        let file = FaultInjectingFile()
        let published = Published()
        let writer = Self.writer(file, published: published)
        let tickets = try (1...64).map { try writer.append([Self.event($0)]) }
        let running = Task { await writer.run() }
        for ticket in tickets { _ = try await ticket.committed() }
        #expect(file.syncCount == 1)
        #expect(file.appendCount == 1)
        #expect(Self.lines(file.durableContents) == 64)
        #expect(published.seqs.withLock { $0 } == Array(1...64))
        writer.finish()
        await running.value
    }

    @Test("concurrent appends share fsyncs and get gapless seqs")
    func concurrentAppends() async throws {
        let file = FaultInjectingFile()
        let writer = Self.writer(file)
        let running = Task { await writer.run() }
        let seqs = try await withThrowingTaskGroup(of: Int64.self) { group in
            for index in 0..<500 {
                group.addTask { try await writer.append([Self.event(index)]).committed()[0].seq }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seqs.sorted() == Array(1...500))
        #expect(file.syncCount <= 500)
        #expect(writer.status.syncs == file.syncCount)
        #expect(Self.lines(file.durableContents) == 500)
        writer.finish()
        await running.value
    }

    @Test("a write that fails part-way is cut back and turns the writer read-only", arguments: [0, 1, 37, 500])
    func failedWrite(partialBytes: Int) async throws {
        let file = FaultInjectingFile()
        let writer = Self.writer(file)
        let running = Task { await writer.run() }
        _ = try await writer.append([Self.event(1)]).committed()
        let before = file.contents
        file.failAppend(.init(partialBytes: partialBytes, errno: ENOSPC))
        await #expect(throws: StorageFailure.self) {
            try await writer.append([Self.event(2), Self.event(3)]).committed()
        }
        #expect(file.contents == before)
        #expect(writer.status.failure?.cause?.isNoSpace == true)
        #expect(writer.status.lastSeq == 1)
        #expect(throws: StorageFailure.self) { try writer.append([Self.event(4)]) }
        #expect(file.contents == before)
        writer.finish()
        await running.value
    }

    @Test("a failed fsync is not retried: the batch fails and the writer is read-only")
    func failedSync() async throws {
        let file = FaultInjectingFile()
        let writer = Self.writer(file)
        let running = Task { await writer.run() }
        _ = try await writer.append([Self.event(1)]).committed()
        let syncs = file.syncCount
        file.failSync(errno: EIO)
        await #expect(throws: StorageFailure.self) { try await writer.append([Self.event(2)]).committed() }
        #expect(file.syncCount == syncs)
        #expect(Self.lines(file.contents) == 1)
        #expect(throws: StorageFailure.self) { try writer.append([Self.event(3)]) }
        writer.finish()
        await running.value
        #expect(file.syncCount == syncs, "no sync is attempted after a failed one")
    }

    @Test("with --fsync never nothing is synced, with batch the end is")
    func modes() async throws {
        for mode in [FsyncMode.never, .batch] {
            let file = FaultInjectingFile()
            let writer = Self.writer(file, mode: mode)
            let running = Task { await writer.run() }
            _ = try await writer.append([Self.event(1)]).committed()
            writer.finish()
            await running.value
            #expect(Self.lines(file.contents) == 1)
            #expect(file.syncCount == (mode == .batch ? 1 : 0))
        }
    }

    @Test("a batch never holds more than the batch limit, unless one append is larger on its own")
    func batchLimit() async throws {
        let file = FaultInjectingFile()
        let published = Published()
        let writer = LogWriter(
            file: file, position: .empty, mode: .always, batchLimit: 1000,
            runtime: .testing(),
            now: {
                Timestamp(milliseconds: 0)
            }
        ) { batch in
            published.seqs.withLock { $0.append(contentsOf: batch.map(\.seq)) }
        }
        // Queued before the writer's thread runs, so it finds all of them at once.
        let tickets = try (1...40).map { try writer.append([Self.event($0)]) }
        let big = NewEvent(
            type: "history.cleared", v: 1, cause: "test", corr: String(repeating: "x", count: 3000),
            data: JSONValue.object(["count": 1]).jsonBytes)
        let bigTicket = try writer.append([big])
        let running = Task { await writer.run() }
        for ticket in tickets { _ = try await ticket.committed() }
        _ = try await bigTicket.committed()
        writer.finish()
        await running.value
        let sizes = file.appendSizes
        #expect(sizes.count > 5, "40 lines of about 100 bytes need several batches of at most 1000 bytes")
        #expect(sizes.dropLast().allSatisfy { $0 <= 1000 }, "\(sizes)")
        #expect((sizes.last ?? 0) > 3000, "the large append went alone")
        #expect(published.seqs.withLock { $0 } == Array(1...41))
        #expect(Self.lines(file.contents) == 41)
    }
}
