import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

/// A data dir written by the in-process service with snapshots every 10 events: 35 favorites, so the
/// snapshots of seq 30 and (at shutdown) 35 are kept.
private func snapshottedDirectory() async throws -> TemporaryDataDirectory {
    let directory = TemporaryDataDirectory()
    let service = try InProcessWeatherd(directory: directory, snapshotEvery: 10)
    for index in 0..<35 {
        _ = try await service.result(
            "favorites/add", ["name": .string("P\(index)"), "lat": .int(Int64(index)), "lon": 1])
    }
    await service.stop()
    return directory
}

/// A logger whose lines are kept.
private func capturingLogger() -> (Logger, CollectingSink) {
    let lines = CollectingSink()
    return (Logger(level: .info) { lines.send(Array($0.utf8)) }, lines)
}

private func store(_ directory: TemporaryDataDirectory) -> SnapshotStore {
    SnapshotStore(directory: DataDirectory(path: directory.path))
}

/// Rewrites a snapshot's bytes with `edit` and a crc that holds again.
private func resealed(_ bytes: [UInt8], _ edit: (String) -> String) -> [UInt8] {
    let body = String(decoding: bytes[..<(bytes.count - 20)], as: UTF8.self)
    var out = Array(edit(body).utf8)
    let crc = CRC32C.checksum(out)
    out += Array(",\"crc\":\"".utf8) + CRC32C.hex(crc) + Array("\"}\n".utf8)
    return out
}

@Suite("Snapshots")
struct SnapshotTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Events/golden")

    @Test("every slice of every golden log's state comes back exactly from its canonical form and from a snapshot file")
    func goldenRoundTrip() throws {
        let logs = try FileManager.default.contentsOfDirectory(atPath: Self.golden.path).filter {
            $0.hasSuffix(".jsonl")
        }
        #expect(logs.count >= 3)
        for log in logs {
            let replayed = try Replay.run(path: Self.golden.appendingPathComponent(log).path, commandWindow: 100_000)
            let state = replayed.state
            #expect(try FavoritesState(json: state.favorites.json) == state.favorites, "\(log)")
            #expect(try HistoryState(json: state.history.json) == state.history, "\(log)")
            #expect(try SettingsState(json: state.settings.json) == state.settings, "\(log)")
            #expect(try LocationState(json: state.location.json) == state.location, "\(log)")
            #expect(try WeatherCache(json: state.cache.json) == state.cache, "\(log)")
            #expect(try AlertState(json: state.alerts.json) == state.alerts, "\(log)")
            #expect(
                try CommandLedger(json: state.commands.json, methods: state.commands.methodsJSON, window: 100_000)
                    == state.commands, "\(log)")
            let file = SnapshotFile(
                seq: state.lastSeq, chain: replayed.outcome.position.lastChain, commandWindow: 100_000,
                fsync: "always", build: Engine.version, index: replayed.index, state: state.snapshotJSON)
            let read = try SnapshotFile(bytes: file.bytes)
            #expect(read == file)
            let decoded = try WeatherState(snapshot: read.state, commandWindow: 100_000)
            #expect(decoded == state, "\(log)")
            #expect(decoded.json.jsonBytes == state.json.jsonBytes, "\(log)")
        }
        let weather = try Replay.run(
            path: Self.golden.appendingPathComponent("v1-weather.jsonl").path, commandWindow: 10)
        #expect(!weather.state.cache.forecast.isEmpty)
    }

    @Test("a snapshot is written every N events and at shutdown, two are kept, and a restart replays only the tail")
    func writtenAndLoaded() async throws {
        let directory = try await snapshottedDirectory()
        #expect(try store(directory).list().map(\.seq) == [35, 30])
        let restarted = try InProcessWeatherd(directory: directory, snapshotEvery: 10)
        let status = try await restarted.result("service/status")
        #expect(status["startup"] == ["snapshotSeq": 35, "replayedEvents": 0])
        #expect(try await restarted.result("state/verify")["ok"] == true)
        #expect(try await restarted.result("favorites/list")["favorites"]?.arrayValue?.count == 35)
        await restarted.stop()

        try FileManager.default.removeItem(atPath: store(directory).path(seq: 35))
        let fromOlder = try InProcessWeatherd(directory: directory, snapshotEvery: 10)
        #expect(try await fromOlder.result("service/status")["startup"] == ["snapshotSeq": 30, "replayedEvents": 5])
        #expect(try await fromOlder.result("state/verify")["ok"] == true)
        await fromOlder.stop()
    }

    @Test("after a full replay of a log longer than N events, the first change is followed by a snapshot at once")
    func snapshotSoonAfterFullReplay() async throws {
        let directory = try await snapshottedDirectory()
        try FileManager.default.removeItem(atPath: store(directory).path)
        let restarted = try InProcessWeatherd(directory: directory, snapshotEvery: 10)
        #expect(try await restarted.result("service/status")["startup"]?["snapshotSeq"] == .null)
        _ = try await restarted.result("settings/set", ["units": "imperial"])
        // The snapshotter writes on its own thread, outside this process's notifications: eventually re-reads.
        #expect(
            try await eventually { try !store(directory).list().isEmpty },
            "a snapshot is written while the service runs, not only at a clean shutdown")
        await restarted.stop()
    }

    enum Damage: String, CaseIterable {
        case flippedByte, truncated, wrongVersion, otherBuild, otherChain, beyondTheLog, otherCommandWindow, empty
    }

    @Test(
        "a damaged or mismatched snapshot is a warning and a fall-back to an older one, with the same state",
        arguments: Damage.allCases)
    func fallback(damage: Damage) async throws {
        let directory = try await snapshottedDirectory()
        let snapshots = store(directory)
        let newest = snapshots.path(seq: 35)
        var bytes = try snapshots.read(newest)
        switch damage {
        case .flippedByte: bytes[bytes.count / 2] ^= 0x20
        case .truncated: bytes.removeLast(bytes.count / 3)
        case .wrongVersion:
            bytes = resealed(bytes) {
                $0.replacingOccurrences(
                    of: "\"version\":\(SnapshotFile.version),", with: "\"version\":\(SnapshotFile.version - 1),")
            }
        case .otherBuild:
            var file = try SnapshotFile(bytes: bytes)
            file.build = "0.0.1-older"
            bytes = file.bytes
        case .otherChain:
            let file = try SnapshotFile(bytes: bytes)
            var other = file
            other.chain ^= 1
            bytes = other.bytes
        case .beyondTheLog:
            var file = try SnapshotFile(bytes: bytes)
            file.seq = 40
            file.state = resealedState(file.state, lastSeq: 40)
            try snapshots.write(file.bytes, seq: 40)
        case .otherCommandWindow:
            bytes = resealed(bytes) {
                $0.replacingOccurrences(of: "\"commandWindow\":100000,", with: "\"commandWindow\":99,")
            }
        case .empty: bytes = []
        }
        if damage != .beyondTheLog { try Data(bytes).write(to: URL(fileURLWithPath: newest)) }
        let (logger, lines) = capturingLogger()
        let started = try Replay.start(
            directory: directory.path, snapshots: snapshots, commandWindow: 100_000, logger: logger)
        let full = try Replay.run(path: directory.logPath, commandWindow: 100_000)
        let expectedSeq: Int64 = damage == .beyondTheLog ? 35 : 30
        #expect(started.startup == Replay.Startup(snapshotSeq: expectedSeq, replayedEvents: 35 - expectedSeq))
        #expect(started.state.json.jsonBytes == full.state.json.jsonBytes)
        #expect(started.index == full.index)
        #expect(started.outcome.position == full.outcome.position)
        let warnings = lines.lines.map { String(decoding: $0, as: UTF8.self) }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("warning: ignoring the snapshot") == true)
        #expect(
            try snapshots.list().map(\.seq) == (damage == .beyondTheLog ? [35, 30] : [30]),
            "the unusable snapshot is removed, the good ones kept")
    }

    @Test("with every snapshot unusable, or snapshots/ deleted, start-up replays the whole log to the same state")
    func fullReplay() async throws {
        let directory = try await snapshottedDirectory()
        let snapshots = store(directory)
        let full = try Replay.run(path: directory.logPath, commandWindow: 100_000)
        for entry in try snapshots.list() { try Data("{}\n".utf8).write(to: URL(fileURLWithPath: entry.path)) }
        let (logger, lines) = capturingLogger()
        let corrupt = try Replay.start(
            directory: directory.path, snapshots: snapshots, commandWindow: 100_000, logger: logger)
        #expect(corrupt.startup == Replay.Startup(snapshotSeq: nil, replayedEvents: 35))
        #expect(corrupt.state.json.jsonBytes == full.state.json.jsonBytes)
        #expect(lines.lines.count == 2)

        try FileManager.default.removeItem(atPath: snapshots.path)
        let restarted = try InProcessWeatherd(directory: directory)
        #expect(try await restarted.result("service/status")["startup"] == ["snapshotSeq": nil, "replayedEvents": 35])
        #expect(try await restarted.result("favorites/list")["favorites"]?.arrayValue?.count == 35)
        await restarted.stop()
        #expect(try snapshots.list().map(\.seq) == [35])
    }

    @Test("a torn tail after the snapshot is found and repaired; a log cut inside the snapshot's line falls back")
    func tornLog() async throws {
        let directory = try await snapshottedDirectory()
        let snapshots = store(directory)
        let intact = directory.logBytes()
        try directory.writeLog(intact + Array("{\"seq\":36,\"ts\":".utf8))
        let (logger, lines) = capturingLogger()
        let torn = try Replay.start(
            directory: directory.path, snapshots: snapshots, commandWindow: 100_000, logger: logger)
        #expect(torn.startup.snapshotSeq == 35)
        #expect(torn.outcome.tail?.offset == Int64(intact.count))
        #expect(lines.lines.isEmpty)

        try directory.writeLog(Array(intact.dropLast(9)))
        let cut = try Replay.start(
            directory: directory.path, snapshots: snapshots, commandWindow: 100_000, logger: logger)
        let full = try Replay.run(path: directory.logPath, commandWindow: 100_000)
        #expect(cut.startup == Replay.Startup(snapshotSeq: 30, replayedEvents: 4))
        #expect(cut.outcome.tail == full.outcome.tail)
        #expect(cut.outcome.tail != nil)
        #expect(cut.state.json.jsonBytes == full.state.json.jsonBytes)
        #expect(lines.lines.count == 1)

        let restarted = try InProcessWeatherd(directory: directory)
        #expect(try await restarted.result("favorites/list")["favorites"]?.arrayValue?.count == 34)
        _ = try await restarted.result("favorites/add", ["name": "After", "lat": 1, "lon": 2])
        #expect(try await restarted.result("state/verify")["ok"] == true)
        await restarted.stop()
    }

    @Test("damage before the snapshot's seq that a full replay refuses is refused, not hidden by the snapshot")
    func damageBeforeTheSnapshot() async throws {
        let directory = try await snapshottedDirectory()
        var log = directory.logBytes()
        let fifthLine = try #require(log.indices.filter { log[$0] == UInt8(ascii: "\n") }.dropFirst(3).first) + 1
        log[fifthLine + 40] ^= 0x01
        try directory.writeLog(log)
        let (logger, lines) = capturingLogger()
        #expect(throws: LogDamage.self) {
            try Replay.start(
                directory: directory.path, snapshots: store(directory), commandWindow: 100_000, logger: logger)
        }
        #expect(lines.lines.count == 2)
    }

    private func resealedState(_ state: JSONValue, lastSeq: Int64) -> JSONValue {
        guard case .object(var members) = state else { return state }
        members["lastSeq"] = .int(lastSeq)
        return .object(members)
    }
}
