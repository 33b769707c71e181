import EventLog
import Foundation
import Synchronization
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `AppendTicket.onCommitted`: the callback that lets an answer leave from the writer's thread.
@Suite("Commit callbacks")
struct CommitCallbackTests {
    /// What one callback saw when it ran.
    struct Call: Sendable {
        var outcome: AppendTicket.Outcome
        var status: LogWriter.Status
        var durableLines: Int
        var writtenLines: Int
        var published: [Int64]
        /// Whether it ran on the thread that called `onCommit`, the writer's.
        var onWriterThread: Bool
        /// The system's name of the thread it ran on (Linux only, else empty).
        var threadName: String
    }

    /// The calls of every callback, by the name it was registered under.
    final class Calls: Sendable {
        let byName = Mutex<[String: [Call]]>([:])
        let order = Mutex<[String]>([])
        /// The names whose `onCommitted` said the callback had already run.
        let ranAtOnce = Mutex<Set<String>>([])

        subscript(name: String) -> [Call] { byName.withLock { $0[name] ?? [] } }
        var names: [String] { order.withLock { $0 } }
    }

    final class Published: Sendable {
        let seqs = Mutex<[Int64]>([])
        /// The thread that called `onCommit` last.
        let thread = Mutex<pthread_t?>(nil)

        func record(_ batch: [EventEnvelope]) {
            seqs.withLock { $0.append(contentsOf: batch.map(\.seq)) }
            thread.withLock { $0 = pthread_self() }
        }

        var isCurrentThread: Bool { thread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false } }
    }

    /// A value shared with callbacks.
    final class Locked<Value: Sendable>: Sendable {
        private let mutex: Mutex<Value>

        init(_ value: Value) { mutex = Mutex(value) }

        var value: Value { mutex.withLock { $0 } }

        func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
    }

    static func writer(
        _ file: FaultInjectingFile, mode: FsyncMode = .always, published: Published, spinLimit: Duration = .zero
    ) -> LogWriter {
        LogWriter(
            file: file, position: .empty, mode: mode, spinLimit: spinLimit, runtime: .testing(),
            now: { Timestamp(milliseconds: 0) }
        ) { batch in
            published.record(batch)
        }
    }

    static func currentThreadName() -> String {
        #if os(Linux)
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            return name.trimmingCharacters(in: .newlines)
        #else
            return ""
        #endif
    }

    static func lines(_ bytes: [UInt8]) -> Int { bytes.filter { $0 == UInt8(ascii: "\n") }.count }

    /// Registers a callback that records, under `name`, what it saw when it ran.
    static func record(
        _ ticket: AppendTicket, as name: String, into calls: Calls, writer: LogWriter, file: FaultInjectingFile,
        published: Published
    ) {
        let ranAtOnce = ticket.onCommitted { outcome in
            let call = Call(
                outcome: outcome, status: writer.status, durableLines: lines(file.durableContents),
                writtenLines: lines(file.contents), published: published.seqs.withLock { $0 },
                onWriterThread: published.isCurrentThread, threadName: currentThreadName())
            calls.byName.withLock { $0[name, default: []].append(call) }
            calls.order.withLock { $0.append(name) }
        }
        if ranAtOnce { _ = calls.ranAtOnce.withLock { $0.insert(name) } }
    }

    @Test("runs once on the writer's thread, after the batch is synced and published, before committed() returns")
    func afterDurability() async throws {
        let file = FaultInjectingFile()
        let published = Published()
        let writer = Self.writer(file, published: published)
        let calls = Calls()
        let first = try writer.append([WriterTests.event(1)])
        let second = try writer.append([WriterTests.event(2), WriterTests.event(3)])
        Self.record(first, as: "first", into: calls, writer: writer, file: file, published: published)
        Self.record(second, as: "second", into: calls, writer: writer, file: file, published: published)
        Self.record(second, as: "second again", into: calls, writer: writer, file: file, published: published)
        #expect(calls.names.isEmpty, "nothing runs before the writer has written anything")
        #expect(calls.ranAtOnce.withLock { $0.isEmpty }, "onCommitted said the callbacks were still to run")
        let running = Task { await writer.run() }
        let envelopes = try await second.committed()
        #expect(calls.names == ["first", "second", "second again"], "every callback, in seq order, before the task")
        for name in ["first", "second", "second again"] {
            let seen = calls[name]
            try #require(seen.count == 1, "\(name) ran \(seen.count) times")
            let call = seen[0]
            let seqs = name == "first" ? first.seqs : second.seqs
            #expect(call.onWriterThread, "\(name) ran on the writer's thread")
            #if os(Linux)
                #expect(call.threadName == "weatherd-log", "the writer's thread is named for top and perf")
            #endif
            #expect(call.status.durableSeq >= seqs.upperBound)
            #expect(call.status.lastSeq >= seqs.upperBound)
            #expect(call.durableLines >= Int(seqs.upperBound), "the lines were synced when \(name) ran")
            #expect(Array(seqs).allSatisfy(call.published.contains), "onCommit had the batch before \(name)")
            #expect((try? call.outcome.get().map(\.seq)) == Array(seqs))
        }
        #expect((try? calls["second"][0].outcome.get()) == envelopes)
        writer.finish()
        await running.value
        #expect(calls["first"].count == 1 && calls["second"].count == 1, "still once each after the writer stopped")
    }

    @Test("under --fsync batch and never it runs once the batch is written", arguments: [FsyncMode.batch, .never])
    func afterWrite(mode: FsyncMode) async throws {
        let file = FaultInjectingFile()
        let published = Published()
        let writer = Self.writer(file, mode: mode, published: published)
        let calls = Calls()
        let ticket = try writer.append([WriterTests.event(1), WriterTests.event(2)])
        Self.record(ticket, as: "ticket", into: calls, writer: writer, file: file, published: published)
        let running = Task { await writer.run() }
        _ = try await ticket.committed()
        let call = try #require(calls["ticket"].first)
        #expect(calls["ticket"].count == 1)
        #expect(call.status.lastSeq >= 2)
        #expect(call.writtenLines == 2)
        #expect(call.published == [1, 2])
        writer.finish()
        await running.value
    }

    @Test("registered after the ticket resolved, it runs at once on the caller's thread with the same outcome")
    func afterResolution() async throws {
        let file = FaultInjectingFile()
        let published = Published()
        let writer = Self.writer(file, published: published)
        let running = Task { await writer.run() }
        let ticket = try writer.append([WriterTests.event(1)])
        let envelopes = try await ticket.committed()
        #expect(ticket.isResolved)
        let seen = Locked<[AppendTicket.Outcome]>([])
        let (returned, sameThread, ranAtOnce) = Self.register(on: ticket, into: seen)
        #expect(ranAtOnce, "onCommitted said the callback had run")
        #expect(returned.count == 1, "ran before onCommitted returned")
        #expect((try? returned.first?.get()) == envelopes)
        #expect(sameThread, "ran on the thread that registered it")
        writer.finish()
        await running.value
        #expect(seen.value.count == 1)
    }

    /// Registers a callback from this (synchronous) thread; returns what it had recorded when `onCommitted`
    /// returned, whether it ran on this thread, and what `onCommitted` returned.
    static func register(
        on ticket: AppendTicket, into seen: Locked<[AppendTicket.Outcome]>
    ) -> ([AppendTicket.Outcome], Bool, Bool) {
        let caller = pthread_self()
        let sameThread = Locked(false)
        let ranAtOnce = ticket.onCommitted { outcome in
            seen.update { $0.append(outcome) }
            sameThread.update { $0 = pthread_equal(pthread_self(), caller) != 0 }
        }
        return (seen.value, sameThread.value, ranAtOnce)
    }

    @Test("a failed write hands the failure to the failed batch's callbacks and to those queued behind it, once each")
    func failedWrite() async throws {
        let file = FaultInjectingFile()
        let published = Published()
        // A batch limit below one line's size: each append is a batch of its own, so the first one fails and
        // the other two are failed while still queued.
        let writer = LogWriter(
            file: file, position: .empty, mode: .always, batchLimit: 10, spinLimit: .zero,
            runtime: .testing(), now: { Timestamp(milliseconds: 0) }
        ) { batch in
            published.record(batch)
        }
        file.failAppend(.init(partialBytes: 20, errno: ENOSPC))
        let calls = Calls()
        let tickets = try (1...3).map { try writer.append([WriterTests.event($0)]) }
        for (index, ticket) in tickets.enumerated() {
            Self.record(ticket, as: "t\(index)", into: calls, writer: writer, file: file, published: published)
        }
        let running = Task { await writer.run() }
        for ticket in tickets { await ticket.settled() }
        #expect(file.appendCount == 1, "the appends behind the failed one were never written")
        for index in 0..<3 {
            let seen = calls["t\(index)"]
            try #require(seen.count == 1, "t\(index) ran \(seen.count) times")
            guard case .failure(let failure) = seen[0].outcome else {
                Issue.record("t\(index) was told success after a failed write")
                continue
            }
            #expect(failure.cause?.isNoSpace == true)
            #expect(seen[0].status.failure != nil, "the writer was read-only when t\(index) was told")
            #expect(seen[0].status.durableSeq == 0)
            #expect(seen[0].published.isEmpty, "a failed batch is not published")
        }
        #expect(file.contents.isEmpty, "cut back to where the log began")
        writer.finish()
        await running.value
    }

    @Test("a failed fsync hands the failure to the callback")
    func failedSync() async throws {
        let file = FaultInjectingFile()
        let published = Published()
        let writer = Self.writer(file, published: published)
        let running = Task { await writer.run() }
        _ = try await writer.append([WriterTests.event(1)]).committed()
        file.failSync(errno: EIO)
        let calls = Calls()
        let ticket = try writer.append([WriterTests.event(2)])
        Self.record(ticket, as: "ticket", into: calls, writer: writer, file: file, published: published)
        await ticket.settled()
        let seen = calls["ticket"]
        try #require(seen.count == 1)
        guard case .failure(let failure) = seen[0].outcome else {
            Issue.record("told success after a failed fsync")
            return
        }
        #expect(failure.cause?.operation == "fdatasync")
        #expect(seen[0].status.durableSeq == 1)
        writer.finish()
        await running.value
    }

    @Test("callbacks registered while the writer resolves run exactly once each", arguments: [0, 100])
    func racingRegistrations(spinMicroseconds: Int) async throws {
        let file = FaultInjectingFile()
        let published = Published()
        let writer = Self.writer(file, published: published, spinLimit: .microseconds(spinMicroseconds))
        let running = Task { await writer.run() }
        let count = 300
        let runs = Locked([Int](repeating: 0, count: count))
        let wrong = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                let ticket = try writer.append([WriterTests.event(index)])
                group.addTask {
                    if index % 3 == 0 { await Task.yield() }
                    ticket.onCommitted { outcome in
                        runs.update { $0[index] += 1 }
                        if writer.status.durableSeq < ticket.seqs.upperBound || (try? outcome.get()) == nil {
                            wrong.update { $0 += 1 }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        writer.finish()
        await running.value
        let counts = runs.value
        #expect(counts.allSatisfy { $0 == 1 }, "runs per callback: \(Set(counts))")
        #expect(wrong.value == 0, "every callback ran after its seqs were durable, with success")
        #expect(Self.lines(file.durableContents) == count)
    }

    @Test("an append made from a callback is committed by a later batch", arguments: [0, 100])
    func appendFromCallback(spinMicroseconds: Int) async throws {
        let file = FaultInjectingFile()
        let published = Published()
        let writer = Self.writer(file, published: published, spinLimit: .microseconds(spinMicroseconds))
        let running = Task { await writer.run() }
        let rounds = 50
        let (done, finished) = AsyncStream.makeStream(of: Int64.self)
        /// Each commit appends the next event from the writer's thread, so every append comes right after a batch.
        @Sendable func chain(_ round: Int) {
            guard let ticket = try? writer.append([WriterTests.event(round)]) else {
                finished.finish()
                return
            }
            ticket.onCommitted { outcome in
                guard case .success = outcome, round < rounds else {
                    finished.yield(ticket.seqs.upperBound)
                    finished.finish()
                    return
                }
                chain(round + 1)
            }
        }
        chain(1)
        var last: Int64 = 0
        for await seq in done { last = seq }
        writer.finish()
        await running.value
        #expect(last == Int64(rounds))
        #expect(file.syncCount == rounds, "one batch (one fsync) per append, each made after the one before committed")
        #expect(published.seqs.withLock { $0 } == Array(1...Int64(rounds)))
        #expect(writer.status.durableSeq == Int64(rounds))
    }

    @Test("afterCallbacks runs once per batch, after its callbacks and before committed() returns, also on failure")
    func afterCallbacks() async throws {
        for failing in [false, true] {
            let file = FaultInjectingFile()
            let order = Locked<[String]>([])
            let writer = LogWriter(
                file: file, position: .empty, mode: .always, spinLimit: .zero, runtime: .testing(),
                now: { Timestamp(milliseconds: 0) },
                afterCallbacks: { order.update { $0.append("after") } }
            ) { _ in
                order.update { $0.append("commit") }
            }
            if failing { file.failSync(errno: EIO) }
            // Appended and registered before the writer runs, so every callback waits for the writer.
            let tickets = try (1...3).map { try writer.append([WriterTests.event($0)]) }
            for (index, ticket) in tickets.enumerated() {
                ticket.onCommitted { _ in order.update { $0.append("callback \(index)") } }
            }
            let running = Task { await writer.run() }
            await tickets[0].settled()
            let callbacks = ["callback 0", "callback 1", "callback 2", "after"]
            #expect(order.value == (failing ? callbacks : ["commit"] + callbacks), "failing: \(failing)")
            writer.finish()
            await running.value
        }
    }
}
