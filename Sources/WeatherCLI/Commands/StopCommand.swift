import Foundation
import WeatherDomain
import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `weatherd stop`: stops the data dir's daemon, as SIGTERM does, and waits until it is gone.
enum StopCommand {
    /// How long a daemon may take to stop before the command gives up on it (it takes 0.5 s for what is in
    /// flight, plus a snapshot): a guard for a daemon that hangs, not a verdict on a slow one.
    static let guardLimit = Duration.seconds(120)

    static let command = Command(
        name: "stop", summary: "stop the data dir's daemon (the next command starts it with its own settings)",
        details: """
            Stops the daemon serving the data dir (on --socket, else the data dir's default socket): it is sent
            SIGTERM, finishes what is in flight, records service.stopped and removes its socket, and the
            command waits for that. The next command or client starts a new daemon with its own options and
            environment, which is how a changed flag or OWM_API_KEY reaches it. With no daemon running it says
            so and exits 0. A daemon run by systemd is restarted by systemd instead.

            example:
              weatherd stop && weatherd now Berlin --cache-ttl 60
            """,
        local: { context in await stop(context) }
    ) { _ in CLI.Exit.ok }

    /// Connects to the daemon, asks its pid, sends it SIGTERM and waits for its socket and process to go.
    static func stop(_ context: LocalContext) async -> Int32 {
        let output = context.output
        var path: String
        let client: LineClient
        do {
            path = try Daemon.socketPath(context.configuration, environment: context.environment.variables)
            let dataDirectory = SocketPath.standardize(
                context.configuration.dataDirectory, currentDirectory: FileManager.default.currentDirectoryPath)
            // The data dir's daemon where its lock says it listens, when that is not this client's socket.
            path =
                RelayClient.runningSocket(context.configuration, dataDirectory: dataDirectory, otherThan: path) ?? path
            client = LineClient(fd: try DaemonLauncher.connect(path: path))
        } catch DaemonLauncher.ConnectError.noDaemon {
            output.print("no weatherd daemon is running for \(context.configuration.dataDirectory)")
            return CLI.Exit.ok
        } catch {
            output.error("weatherd stop: \(CLI.message(error))")
            return CLI.Exit.unavailable
        }
        let status: JSONValue
        do {
            status = try await client.call("service/status")
        } catch {
            await client.close()
            output.error("weatherd stop: \(CLI.message(error))")
            return CLI.Exit.unavailable
        }
        await client.close()
        guard let pid = status["pid"]?.intValue.map(pid_t.init), pid > 0, kill(pid, SIGTERM) == 0 else {
            output.error("weatherd stop: cannot signal the daemon: \(String(cString: strerror(errno)))")
            return CLI.Exit.failed
        }
        guard await gone(pid: pid, socket: path, clock: context.environment.clock) else {
            output.error("weatherd stop: the daemon (pid \(pid)) had not stopped after \(guardLimit)")
            return CLI.Exit.failed
        }
        output.print("stopped the weatherd daemon (pid \(pid))")
        return CLI.Exit.ok
    }

    /// Waits until the process has exited and its socket file is gone (polling, growing to 100 ms apart);
    /// false when the guard ran out first.
    static func gone(pid: pid_t, socket: String, clock: any RuntimeClock) async -> Bool {
        let giveUp = clock.now.advanced(by: guardLimit)
        var pause = Duration.milliseconds(5)
        while runs(pid) || FileManager.default.fileExists(atPath: socket) {
            guard clock.now < giveUp else { return false }
            try? await clock.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(100))
        }
        return true
    }

    /// Whether the process runs: it exists and, where `/proc` tells, is not a zombie waiting to be reaped.
    static func runs(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }
}
