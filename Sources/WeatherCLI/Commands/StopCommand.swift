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
            client = try LineClient(fd: try DaemonLauncher.connect(path: path), loop: context.environment.runtime.loop)
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
        // Followed by a pidfd from before the signal: its end is seen, never mistaken for a later process's.
        guard let pid = status["pid"]?.intValue.map(pid_t.init), pid > 0, let daemon = ProcessHandle(pid: pid),
            daemon.send(SIGTERM)
        else {
            output.error("weatherd stop: cannot signal the daemon: \(String(cString: strerror(errno)))")
            return CLI.Exit.failed
        }
        guard await gone(daemon, socket: path, runtime: context.environment.runtime) else {
            output.error("weatherd stop: the daemon (pid \(pid)) had not stopped after \(guardLimit)")
            return CLI.Exit.failed
        }
        output.print("stopped the weatherd daemon (pid \(pid))")
        return CLI.Exit.ok
    }

    /// Waits until the process has exited and then until its socket file is gone (polling, growing to 100 ms
    /// apart), on the runtime's clock; false when the guard ran out first.
    static func gone(_ daemon: ProcessHandle, socket: String, runtime: Runtime) async -> Bool {
        let clock = runtime.clock
        let giveUp = clock.now.advanced(by: guardLimit)
        let exited = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await daemon.exit(on: runtime.loop)
                return !Task.isCancelled
            }
            group.addTask {
                try? await clock.sleep(until: giveUp, tolerance: nil)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard exited else { return false }
        var pause = Duration.milliseconds(5)
        while FileManager.default.fileExists(atPath: socket) {
            guard clock.now < giveUp else { return false }
            do { try await clock.sleep(for: pause) } catch { return false }
            pause = min(pause * 2, .milliseconds(100))
        }
        return true
    }
}
