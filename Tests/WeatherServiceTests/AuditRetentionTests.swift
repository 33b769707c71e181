import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherRuntime
import WeatherService
import WeatherTesting

@testable import WeatherEngine

@Suite("Audit retention: whole segments dropped with log.truncated")
struct AuditRetentionTests {
    static let schemas = LogRetentionTests.schemas
    static let now = Timestamp(milliseconds: 1_800_000_000_000)

    /// A snapshot file of the log in `directory` through `seq`, as the snapshotter writes one.
    static func snapshot(_ directory: String, through seq: Int64) throws -> SnapshotFile {
        let replay = try Replay.run(directory: directory, commandWindow: 100_000, through: seq)
        return SnapshotFile(
            seq: seq, chain: replay.outcome.position.lastChain, commandWindow: 100_000, fsync: "always",
            build: Engine.version, index: replay.index, state: replay.state.snapshotJSON)
    }

    static func segmentFiles(_ directory: String) throws -> [Int64] { try LogFiles.list(directory: directory).segments }

    static func service(
        _ engine: Engine, clock: ManualClock, directory: TemporaryDataDirectory
    ) -> CompactionService {
        CompactionService(
            directory: directory.path, retainPayloads: .seconds(30 * 86_400), retainAudit: .zero,
            writer: engine.writer, snapshots: SnapshotStore(directory: DataDirectory(path: directory.path)),
            lastTruncation: nil, clock: clock, pool: Runtime.testing().pool, delay: .zero, interval: .zero,
            logger: Logger(level: .error))
    }

    /// Writes the snapshot the snapshotter would write of everything committed so far (its own thread writes
    /// periodic ones when it gets to them; the test should not depend on when that is).
    static func snapshotNow(_ directory: TemporaryDataDirectory) throws -> Int64 {
        let replay = try Replay.run(directory: directory.path, commandWindow: 100_000)
        let seq = replay.state.lastSeq
        let file = try snapshot(directory.path, through: seq)
        try SnapshotStore(directory: DataDirectory(path: directory.path)).write(file.bytes, seq: seq)
        return seq
    }

    /// Adds `count` favorites a second apart: at 2 KiB a segment, several sealed segments.
    static func addFavorites(_ count: Int, to weatherd: InProcessWeatherd, clock: ManualClock) async throws {
        for index in 0..<count {
            _ = try await weatherd.result(
                "favorites/add", ["name": .string("Place \(index)"), "lat": .int(Int64(index)), "lon": 1])
            clock.advance(milliseconds: 1000)
        }
    }

    @Test("the plan takes the oldest sealed segments whose every event is older than the cutoff, and stops there")
    func planIsAPrefix() async throws {
        try await onThread {
            let directory = try LogRetentionTests.oldLog(1200, now: Self.now)
            let start = Self.now.milliseconds - 60 * 86_400_000
            // Event seq n was written at start + (n - 1) s: the cutoff falls inside the log.
            let cutoffSeq: Int64 = 700
            let cutoff = Timestamp(milliseconds: start + (cutoffSeq - 1) * 1000)
            let plan = try #require(try LogTruncation.plan(directory: directory.path, cutoff: cutoff))
            let segments = try Self.segmentFiles(directory.path)
            #expect(plan.fromSeq == 1)
            #expect(plan.segments.map(\.firstSeq) == Array(segments.prefix(plan.segments.count)))
            #expect(plan.throughSeq < cutoffSeq, "no dropped event is as young as the cutoff")
            let next = try #require(segments.first { $0 > plan.throughSeq })
            #expect(next == plan.throughSeq + 1, "the plan ends where a segment ends")
            let after = segments.first { $0 > next } ?? Int64.max
            #expect(after > cutoffSeq, "the next segment holds the cutoff's event, so it stays")
            for segment in plan.segments {
                #expect(segment.lastAt < cutoff)
                #expect(segment.bytes > 0)
            }
            // A cutoff before every event drops nothing; one after every event drops every sealed segment only.
            #expect(try LogTruncation.plan(directory: directory.path, cutoff: Timestamp(milliseconds: start)) == nil)
            let all = try #require(try LogTruncation.plan(directory: directory.path, cutoff: Self.now))
            #expect(all.segments.map(\.firstSeq) == segments)
        }
    }

    @Test("a crash before any step of dropping segments leaves a log that verifies and replays to the same state")
    func crashAtEveryStep() async throws {
        try await onThread {
            for step in TruncationStep.allCases {
                let directory = try LogRetentionTests.oldLog(900, now: Self.now)
                let expected = try LogRetentionTests.state(directory.path)
                let plan = try #require(try LogTruncation.plan(directory: directory.path, cutoff: Self.now))
                let base = try Self.snapshot(directory.path, through: plan.throughSeq + 5)
                struct Crash: Error {}
                #expect(throws: Crash.self, "\(step)") {
                    try LogTruncation.drop(
                        directory: directory.path, throughSeq: plan.throughSeq, lastChain: plan.lastChain,
                        base: base.bytes, now: Self.now
                    ) { if $0 == step { throw Crash() } }
                }
                #expect(try LogRetentionTests.state(directory.path) == expected, "after a crash before \(step)")
                #expect(LogRetentionTests.verify(directory.path).code == 0, "verify after a crash before \(step)")
                // The next run finishes the work; the state is still the same, and the files are gone.
                try LogTruncation.drop(
                    directory: directory.path, throughSeq: plan.throughSeq, lastChain: plan.lastChain,
                    base: base.bytes, now: Self.now)
                #expect(try LogRetentionTests.state(directory.path) == expected, "finished after \(step)")
                #expect(try Self.segmentFiles(directory.path).allSatisfy { $0 > plan.throughSeq })
                let verified = LogRetentionTests.verify(directory.path)
                #expect(verified.code == 0)
                #expect(verified.output?["firstSeq"]?.intValue == plan.throughSeq + 1)
                #expect(verified.output?["truncatedThroughSeq"]?.intValue == plan.throughSeq)
                #expect(verified.output?["baseSeq"]?.intValue == plan.throughSeq + 5)
            }
        }
    }

    @Test("a truncated log without its base, or with a base of another log, is refused by name")
    func baseMissingOrForeign() async throws {
        try await onThread {
            let directory = try LogRetentionTests.oldLog(900, now: Self.now)
            let plan = try #require(try LogTruncation.plan(directory: directory.path, cutoff: Self.now))
            let base = try Self.snapshot(directory.path, through: plan.throughSeq + 3)
            try LogTruncation.drop(
                directory: directory.path, throughSeq: plan.throughSeq, lastChain: plan.lastChain, base: base.bytes,
                now: Self.now)
            var foreign = base
            foreign.chain ^= 1
            try Data(foreign.bytes).write(to: URL(fileURLWithPath: LogTruncation.basePath(in: directory.path)))
            #expect(throws: SnapshotError.self) { try LogRetentionTests.state(directory.path) }
            let mismatch = LogRetentionTests.verify(directory.path)
            #expect(mismatch.code == 1)
            #expect(mismatch.output?["file"]?.stringValue?.hasSuffix("log-base.json") == true)
            try FileManager.default.removeItem(atPath: LogTruncation.basePath(in: directory.path))
            let missing = try #require(
                throws: LogDamage.self, performing: { try LogRetentionTests.state(directory.path) })
            #expect(missing.path.hasSuffix("log-base.json"))
            #expect(missing.problem.detail.contains("is missing"))
            #expect(LogRetentionTests.verify(directory.path).code == 1)
        }
    }

    @Test("through the engine: log.truncated recorded first, the old segments dropped, and every reader still agrees")
    func engineTruncates() async throws {
        let directory = TemporaryDataDirectory()
        let clock = ManualClock(start: Self.now)
        let weatherd = try InProcessWeatherd(directory: directory, clock: clock, snapshotEvery: 0, segmentBytes: 2048)
        try await Self.addFavorites(60, to: weatherd, clock: clock)
        let sealed = try Self.segmentFiles(directory.path)
        #expect(sealed.count >= 4)
        let snapshotSeq = try Self.snapshotNow(directory)
        let retention = Self.service(weatherd.engine, clock: clock, directory: directory)
        let recorded = try #require(await retention.truncateOnce(retainAudit: .zero, after: nil))
        #expect(recorded.fromSeq == 1)
        #expect(recorded.segments.map(\.firstSeq) == sealed)
        #expect(recorded.baseSeq == snapshotSeq, "the newest snapshot past the dropped seqs is the base")
        #expect(recorded.retainAudit == "0")
        // Every segment sealed before the run was older than now (appending log.truncated may seal another).
        #expect(try Self.segmentFiles(directory.path).allSatisfy { $0 > recorded.throughSeq })
        let files = try LogFiles.list(directory: directory.path)
        #expect(files.manifest.truncated?.throughSeq == recorded.throughSeq)
        #expect(FileManager.default.fileExists(atPath: LogTruncation.basePath(in: directory.path)))

        let audit = try await weatherd.result("events/query", ["types": ["log.truncated"]])
        let logged = try #require(audit["events"]?.arrayValue?.first)
        #expect(logged["cause"] == "retention")
        #expect(try LogTruncated(json: logged["data"] ?? .null) == recorded)
        let fromStart = try await weatherd.result("events/query", ["afterSeq": 0, "limit": 5])
        #expect(fromStart["events"]?.arrayValue?.first?["seq"]?.intValue == recorded.throughSeq + 1)
        #expect(try await weatherd.result("state/verify")["ok"] == true)
        let favorites = try await weatherd.result("favorites/list")
        await weatherd.stop()

        #expect(LogRetentionTests.verify(directory.path).code == 0)
        let check = try LogCheck(schemasDirectory: Self.schemas)
        #expect(try check.check(dataDirectory: directory.path).types["log.truncated"] == 1)
        // Without any snapshot, start-up continues from the base and reaches the same state.
        try FileManager.default.removeItem(atPath: directory.path + "/snapshots")
        let again = try InProcessWeatherd(directory: directory, clock: clock)
        #expect(try await again.result("favorites/list") == favorites)
        let status = try await again.result("service/status")
        #expect(status["startup"]?["snapshotSeq"]?.intValue == recorded.baseSeq)
        #expect(try await again.result("state/verify")["ok"] == true)
        await again.stop()
    }

    @Test("a truncation the log records but the files do not show yet is finished by the next run, not recorded twice")
    func resumesAfterACrash() async throws {
        let directory = TemporaryDataDirectory()
        let clock = ManualClock(start: Self.now)
        let weatherd = try InProcessWeatherd(directory: directory, clock: clock, snapshotEvery: 0, segmentBytes: 2048)
        try await Self.addFavorites(40, to: weatherd, clock: clock)
        // The event is durable, then the process "dies" before any file is touched.
        let plan = try #require(try LogTruncation.plan(directory: directory.path, cutoff: clock.timestamp))
        let event = LogMaintenance.record(
            of: plan, cutoff: clock.timestamp, retainAudit: .zero, baseSeq: plan.throughSeq + 1)
        let ticket = try weatherd.engine.writer.append([NewEvent(.logTruncated(event), cause: "retention", corr: nil)])
        _ = try await ticket.committed()
        #expect(try Self.segmentFiles(directory.path).first == 1)

        _ = try Self.snapshotNow(directory)
        let retention = Self.service(weatherd.engine, clock: clock, directory: directory)
        // Nothing new is due a year from now, but the recorded truncation is finished.
        let after = await retention.truncateOnce(retainAudit: .seconds(365 * 86_400), after: event)
        #expect(after == event)
        #expect(try Self.segmentFiles(directory.path).allSatisfy { $0 > plan.throughSeq })
        #expect(try LogFiles.list(directory: directory.path).manifest.truncated?.throughSeq == plan.throughSeq)
        let audit = try await weatherd.result("events/query", ["types": ["log.truncated"]])
        #expect(audit["events"]?.arrayValue?.count == 1)
        #expect(try await weatherd.result("state/verify")["ok"] == true)
        await weatherd.stop()
        #expect(LogRetentionTests.verify(directory.path).code == 0)
    }

    @Test("without a snapshot past the old segments, nothing is recorded or dropped yet")
    func waitsForASnapshot() async throws {
        try await onThread {
            let directory = try LogRetentionTests.oldLog(600, now: Self.now)
            let before = try Self.segmentFiles(directory.path)
            let planned = try LogMaintenance.planTruncation(
                directory: directory.path, retainAudit: .zero, now: Self.now,
                snapshots: SnapshotStore(directory: DataDirectory(path: directory.path)), logger: Logger(level: .error))
            #expect(planned == nil)
            #expect(try Self.segmentFiles(directory.path) == before)
        }
    }

    @Test("--retain-audit takes the retention durations, or forever")
    func flag() throws {
        let base = ["--data-dir", "/tmp/x"]
        #expect(try Configuration.parse(base, environment: [:]).retainAudit == nil)
        #expect(
            try Configuration.parse(base + ["--retain-audit", "365d"], environment: [:]).retainAudit
                == .seconds(365 * 86_400))
        #expect(try Configuration.parse(base + ["--retain-audit", "forever"], environment: [:]).retainAudit == nil)
        #expect(try Configuration.parse(base + ["--retain-audit", "0"], environment: [:]).retainAudit == .zero)
        #expect(throws: ConfigurationError.self) {
            try Configuration.parse(base + ["--retain-audit", "a year"], environment: [:])
        }
        #expect(Configuration.durationText(.seconds(365 * 86_400)) == "365d")
        #expect(Configuration.durationText(.seconds(90)) == "90s")
        #expect(Configuration.durationText(.seconds(7200)) == "2h")
    }
}

extension AuditRetentionTests {
    @Test("forecast changes on a log whose first segments retention dropped: the search starts at the first line kept")
    func forecastChangesAfterTruncation() async throws {
        let directory = TemporaryDataDirectory()
        // Three weeks before Thursday 26 November, 08:00 in Berlin: more events than one seq-index stride.
        let thursday = try OfficialFixture.time(ForecastChangesLogTests.start)
        let clock = ManualClock(start: Timestamp(milliseconds: thursday.milliseconds - 21 * 86_400_000))
        let weatherd = try InProcessWeatherd(
            directory: directory, clock: clock, fsync: .never, network: try ChangesFixture.network(),
            snapshotEvery: 0, maxFavorites: 2000, segmentBytes: 16_384)
        for index in 0..<(SeqIndex.stride + 200) {
            _ = try await weatherd.result(
                "favorites/add",
                ["name": .string("Place \(index)"), "lat": .int(index % 90), "lon": .int(index / 90)])
            clock.advance(milliseconds: 1000)
        }
        clock.advance(milliseconds: thursday.milliseconds - clock.timestamp.milliseconds)
        try await ForecastChangesLogTests.fetch(weatherd, clock)
        _ = try Self.snapshotNow(directory)
        let retention = Self.service(weatherd.engine, clock: clock, directory: directory)
        let recorded = try #require(await retention.truncateOnce(retainAudit: .seconds(7 * 86_400), after: nil))
        #expect(recorded.throughSeq > SeqIndex.stride, "the dropped segments reach past the index's first slot")
        var params = ChangesFixture.berlin
        params["date"] = "2026-11-28"
        try ForecastChangesLogTests.expectSaturday(
            try await weatherd.result("weather/forecastChanges", .object(params)))
        await weatherd.stop()
    }
}
