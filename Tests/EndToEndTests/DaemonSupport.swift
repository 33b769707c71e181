import Foundation
import Testing
import WeatherDomain
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A data dir with a runtime dir of its own (`XDG_RUNTIME_DIR`), whose clients reach the shared daemon
/// through the relay, as every program on a laptop would. The daemon is stopped when this is released.
final class SharedDataDir: Sendable {
    let directory = TemporaryDataDirectory()
    /// A short runtime dir (socket paths are limited to 107 bytes).
    let runtime: String

    init() throws {
        runtime = "/tmp/wr-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        if let pid = lockHolderPID(dataDirectory: directory.path) { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(atPath: runtime)
    }

    var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime] }

    /// The daemon's socket.
    var socketPath: String {
        get throws { try SocketPath.defaultPath(dataDirectory: directory.path, environment: environment) }
    }

    /// A client (`weatherd` with no subcommand), started with `extra` options.
    func client(_ extra: [String] = [], readOutput: Bool = true) throws -> RunningWeatherd {
        try RunningWeatherd(
            arguments: ["--data-dir", directory.path, "--log-level", "warning", "--idle-exit", "120"] + quietTimers
                + extra,
            environment: environment, readOutput: readOutput)
    }

    /// The pid of the last daemon that started on this data dir (from its `service.started`).
    func daemonPID() throws -> Int32? {
        let started = try logEvents(directory).last { $0["type"] == "service.started" }
        return started?["data"]?["pid"]?.intValue.map { Int32($0) }
    }

    /// Asks `client` for `service/status` until the daemon serves exactly `count` connections (false only when
    /// the hang guard fires: the daemon lives in another process, so it is asked again every 50 ms).
    func connections(become count: Int64, asking client: RunningWeatherd) async throws -> Bool {
        let giveUp = ContinuousClock.now.advanced(by: hangGuardLimit)
        while ContinuousClock.now < giveUp {
            if try await client.call("service/status")["result"]?["connections"] == .int(count) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Whether the detached daemon's log file (`weatherd.log` in the data dir) holds `text`.
    func logMentions(_ text: String) -> Bool {
        let log = (try? String(contentsOfFile: directory.path + "/weatherd.log", encoding: .utf8)) ?? ""
        return log.contains(text)
    }

    /// Whether the log ends with `service.stopped` (the daemon is gone or going).
    func stopped() throws -> Bool { try logEvents(directory).last?["type"] == "service.stopped" }

    /// SIGTERMs the daemon and waits until it has recorded `service.stopped` and removed its socket.
    func stopDaemon() async throws {
        guard let pid = lockHolderPID(dataDirectory: directory.path), try !stopped() else { return }
        kill(pid, SIGTERM)
        let socket = try socketPath
        #expect(
            try await eventually {
                try self.stopped() && !FileManager.default.fileExists(atPath: socket)
            }, "the daemon stopped")
    }
}

/// The number of live processes whose command line holds every one of `parts`.
func processCount(containing parts: [String]) -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.filter { entry in
        guard Int(entry) != nil,
            let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
            let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
            !status.contains("State:\tZ")
        else { return false }
        let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        return parts.allSatisfy { line.contains($0) }
    }.count
}
