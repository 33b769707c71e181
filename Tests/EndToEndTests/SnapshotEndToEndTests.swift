import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: snapshots")
struct SnapshotEndToEndTests {
    @Test(
        "the binary snapshots every N events and after service.stopped; a restart replays nothing, a bad one falls back"
    )
    func snapshotsAcrossRestarts() async throws {
        let directory = TemporaryDataDirectory()
        let first = try startWeatherd(directory, ["--snapshot-every", "4"])
        try await addFavorites(first, 0..<10)
        try first.closeInput()
        #expect(await first.waitForExit() == 0)
        let stopped = try #require(try logEvents(directory).last)
        #expect(stopped["type"] == "service.stopped")
        let lastSeq = try #require(stopped["seq"]?.intValue)
        let store = SnapshotStore(directory: DataDirectory(path: directory.path))
        let kept = try store.list().map(\.seq)
        #expect(kept.count == 2)
        #expect(kept.first == lastSeq)

        let second = try startWeatherd(directory, ["--snapshot-every", "4"])
        let status = try #require(try await second.call("service/status")["result"])
        #expect(status["startup"] == ["snapshotSeq": .int(lastSeq), "replayedEvents": 0])
        #expect(try await second.call("state/verify")["result"]?["ok"] == true)
        try second.closeInput()
        #expect(await second.waitForExit() == 0)
        #expect(try store.list().first?.seq == lastSeq, "a run that changed nothing rewrites no snapshot")
        let logEnd = try #require(try logEvents(directory).last?["seq"]?.intValue)
        #expect(logEnd == lastSeq + 2, "only its service.started and service.stopped")

        let snapshots = try store.list()
        let newest = try #require(snapshots.first)
        let older = try #require(snapshots.dropFirst().first)
        var bytes = try store.read(newest.path)
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: newest.path))
        let third = try startWeatherd(directory)
        let fallback = try #require(try await third.call("service/status")["result"])
        #expect(fallback["startup"]?["snapshotSeq"] == .int(older.seq))
        #expect(fallback["startup"]?["replayedEvents"] == .int(logEnd - older.seq))
        let favorites = try await third.call("favorites/list")["result"]?["favorites"]?.arrayValue
        #expect(favorites?.count == 10)
        #expect(try await third.call("state/verify")["result"]?["ok"] == true)
        try third.closeInput()
        #expect(await third.waitForExit() == 0)
        #expect(third.standardError.contains("ignoring the snapshot"))
    }
}
