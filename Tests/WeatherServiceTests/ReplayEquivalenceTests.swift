import EventLog
import Testing
import WeatherDomain
import WeatherService
import WeatherTesting

@testable import WeatherEngine

@Suite("Replay equivalence")
struct ReplayEquivalenceTests {
    @Test("1,000 seeded random commands: live state = full replay = snapshot + tail at any seq, byte for byte")
    func randomSequences() async throws {
        var random = SeededGenerator(state: 77)
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory, snapshotEvery: 97)
        var lines: [[UInt8]] = []
        for index in 0..<1000 {
            let params: JSONValue
            let method: String
            switch Int.random(in: 0..<7, using: &random) {
            case 0, 1:
                method = "favorites/add"
                params = [
                    "name": .string("P\(index)"),
                    "lat": .double(Double(Int.random(in: -899...899, using: &random)) / 10),
                    "lon": .double(Double(Int.random(in: -1799...1799, using: &random)) / 10),
                    "commandId": .string("c-\(Int.random(in: 0..<800, using: &random))"),
                ]
            case 2:
                method = "favorites/remove"
                params = ["id": .string("fav-\(Int.random(in: 1..<400, using: &random))")]
            case 3:
                method = "favorites/update"
                params = [
                    "id": .string("fav-\(Int.random(in: 1..<400, using: &random))"), "name": .string("N\(index)"),
                    "notify": .bool(Bool.random(using: &random)),
                ]
            case 4:
                method = "settings/set"
                params = ["units": .string(Units.allCases.randomElement(using: &random)?.rawValue ?? "metric")]
            case 5:
                method = "alerts/configure"
                params = [
                    "tempDropC": .int(Int64(Int.random(in: 1...20, using: &random))),
                    "severe": .bool(Bool.random(using: &random)),
                ]
            default:
                method = "history/clear"
                params = [:]
            }
            lines.append(
                JSONValue.object([
                    "jsonrpc": "2.0", "id": .string("r-\(index)"), "method": .string(method), "params": params,
                ]).jsonBytes)
        }
        for line in lines { await service.receive(line) }
        #expect(await service.output.wait(for: 1000))
        let verify = try await service.result("state/verify")
        #expect(verify["ok"] == true)
        #expect(verify["live"] == verify["replayed"])
        let live = try await Self.liveState(service)
        await service.stop()
        let full = try Replay.run(path: directory.logPath, commandWindow: 100_000)
        let replayed = full.state
        let again = try Replay.run(path: directory.logPath, commandWindow: 100_000).state
        #expect(replayed.json.jsonBytes == again.json.jsonBytes)
        #expect(replayed.json.jsonBytes == live.json.jsonBytes)
        #expect(replayed.favorites.items.count > 10)

        let last = replayed.lastSeq
        let seqs = Set(
            [1, 2, last / 3, last / 2, last - 1, last] + (0..<5).map { _ in Int64.random(in: 1...last, using: &random) }
        )
        for seq in seqs.sorted() {
            let tail = try Self.replay(path: directory.logPath, fromSnapshotAt: seq)
            #expect(tail.state.json.jsonBytes == replayed.json.jsonBytes, "snapshot at seq \(seq)")
            #expect(tail.startup == Replay.Startup(snapshotSeq: seq, replayedEvents: last - seq))
            #expect(tail.index == full.index)
            #expect(tail.outcome.position == full.outcome.position)
        }
        let store = SnapshotStore(directory: DataDirectory(path: directory.path))
        #expect(try store.list().map(\.seq).first == last)
        // Under load the writer may commit everything in a few large batches, so there may be only one.
        #expect((1...2).contains(try store.list().count))
        let restarted = try InProcessWeatherd(directory: directory)
        #expect(
            try await restarted.result("service/status")["startup"] == ["snapshotSeq": .int(last), "replayedEvents": 0])
        #expect(try await restarted.result("state/verify")["ok"] == true)
        #expect(try await Self.liveState(restarted).json.jsonBytes == replayed.json.jsonBytes)
        await restarted.stop()
    }

    /// The state the service's actors hold.
    static func liveState(_ service: InProcessWeatherd) async throws -> WeatherState {
        let context = service.engine
        var live = WeatherState(commandWindow: context.info.commandWindow)
        live.favorites = await context.favorites.read { $0 }
        live.history = await context.history.read { $0 }
        live.settings = await context.settings.read { $0 }
        live.location = await context.location.read { $0 }
        live.cache = await context.cache.read { $0 }
        live.alerts = await context.alerts.read { $0 }
        live.commands = context.registry.ledger
        return live
    }

    /// Replays the log through `seq`, writes that state as a snapshot file, reads it back and replays the tail.
    static func replay(path: String, fromSnapshotAt seq: Int64) throws -> Replay.Result {
        let head = try Replay.run(path: path, commandWindow: 100_000, through: seq)
        let file = SnapshotFile(
            seq: seq, chain: head.outcome.position.lastChain, commandWindow: 100_000, fsync: "always",
            build: Engine.version,
            index: head.index, state: head.state.snapshotJSON)
        let read = try SnapshotFile(bytes: file.bytes)
        let base = Replay.Base(
            state: try WeatherState(snapshot: read.state, commandWindow: 100_000), chain: read.chain,
            index: read.index)
        return try Replay.run(path: path, commandWindow: 100_000, from: base)
    }
}
