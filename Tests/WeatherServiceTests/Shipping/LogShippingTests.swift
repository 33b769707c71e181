import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherTesting
import WeatherWire

@testable import WeatherService

/// A real `nats-server`, or nil with the reason told: under `CI=true` its absence is a failure, elsewhere a skip.
func natsServer() async throws -> NATSServerProcess? {
    if let why = NATSServerProcess.unavailable {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("nats-server is needed under CI: \(why)")
        } else {
            print("skipped: \(why)")
        }
        return nil
    }
    let server = try NATSServerProcess()
    #expect(await eventually { server.accepting }, "nats-server did not start listening")
    return server
}

@Suite("Shipping the log to NATS JetStream (a real nats-server)", .serialized)
struct LogShippingTests {
    /// A shipper for `service` to `server`, running until the returned task is cancelled.
    private func startShipping(_ service: InProcessWeatherd, to server: NATSServerProcess, directory: String) throws
        -> (LogShipper, Task<Void, any Error>)
    {
        var configuration = Configuration(dataDirectory: directory)
        configuration.nats = try NATSURL.parse(server.url)
        let shipper = LogShipper(
            engine: service.engine, settings: try #require(try LogShipper.settings(for: configuration)))
        return (shipper, Task { try await shipper.run() })
    }

    /// Waits until the stream acknowledged every committed event, moving the manual clock while the shipper
    /// waits out a backoff (only then: nothing else it waits for is on that clock).
    private func caughtUp(_ shipper: LogShipper, _ service: InProcessWeatherd) async -> Bool {
        await eventually {
            let status = shipper.current
            if !status.connected, service.clock.sleeperCount(until: nil) > 0 { service.clock.advance(by: .seconds(30)) }
            return status.connected && status.lag(lastSeq: service.engine.follower.lastSeq) == 0
        }
    }

    /// The lines of the data dir's log, without their newlines.
    private func logLines(_ directory: String) throws -> [[UInt8]] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/events.jsonl")))
        return bytes.split(separator: UInt8(ascii: "\n")).map(Array.init)
    }

    /// Every message the stream holds on `subject`, in stream order.
    private func streamMessages(_ server: NATSServerProcess, subject: String) async throws -> [JetStream.StoredMessage]
    {
        let runtime = Runtime.testing()
        let connection = try await NATSConnection.connect(
            to: try NATSURL.parse(server.url).endpoint, credentials: nil, runtime: runtime)
        defer { connection.close() }
        let jetStream = JetStream(connection)
        var messages: [JetStream.StoredMessage] = []
        var next: Int64 = 1
        while let message = try await jetStream.nextMessage("WEATHERD", subject: subject, from: next) {
            messages.append(message)
            next = message.streamSeq + 1
        }
        return messages
    }

    private func addFavorites(_ service: InProcessWeatherd, _ names: some Sequence<Int>) async throws {
        for number in names {
            _ = try await service.result(
                "favorites/add", ["name": .string("Place \(number)"), "lat": .double(Double(number) / 10), "lon": 5])
        }
    }

    @Test("every committed event is in the stream exactly once and in order, across a server and a weatherd restart")
    func exactlyOnceAcrossRestarts() async throws {
        guard let server = try await natsServer() else { return }
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

        let logID = try #require(try LogIdentity.read(directory: directory.path))
        let messages = try await streamMessages(server, subject: "weatherd.\(logID)")
        let lines = try logLines(directory.path)
        #expect(messages.count == lines.count)
        #expect(messages.map(\.data) == lines)
        #expect(messages.map { $0.headers?["Nats-Msg-Id"] } == lines.indices.map { "\(logID)-\($0 + 1)" })
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.streamSeq < $1.streamSeq })
    }

    @Test("a stream that does not take the log's subject: one clear line in the status, nothing lost")
    func streamWithoutTheSubject() async throws {
        guard let server = try await natsServer() else { return }
        defer { server.stop() }
        let runtime = Runtime.testing()
        let connection = try await NATSConnection.connect(
            to: try NATSURL.parse(server.url).endpoint, credentials: nil, runtime: runtime)
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
