import Foundation
import WeatherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sockets passed by a service manager (systemd socket activation, `sd_listen_fds`).
///
/// The manager sets `LISTEN_PID` to the process it starts and `LISTEN_FDS` to how many sockets it passes,
/// from descriptor 3 on (`LISTEN_FDNAMES` optionally names them). weatherd listens on one socket: the first.
package enum SystemdSockets {
    /// The first passed descriptor (`SD_LISTEN_FDS_START`).
    package static let firstDescriptor: Int32 = 3

    /// What the environment says was passed.
    package struct Passed: Sendable, Equatable {
        /// The descriptor weatherd listens on: always `firstDescriptor`.
        package var descriptor: Int32
        /// How many descriptors were passed.
        package var count: Int
        /// Their names from `LISTEN_FDNAMES`, empty when unset.
        package var names: [String]

        package init(descriptor: Int32, count: Int, names: [String]) {
            self.descriptor = descriptor
            self.count = count
            self.names = names
        }
    }

    /// The environment variables of the protocol, unset once read so that children do not inherit them.
    package static let variables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

    /// Reads the protocol's variables from `environment`, without touching any descriptor.
    ///
    /// - Returns: nil when nothing was passed to the process `pid` (`LISTEN_PID` missing, not `pid`, or
    ///   `LISTEN_FDS` 0).
    /// - Throws: `SocketError` when `LISTEN_PID` is `pid` but `LISTEN_FDS` is not a count.
    package static func parse(environment: [String: String], pid: Int32) throws(SocketError) -> Passed? {
        guard let listenPID = environment["LISTEN_PID"].flatMap({ Int32($0) }), listenPID == pid else { return nil }
        guard let text = environment["LISTEN_FDS"], let count = Int(text), count >= 0 else {
            throw SocketError(
                "LISTEN_FDS is \"\(environment["LISTEN_FDS"] ?? "")\", not a count of sockets; "
                    + "check the service manager's socket unit")
        }
        guard count >= 1 else { return nil }
        let names = environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false) }
        return Passed(descriptor: firstDescriptor, count: count, names: names?.map(String.init) ?? [])
    }

    /// The listener passed to this process, if any: parses the process environment, unsets the variables,
    /// marks every passed descriptor close-on-exec and checks that the first is a listening Unix stream socket.
    ///
    /// - Throws: `SocketError` when the variables are malformed or descriptor 3 is not such a socket.
    package static func take() throws(SocketError) -> UnixListener? {
        let environment = ProcessInfo.processInfo.environment
        for name in variables { unsetenv(name) }
        guard let passed = try parse(environment: environment, pid: getpid()) else { return nil }
        for offset in 0..<Int32(clamping: passed.count) { UnixSocket.setCloseOnExec(firstDescriptor + offset) }
        return try UnixListener(adopting: passed.descriptor)
    }
}
