import Foundation
import Synchronization
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private `dbus-daemon` for one test, where the machine has one: a session bus listening on a socket in a
/// temporary directory, or on a name in the abstract namespace (Linux). It is ended with SIGKILL: a bus has
/// nothing to save, and asking it to stop and waiting for it has hung a run before.
package final class RealSessionBus: Sendable {
    /// Where the bus listens.
    package enum Listen: Sendable {
        case path
        case abstract
    }

    /// The installed `dbus-daemon`, or nil.
    package static let executable: String? = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether a test that needs `dbus-daemon` runs: where one is installed, and always under `CI=true`, where a
    /// missing one fails the test (`init` throws) instead of skipping it.
    package static var testable: Bool {
        executable != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// What a skipped test says.
    package static let skipped =
        "skipped: no dbus-daemon on this machine (install dbus-daemon to run it; under CI=true it fails instead)"

    /// Whether sockets can be named in the abstract namespace here.
    package static var abstractSockets: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// The address the daemon printed, to give as `DBUS_SESSION_BUS_ADDRESS`.
    package let address: String
    /// The temporary directory it listens in (with `.path`) and keeps its configuration in.
    package let directory: String
    /// The daemon (reaped once killed).
    private let process: Mutex<TestProcess?>

    /// Starts `dbus-daemon` with a session configuration that lets any client own any name, and waits for the
    /// address it prints once it listens.
    ///
    /// - Throws: when there is no `dbus-daemon`, or it ends without printing an address (its stderr is told).
    package init(_ listen: Listen = .path) async throws {
        guard let executable = Self.executable else { throw RunningWeatherdError("no dbus-daemon here") }
        directory = NSTemporaryDirectory() + "wd-dbus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let listening =
            switch listen {
            case .path: "unix:path=\(directory)/bus"
            case .abstract: "unix:abstract=/tmp/weatherd-test-\(UUID().uuidString.prefix(12))"
            }
        let config = directory + "/session.conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>\(listening)</listen><auth>EXTERNAL</auth>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
        <allow own="*"/></policy></busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try TestProcess(
            executable, arguments: ["--config-file=\(config)", "--nofork", "--print-address=1"],
            environment: ProcessInfo.processInfo.environment, standardOutput: .pipe, standardError: .pipe)
        process = Mutex(daemon)
        let line = await onOwnThread(named: "dbus-daemon-address") { [output = daemon.output!] in
            Self.firstLine(output.fileDescriptor)
        }
        address = line
        guard !line.isEmpty else {
            daemon.send(SIGKILL)
            let said = await onOwnThread(named: "dbus-daemon-errors") { [errors = daemon.errors!] in
                String(decoding: errors.readDataToEndOfFile(), as: UTF8.self)
            }
            throw RunningWeatherdError("dbus-daemon printed no address: \(said)")
        }
    }

    /// Kills the daemon (once) and removes its directory.
    package func stop() {
        guard let daemon = process.withLock({ $0.take() }) else { return }
        daemon.send(SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    /// The first line read from `fd`, without its newline; empty when it ends first.
    private static func firstLine(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 4096, read(fd, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
