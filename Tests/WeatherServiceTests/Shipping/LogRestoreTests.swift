import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherTesting
import WeatherWire

@testable import WeatherService

@Suite("Restoring a data dir from NATS JetStream (a real nats-server)", .serialized)
struct LogRestoreTests {
    /// What a data dir shipped, as it was when the stream had all of it.
    private struct Shipped {
        let directory: TemporaryDataDirectory
        let logID: String
        let verification: StateVerification
        /// Its log's lines through `verification.lastSeq`.
        let lines: [[UInt8]]
    }

    /// A data dir that ships favorites added, renamed and removed and a settings change, stopped once the stream
    /// holds every event.
    private func shippedLog(to server: NATSServerProcess) async throws -> Shipped {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory)
        let (shipper, task) = try startShipping(service, to: server, directory: directory.path)
        try await addFavorites(service, 1...12)
        _ = try await service.result("favorites/update", ["id": "fav-3", "name": "Renamed"])
        _ = try await service.result("favorites/update", ["id": "fav-4", "notify": false])
        _ = try await service.result("favorites/remove", ["id": "fav-5"])
        _ = try await service.result("settings/set", ["units": "imperial"])
        #expect(await caughtUp(shipper, service))
        let verification = try await service.engine.verify()
        #expect(verification.ok)
        task.cancel()
        _ = await task.result
        await service.stop()
        let lines = try logLines(directory.path)
        return Shipped(
            directory: directory, logID: try #require(try LogIdentity.read(directory: directory.path)),
            verification: verification, lines: Array(lines.prefix(Int(verification.lastSeq))))
    }

    private func jetStream(_ server: NATSServerProcess) async throws -> JetStream {
        try await JetStream.connect(to: try NATSURL.parse(server.url), credentials: nil, runtime: Runtime.testing())
    }

    /// The entries of `directory`'s parent, beside the data dir itself (a restore's staging copies).
    private func leftovers(_ target: TemporaryDataDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: target.root).filter { $0 != "data" }
    }

    @Test("a restored data dir holds the log line for line and its id, and replays to the original's digest")
    func restoresTheSameState() async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        let original = try await shippedLog(to: server)
        let stream = try await jetStream(server)
        defer { stream.close() }
        let target = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: target.path, withIntermediateDirectories: false)

        let outcome = try await LogRestore.run(
            from: stream, stream: "WEATHERD", subjectPrefix: "weatherd", logID: original.logID, into: target.path)

        #expect(outcome.lastSeq == original.verification.lastSeq)
        #expect(try logLines(target.path) == original.lines)
        #expect(try LogIdentity.read(directory: target.path) == original.logID)
        #expect(try leftovers(target).isEmpty)
        let replayed = try Replay.run(
            directory: target.path, commandWindow: 100_000, through: original.verification.lastSeq)
        #expect(Digest.fnv1a(replayed.state.json.jsonBytes) == original.verification.live)
        // weatherd opens it as its own: state/verify's digest is the original's at the same seq.
        let restored = try InProcessWeatherd(directory: target)
        let verified = try await restored.engine.verify()
        #expect(verified.ok)
        #expect(verified.lastSeq == original.verification.lastSeq)
        #expect(verified.live == original.verification.live)
        await restored.stop()
    }

    @Test("a data dir that is not empty is refused before anything is read, and left as it was")
    func refusesNonEmpty() async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        let original = try await shippedLog(to: server)
        let stream = try await jetStream(server)
        defer { stream.close() }
        let target = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: target.path, withIntermediateDirectories: false)
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: target.path + "/notes"))
        do {
            _ = try await LogRestore.run(
                from: stream, stream: "WEATHERD", subjectPrefix: "weatherd", logID: original.logID, into: target.path)
            Issue.record("a non-empty data dir was restored into")
        } catch let error as RestoreError {
            #expect(error.kind == "restore_target_not_empty")
            #expect(error.description.contains("is not an empty directory"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["notes"])
        #expect(try leftovers(target).isEmpty)
    }

    @Test(
        "a damaged, out-of-order or foreign message in the stream stops the restore with a clear line; no data dir is left",
        arguments: ["crc", "gap", "foreign"])
    func refusesDamage(kind: String) async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        let original = try await shippedLog(to: server)
        let stream = try await jetStream(server)
        defer { stream.close() }
        let last = try #require(original.lines.last)
        let next = original.verification.lastSeq + 1
        // What the test publishes after the log's last message, on the log's subject.
        var line = last
        var id = "\(original.logID)-\(next)"
        switch kind {
        case "crc":
            // One byte of the payload changed: the line's crc no longer holds.
            let at = try #require(line.firstIndex(of: UInt8(ascii: "{")).map { $0 + 2 })
            line[at] = line[at] == UInt8(ascii: "s") ? UInt8(ascii: "t") : UInt8(ascii: "s")
        case "gap": id = "\(original.logID)-\(next + 1)"
        default: id = "0123456789abcdef-\(next)"
        }
        let reply = try stream.connection.request(
            "weatherd.\(original.logID)", headers: NATSHeaders([("Nats-Msg-Id", id)]), payload: line)
        #expect(try JetStream.pubAck(try await reply.answer()).duplicate == false)

        let target = TemporaryDataDirectory()
        do {
            _ = try await LogRestore.run(
                from: stream, stream: "WEATHERD", subjectPrefix: "weatherd", logID: original.logID, into: target.path)
            Issue.record("a stream holding a bad message (\(kind)) was restored")
        } catch let error as RestoreError {
            let expected = [
                "crc": ("restore_damaged_line", "crc mismatch"),
                "gap": ("restore_out_of_order", "seq \(next) is missing"),
                "foreign": ("restore_foreign_message", "is not from this log"),
            ]
            let (errorKind, phrase) = try #require(expected[kind])
            #expect(error.kind == errorKind)
            #expect(error.description.contains(phrase), "\(error)")
            #expect(error.description.contains("nothing was restored"))
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(try leftovers(target).isEmpty)
    }

    @Test("a restored copy shipping while its original ships on: the second to ship stops with one line")
    func twoWritersUnderOneID() async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        let original = try await shippedLog(to: server)
        let stream = try await jetStream(server)
        let target = TemporaryDataDirectory()
        _ = try await LogRestore.run(
            from: stream, stream: "WEATHERD", subjectPrefix: "weatherd", logID: original.logID, into: target.path)
        stream.close()
        // The original goes on and ships first (its start and its change) ...
        let first = try InProcessWeatherd(directory: original.directory)
        let (firstShipper, firstTask) = try startShipping(first, to: server, directory: original.directory.path)
        try await addFavorites(first, 20...20)
        #expect(await caughtUp(firstShipper, first))
        // ... so the restored copy, whose seqs there are other lines, ships nothing and says why.
        let copy = try InProcessWeatherd(directory: target)
        try await addFavorites(copy, 30...32)
        let (copyShipper, copyTask) = try startShipping(copy, to: server, directory: target.path)
        #expect(await eventually { copyShipper.current.problem != nil })
        #expect(copyShipper.current.problem?.contains("another data dir ships under this log id") == true)
        #expect(copyShipper.current.published == 0)
        for task in [firstTask, copyTask] {
            task.cancel()
            _ = await task.result
        }
        await first.stop()
        await copy.stop()
    }
}
