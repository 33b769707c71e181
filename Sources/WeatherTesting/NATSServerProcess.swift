import Foundation
import WeatherEngine
import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real `nats-server` with JetStream, started by a test on a loopback port with its store in a temporary
/// directory; it can be killed and started again on the same port and store, alone or as a node of a cluster
/// (`NATSCluster`).
package final class NATSServerProcess: @unchecked Sendable {
    // @unchecked: `process` is replaced only by `start` and `kill`, which a test calls from one task.
    /// What makes a server a node of a cluster.
    package struct Peering: Sendable {
        /// Its server name (`-n`), which JetStream's cluster names leaders by.
        package var name: String
        package var clusterName: String
        /// The port it takes routes on.
        package var clusterPort: Int
        /// The other nodes' cluster ports.
        package var routes: [Int]
    }

    /// Why no server can be started here (`nats-server` is not installed); nil when one can.
    package static var unavailable: String? {
        executable == nil ? "nats-server is not installed (apt-get install -y nats-server)" : nil
    }

    /// Whether a test that needs `nats-server` runs: true where one is installed; elsewhere false after printing
    /// why (a skip), except under `CI=true`, where a missing server is a failure: it throws the reason.
    package static func runnable() throws -> Bool {
        guard let why = unavailable else { return true }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            throw RunningWeatherdError("nats-server is needed under CI: \(why)")
        }
        print("skipped: \(why)")
        return false
    }

    /// A server taking connections, or nil when the test is skipped (see `runnable()`).
    ///
    /// - Throws: under `CI=true` without `nats-server`, or when it does not start listening.
    package static func started() async throws -> NATSServerProcess? {
        guard try runnable() else { return nil }
        let server = try NATSServerProcess()
        let listening = await eventually { server.accepting }
        guard listening else {
            server.stop()
            throw RunningWeatherdError("nats-server did not start listening on \(server.port)")
        }
        return server
    }

    private static var executable: String? {
        ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// The port it listens on.
    package let port: Int
    /// Its JetStream store.
    package let storeDirectory: String
    /// Its place in a cluster; nil for a server alone.
    package let peering: Peering?
    private var process: TestProcess?

    /// Starts a server on `port` (else a free one), alone or as a node of a cluster.
    package init(port: Int? = nil, peering: Peering? = nil) throws {
        self.port = try port ?? Self.freePort()
        self.peering = peering
        storeDirectory = NSTemporaryDirectory() + "weatherd-nats-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: storeDirectory, withIntermediateDirectories: true)
        try start()
    }

    /// `nats://127.0.0.1:<port>`.
    package var url: String { "nats://127.0.0.1:\(port)" }

    /// Starts it (again), and returns once it takes connections.
    package func start() throws {
        guard let executable = Self.executable else { throw CocoaError(.fileNoSuchFile) }
        var arguments = ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", storeDirectory]
        if let peering {
            arguments += [
                "-n", peering.name, "--cluster_name", peering.clusterName, "--cluster",
                "nats://127.0.0.1:\(peering.clusterPort)", "--routes",
                peering.routes.map { "nats://127.0.0.1:\($0)" }.joined(separator: ","),
            ]
        }
        process = try TestProcess(executable, arguments: arguments, environment: [:])
    }

    /// Whether it accepts a TCP connection now.
    package var accepting: Bool {
        guard let fd = try? connectToLoopback(port: port) else { return false }
        close(fd)
        return true
    }

    /// Kills it (SIGKILL) and waits until it is gone.
    package func kill() async {
        guard let process else { return }
        process.send(SIGKILL)
        _ = await process.exit()
        self.process = nil
    }

    /// Kills it (SIGKILL, reaped once it is gone) and removes its store.
    package func stop() {
        process?.send(SIGKILL)
        process = nil
        try? FileManager.default.removeItem(atPath: storeDirectory)
    }

    /// A new connection to it (the caller closes it).
    ///
    /// - Throws: `NATSError` when it cannot connect.
    package func connect() async throws -> NATSConnection {
        try await NATSConnection.connect(to: try NATSURL.parse(url).endpoint, credentials: nil, runtime: .testing())
    }

    /// Every message `stream` holds on `subject`, in stream order.
    ///
    /// - Throws: `NATSError`.
    package func messages(in stream: String = "WEATHERD", subject: String) async throws -> [JetStream.StoredMessage] {
        let connection = try await connect()
        defer { connection.close() }
        let jetStream = JetStream(connection)
        var messages: [JetStream.StoredMessage] = []
        var next: Int64 = 1
        while let message = try await jetStream.nextMessage(stream, subject: subject, from: next) {
            messages.append(message)
            next = message.streamSeq + 1
        }
        return messages
    }

    /// `count` distinct free loopback ports.
    static func freePorts(_ count: Int) throws -> [Int] {
        var ports: [Int] = []
        while ports.count < count {
            let port = try freePort()
            if !ports.contains(port) { ports.append(port) }
        }
        return ports
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now (the system's choice for a socket bound to port 0).
    package static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
