import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherTesting
import WeatherWire

@testable import WeatherService

@Suite("Shipping the log to NATS JetStream (a real nats-server)", .serialized)
struct LogShippingTests {
    @Test("every committed event is in the stream exactly once and in order, across a server and a weatherd restart")
    func exactlyOnceAcrossRestarts() async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        let directory = TemporaryDataDirectory()
        var service = try InProcessWeatherd(directory: directory)
        var (shipper, task) = try startShipping(service, to: server, directory: directory.path)
        try await addFavorites(service, 1...20)
        #expect(await caughtUp(shipper, service))
        #expect(shipper.current.published == service.engine.follower.lastSeq)

        // The broker dies: changes go on, the lag grows.
        await server.kill()
        try await addFavorites(service, 21...30)
        #expect(await eventually { !shipper.current.connected })
        #expect(shipper.current.lag(lastSeq: service.engine.follower.lastSeq) >= 10)
        #expect(shipper.current.problem != nil)

        // It comes back (same store): the backlog ships.
        try server.start()
        #expect(await eventually { server.accepting })
        #expect(await caughtUp(shipper, service))

        // weatherd restarts on the same data dir: same log id, resumes from the stream.
        let shippedBeforeRestart = shipper.current.shippedSeq
        task.cancel()
        _ = await task.result
        await service.stop()
        service = try InProcessWeatherd(directory: directory)
        (shipper, task) = try startShipping(service, to: server, directory: directory.path)
        try await addFavorites(service, 31...35)
        #expect(await caughtUp(shipper, service))
        #expect(shipper.current.published == service.engine.follower.lastSeq - shippedBeforeRestart)
        task.cancel()
        _ = await task.result
        await service.stop()

        try await expectStream(of: server, holdsLogOf: directory.path)
    }

    @Test("a stream deleted while shipping: one clear line, then it is made again and holds the whole log once")
    func streamDeletedWhileShipping() async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory)
        let (shipper, task) = try startShipping(service, to: server, directory: directory.path)
        try await addFavorites(service, 1...10)
        #expect(await caughtUp(shipper, service))

        let connection = try await server.connect()
        _ = try await connection.call("$JS.API.STREAM.DELETE.WEATHERD")
        connection.close()
        try await addFavorites(service, 11...15)
        // The manual clock holds the shipper in its backoff: the line stays until the test moves it.
        #expect(await eventually { shipper.current.problem != nil })
        #expect(
            shipper.current.problem?.contains("was the stream WEATHERD deleted, or is its leader being elected?")
                == true)
        #expect(await caughtUp(shipper, service))
        task.cancel()
        _ = await task.result
        await service.stop()

        try await expectStream(of: server, holdsLogOf: directory.path)
    }

    @Test(
        "a publish lost while a later one was stored (a stream leader changing): the hole is one clear line, shipping goes on"
    )
    func holeAfterALostPublish() async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory)
        let (shipper, task) = try startShipping(service, to: server, directory: directory.path)
        try await addFavorites(service, 1...5)
        #expect(await caughtUp(shipper, service))
        let acknowledged = service.engine.follower.lastSeq

        // The broker goes away with events to ship; of them, only the last reaches the stream, as when a new leader
        // stores a later publish after an earlier one was answered "no responders". The manual clock holds the
        // shipper in its backoff meanwhile.
        await server.kill()
        try await addFavorites(service, 6...8)
        #expect(await eventually { !shipper.current.connected })
        let last = service.engine.follower.lastSeq
        try #require(last - acknowledged >= 2)
        try server.start()
        #expect(await eventually { server.accepting })
        let logID = try #require(try LogIdentity.read(directory: directory.path))
        let connection = try await server.connect()
        let stored = try connection.request(
            "weatherd.\(logID)", headers: NATSHeaders([("Nats-Msg-Id", "\(logID)-\(last)")]),
            payload: try logLines(directory.path)[Int(last) - 1])
        _ = try JetStream.pubAck(try await stored.answer())
        connection.close()

        #expect(await caughtUp(shipper, service))
        let problem = try #require(shipper.current.problem)
        let missing = last - 1 > acknowledged + 1 ? "\(acknowledged + 1)…\(last - 1)" : "\(acknowledged + 1)"
        #expect(problem.contains("the stream lacks seq \(missing) of log \(logID)"), "\(problem)")
        try await addFavorites(service, 9...10)
        #expect(await caughtUp(shipper, service))
        task.cancel()
        _ = await task.result
        await service.stop()

        let lines = try logLines(directory.path)
        let messages = try await server.messages(subject: "weatherd.\(logID)")
        let kept = Array(lines[..<Int(acknowledged)]) + Array(lines[Int(last - 1)...])
        #expect(messages.map(\.data) == kept, "everything but the hole, once and in order")
    }

    @Test("a stream that does not take the log's subject: one clear line in the status, nothing lost")
    func streamWithoutTheSubject() async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        let connection = try await server.connect()
        try await JetStream(connection).createStream("WEATHERD", subjects: ["other.>"])
        connection.close()
        try await InProcessWeatherd.with { service in
            let directory = await service.engine.status().dataDir
            let (shipper, task) = try startShipping(service, to: server, directory: directory)
            try await addFavorites(service, 1...3)
            #expect(await eventually { shipper.current.problem != nil })
            let problem = try #require(shipper.current.problem)
            #expect(problem.contains("does not take weatherd."))
            #expect(problem.contains("other.>"))
            #expect(shipper.current.published == 0)
            #expect(shipper.current.lag(lastSeq: service.engine.follower.lastSeq) == service.engine.follower.lastSeq)
            let status = await service.engine.status()
            #expect(status.shipping?.problem == problem)
            task.cancel()
            _ = await task.result
        }
    }
}

@Suite("NATS credentials file")
struct NATSCredentialsTests {
    @Test("user and password, or a token, with comments and blank lines")
    func reads() throws {
        #expect(
            try NATSCredentials(parsing: "# weatherd\nuser=kiosk\n\npassword=s3=cret\n")
                == NATSCredentials(user: "kiosk", password: "s3=cret"))
        #expect(try NATSCredentials(parsing: "token=abc\n") == NATSCredentials(token: "abc"))
    }

    @Test(
        "a wrong file is refused, naming the line but never the value",
        arguments: [
            "user=a\n", "password=b\n", "token=t\nuser=a\npassword=b\n", "", "secret-value\n", "pin=4\n",
        ])
    func refuses(text: String) {
        do {
            _ = try NATSCredentials(parsing: text)
            Issue.record("\(text.debugDescription) was accepted")
        } catch {
            #expect(error.kind == "nats_bad_credentials")
            #expect(!error.description.contains("secret-value"))
        }
    }
}
