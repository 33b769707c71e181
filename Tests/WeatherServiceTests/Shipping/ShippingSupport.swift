import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherTesting
import WeatherWire

@testable import WeatherService

/// A shipper for `service` to `server`, running until the returned task is cancelled.
func startShipping(_ service: InProcessWeatherd, to server: NATSServerProcess, directory: String) throws
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
func caughtUp(_ shipper: LogShipper, _ service: InProcessWeatherd) async -> Bool {
    await eventually {
        let status = shipper.current
        if !status.connected, service.clock.sleeperCount(until: nil) > 0 { service.clock.advance(by: .seconds(30)) }
        return status.connected && status.lag(lastSeq: service.engine.follower.lastSeq) == 0
    }
}

/// The lines of the data dir's log, without their newlines.
func logLines(_ directory: String) throws -> [[UInt8]] {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/events.jsonl")))
    return bytes.split(separator: UInt8(ascii: "\n")).map(Array.init)
}

func addFavorites(_ service: InProcessWeatherd, _ names: some Sequence<Int>) async throws {
    for number in names {
        _ = try await service.result(
            "favorites/add", ["name": .string("Place \(number)"), "lat": .double(Double(number) / 10), "lon": 5])
    }
}

/// Checks that `server`'s stream holds the data dir's log exactly: each line once, in seq order, as the log holds it,
/// with its `Nats-Msg-Id`, in increasing stream sequence.
func expectStream(of server: NATSServerProcess, holdsLogOf directory: String) async throws {
    let logID = try #require(try LogIdentity.read(directory: directory))
    let messages = try await server.messages(subject: "weatherd.\(logID)")
    let lines = try logLines(directory)
    #expect(messages.count == lines.count)
    #expect(messages.map(\.data) == lines)
    #expect(messages.map { $0.headers?["Nats-Msg-Id"] } == lines.indices.map { "\(logID)-\($0 + 1)" })
    #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.streamSeq < $1.streamSeq })
}
