import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: kill -9 while shipping to NATS JetStream")
struct KillShippingEndToEndTests {
    @Test(
        "15 kills at random points while shipping: the stream holds every committed event once, in order, and no other"
    )
    func killWhileShipping() async throws {
        guard let server = try await NATSServerProcess.started() else { return }
        defer { server.stop() }
        let shared = try SharedDataDir()
        // The kill points come from this seed: a failure names it, and KILL_SHIPPING_SEED replays it.
        let seed = UInt64(ProcessInfo.processInfo.environment["KILL_SHIPPING_SEED"] ?? "") ?? 38
        print("kill -9 while shipping: seed \(seed)")
        var random = SeededGenerator(state: seed)
        var number = 0
        for _ in 0..<15 {
            let running = try await ShippingDaemon(shared, nats: server.url)
            // Some cycles write nothing: the kill then falls while the backlog ships.
            let count = Int.random(in: 0...30, using: &random)
            let changes = (0..<count).map { _ -> (method: String, params: JSONValue) in
                number += 1
                if number % 7 == 0 {
                    return ("settings/set", ["units": number % 2 == 0 ? "imperial" : "metric"])
                }
                return (
                    "favorites/add", ["name": .string("P\(number)"), "lat": .double(Double(number) / 100), "lon": 0]
                )
            }
            try running.send(changes)
            // Killed once this many answers are in: the rest are in flight, being written or being shipped.
            #expect(try await running.answered(Int.random(in: 0...count, using: &random)))
            await running.kill()
        }
        let final = try await ShippingDaemon(shared, nats: server.url)
        let lastSeq = try await final.caughtUp()
        await final.kill()
        try await expectStream(of: server, holdsLogOf: shared.directory, through: lastSeq)
        #expect(lastSeq > Int64(number / 2), "the changes were committed")
    }
}
