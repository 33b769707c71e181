import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real `nats-server` with JetStream, started by a test on a loopback port with its store in a temporary
/// directory; it can be killed and started again on the same port and store.
package final class NATSServerProcess: @unchecked Sendable {
    // @unchecked: `process` is replaced only by `start` and `kill`, which a test calls from one task.
    /// Why no server can be started here (`nats-server` is not installed); nil when one can.
    package static var unavailable: String? {
        executable == nil ? "nats-server is not installed (apt-get install -y nats-server)" : nil
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
    private var process: TestProcess?

    /// Starts a server on a free port.
    package init() throws {
        port = try Self.freePort()
        storeDirectory = NSTemporaryDirectory() + "weatherd-nats-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: storeDirectory, withIntermediateDirectories: true)
        try start()
    }

    /// `nats://127.0.0.1:<port>`.
    package var url: String { "nats://127.0.0.1:\(port)" }

    /// Starts it (again), and returns once it takes connections.
    package func start() throws {
        guard let executable = Self.executable else { throw CocoaError(.fileNoSuchFile) }
        process = try TestProcess(
            executable, arguments: ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", storeDirectory],
            environment: [:])
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
