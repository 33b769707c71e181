import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherTesting
import WeatherWire

@testable import WeatherEngine
@testable import WeatherService

@Suite("A fleet's trail: every log shipped to one stream (a real nats-server)", .serialized)
struct FleetTrailTests {
    /// Every entry the trail holds now.
    private func read(_ trail: inout FleetTrail) async throws -> [FleetTrail.Entry] {
        var entries: [FleetTrail.Entry] = []
        while let entry = try await trail.next() { entries.append(entry) }
        return entries
    }

    private func events(_ entries: [FleetTrail.Entry]) -> [FleetTrail.Event] {
        entries.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test("two data dirs shipping to one stream: each log's events in order, labelled with its id and machine")
    func twoMachines() async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        var directories: [TemporaryDataDirectory] = []
        for (machine, range) in [1...5, 11...17].enumerated() {
            let directory = TemporaryDataDirectory()
            let service = try InProcessWeatherd(directory: directory)
            // An in-process service writes no start-up events: this one says its machine's name as a daemon does.
            let started = ServiceStarted(version: "test", fsync: "always", pid: 1, host: "kiosk-\(machine)")
            _ = try await service.engine.writer.append([NewEvent(.serviceStarted(started), cause: "startup", corr: nil)]
            )
            .committed()
            let (shipper, task) = try startShipping(service, to: server, directory: directory.path)
            try await addFavorites(service, range)
            #expect(await caughtUp(shipper, service))
            task.cancel()
            _ = await task.result
            await service.stop()
            directories.append(directory)
        }
        let ids = try directories.map { try #require(try LogIdentity.read(directory: $0.path)) }
        let stream = try await JetStream.connect(
            to: try NATSURL.parse(server.url), credentials: nil, runtime: Runtime.testing())
        defer { stream.close() }
        // Something that is not a log line, on a log's subject.
        let reply = try stream.connection.request("weatherd.garbage", payload: Array("not a log line".utf8))
        _ = try JetStream.pubAck(try await reply.answer())

        var trail = try await FleetTrail(jetStream: stream, stream: "WEATHERD", subjectPrefix: "weatherd", logIDs: [])
        let entries = try await read(&trail)
        let all = events(entries)
        for (machine, (directory, id)) in zip(directories, ids).enumerated() {
            // Each log's events as its log holds them, in order, each labelled with its machine.
            let shipped = all.filter { $0.logID == id }
            #expect(try shipped.map(\.envelope) == logLines(directory.path).map { try JSONValue.parse($0) })
            #expect(shipped.allSatisfy { $0.host == "kiosk-\(machine)" })
        }
        #expect(all.count == 2 + 5 + 7)
        let unreadable = entries.compactMap { if case .unreadable(let why) = $0 { why } else { nil } }
        #expect(unreadable.count == 1)
        #expect(unreadable.first?.contains("on weatherd.garbage is not an intact log line") == true)

        // One log asked for: only its events.
        var one = try await FleetTrail(
            jetStream: stream, stream: "WEATHERD", subjectPrefix: "weatherd", logIDs: [ids[1]])
        let only = events(try await read(&one))
        #expect(only.count == all.filter { $0.logID == ids[1] }.count)
        #expect(only.allSatisfy { $0.logID == ids[1] })

        // Nothing new: nil, and a later event is read on the next ask (what --follow does).
        #expect(try await one.next() == nil)
        let again = try InProcessWeatherd(directory: directories[1])
        let (shipper, task) = try startShipping(again, to: server, directory: directories[1].path)
        try await addFavorites(again, 40...40)
        #expect(await caughtUp(shipper, again))
        let later = events(try await read(&one))
        #expect(later.map { $0.envelope["type"]?.stringValue } == ["favorite.added"])
        #expect(later.map(\.host) == ["kiosk-1"])
        task.cancel()
        _ = await task.result
        await again.stop()
    }

    @Test("a stream that does not exist is one clear error")
    func noStream() async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        let stream = try await JetStream.connect(
            to: try NATSURL.parse(server.url), credentials: nil, runtime: Runtime.testing())
        defer { stream.close() }
        await #expect(throws: NATSError.noStream("ELSEWHERE")) {
            _ = try await FleetTrail(jetStream: stream, stream: "ELSEWHERE", subjectPrefix: "weatherd", logIDs: [])
        }
    }
}
