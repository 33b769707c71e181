import Foundation
import WeatherDomain
import WeatherService

/// Three real `nats-server`s with JetStream on loopback ports, routed to each other as one cluster
/// (`weatherd-test`, nodes `n1`, `n2`, `n3`), each with a store of its own.
package final class NATSCluster: Sendable {
    /// The nodes, `n1` first.
    package let nodes: [NATSServerProcess]

    /// Starts three nodes, each routed to the other two.
    ///
    /// - Throws: when a port cannot be found or a server cannot be started (those started are stopped).
    package init() throws {
        let ports = try NATSServerProcess.freePorts(6)
        let clusterPorts = Array(ports[3...])
        var nodes: [NATSServerProcess] = []
        do {
            for index in 0..<3 {
                let peering = NATSServerProcess.Peering(
                    name: "n\(index + 1)", clusterName: "weatherd-test", clusterPort: clusterPorts[index],
                    routes: clusterPorts.enumerated().filter { $0.offset != index }.map(\.element))
                nodes.append(try NATSServerProcess(port: ports[index], peering: peering))
            }
        } catch {
            nodes.forEach { $0.stop() }
            throw error
        }
        self.nodes = nodes
    }

    /// A cluster whose nodes take connections, or nil when the test is skipped (`NATSServerProcess.runnable()`).
    ///
    /// - Throws: under `CI=true` without `nats-server`, or when a node does not start listening.
    package static func started() async throws -> NATSCluster? {
        guard try NATSServerProcess.runnable() else { return nil }
        let cluster = try NATSCluster()
        let listening = await eventually { cluster.nodes.allSatisfy(\.accepting) }
        guard listening else {
            cluster.stop()
            throw RunningWeatherdError("the nats-server cluster did not start listening")
        }
        return cluster
    }

    /// The node named `name` (`n1`…).
    package func node(named name: String) -> NATSServerProcess? { nodes.first { $0.peering?.name == name } }

    /// Creates `stream` on `subjects` with a replica on every node, asking `node` again until the cluster can
    /// (its JetStream meta leader is elected and knows all three nodes); false only when the hang guard fires.
    package func createStream(_ stream: String, subjects: [String], asking node: NATSServerProcess) async -> Bool {
        await eventually {
            do {
                let connection = try await node.connect()
                defer { connection.close() }
                try await JetStream(connection).createStream(stream, subjects: subjects, replicas: 3)
                return true
            } catch {
                return false
            }
        }
    }

    /// The name of the node that leads `stream` now (`STREAM.INFO` → `cluster.leader`), asked of `node`; nil
    /// while it has none, or while the cluster cannot say (no answer during an election).
    package func leader(of stream: String, asking node: NATSServerProcess) async -> String? {
        do {
            let connection = try await node.connect()
            defer { connection.close() }
            let answer = try await connection.call("$JS.API.STREAM.INFO.\(stream)")
            return try JSONValue.parse(answer.payload)["cluster"]?["leader"]?.stringValue
        } catch {
            return nil
        }
    }

    /// Stops every node and removes their stores.
    package func stop() { nodes.forEach { $0.stop() } }
}
