import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: shipping to a three-node NATS cluster")
struct ClusterShippingEndToEndTests {
    @Test("the leader of a three-replica stream killed while shipping: every committed event once, in order")
    func leaderKilled() async throws {
        guard let cluster = try await NATSCluster.started() else { return }
        defer { cluster.stop() }
        let first = cluster.nodes[0]
        #expect(await cluster.createStream("WEATHERD", subjects: ["weatherd.>"], asking: first))
        var leaderName: String?
        #expect(
            await eventually(asking: {
                leaderName = await cluster.leader(of: "WEATHERD", asking: first)
                return leaderName != nil
            }))
        let leader = try #require(cluster.node(named: leaderName ?? ""))
        // weatherd takes one URL: it ships through a node that stays up while the stream's leader goes.
        let entry = try #require(cluster.nodes.first { $0 !== leader })
        let shared = try SharedDataDir()
        let running = try await ShippingDaemon(shared, nats: entry.url)

        func favorites(_ numbers: ClosedRange<Int>) -> [(method: String, params: JSONValue)] {
            numbers.map { ("favorites/add", ["name": .string("P\($0)"), "lat": .double(Double($0) / 100), "lon": 0]) }
        }
        try running.send(favorites(1...150))
        #expect(try await eventually(asking: { try await running.shipping().facts["shippedSeq"]?.intValue ?? 0 >= 20 }))
        // Killed while the next changes are being written and shipped, and more come after.
        try running.send(favorites(151...200))
        await leader.kill()
        try running.send(favorites(201...250))
        #expect(try await running.answered(250))
        var newLeader: String?
        #expect(
            await eventually(asking: {
                newLeader = await cluster.leader(of: "WEATHERD", asking: entry)
                return newLeader != nil
            }))
        #expect(newLeader != leaderName)
        let lastSeq = try await running.caughtUp()
        await running.kill()
        try await expectStream(of: entry, holdsLogOf: shared.directory, through: lastSeq)
        #expect(lastSeq > 250, "the changes were committed")
    }
}
