import Foundation
import Providers
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService

/// weatherd's commands for people and scripts (`weatherd now`, `weatherd favorites`, …): each is a JSON-RPC
/// client of the data dir's shared daemon (started when none runs) or, with `--standalone`, of an engine in
/// this process. A command prints for people, or its method's result with `--json`.
package enum CLI {
    /// The exit statuses of every command.
    package enum Exit {
        /// Done.
        package static let ok: Int32 = 0
        /// The request failed (an unknown place, no weather available, a refused change); the reason is on
        /// standard error.
        package static let failed: Int32 = 1
        /// The command line is wrong; the usage is on standard error (`EX_USAGE`).
        package static let usage: Int32 = 64
        /// weatherd could not be reached: no daemon could be started, or (with `--standalone`) the data dir
        /// could not be opened (`EX_UNAVAILABLE`).
        package static let unavailable: Int32 = 69
    }

    /// Every command, in the order `weatherd --help` lists them.
    package static let commands: [Command] = [
        NowCommand.command, NowcastCommand.command, ForecastCommand.command, HistoryCommand.command,
        ChangesCommand.command,
        ConfidenceCommand.command, ModelsCommand.command, AccuracyCommand.command,
        ClimateCommand.command, ChartCommand.command, BarCommand.command,
        WarningsCommand.command, AirCommand.command, SearchCommand.command, LocationCommand.command,
        UnitsCommand.command, RefreshCommand.command, FavoritesCommand.command, AlertsCommand.command,
        EventsCommand.command, NotifyCommand.command, StatusCommand.command, MetricsCommand.command,
        StopCommand.command, HTTPTokenCommand.command, OpenCommand.command, RestoreCommand.command,
        CompletionsCommand.command,
    ]

    /// The command named `name`, if there is one.
    package static func command(named name: String) -> Command? { commands.first { $0.name == name } }

    /// What a command needs from the program that runs it.
    package struct Environment: Sendable {
        package var variables: [String: String]
        /// This program, started as the daemon when none runs.
        package var executable: String
        /// The time, what long-running commands (`bar`) wait on, and the event loop of their connections.
        package var runtime: Runtime
        /// The runtime's clock.
        package var clock: any RuntimeClock { runtime.clock }
        /// The network of a command's own engine (`--standalone`), for the command's configuration.
        package var transport: @Sendable (Configuration) -> HTTPTransport
        package var output: Output

        package init(
            variables: [String: String], executable: String, runtime: Runtime,
            transport: @escaping @Sendable (Configuration) -> HTTPTransport, output: Output
        ) {
            self.variables = variables
            self.executable = executable
            self.runtime = runtime
            self.transport = transport
            self.output = output
        }
    }

    /// Runs `command` with its arguments (after the command's name) and returns the exit status; SIGTERM and SIGINT
    /// end it cleanly (`interruptible`).
    package static func run(_ command: Command, _ arguments: [String], in environment: Environment) async -> Int32 {
        await interruptible(on: environment.runtime) { await runCommand(command, arguments, in: environment) }
    }

    private static func runCommand(_ command: Command, _ arguments: [String], in environment: Environment) async
        -> Int32
    {
        let output = environment.output
        let invocation: Invocation
        let configuration: Configuration
        do {
            let parsed: Invocation
            do throws(OptionError) {
                parsed = try Invocation.parse(arguments, for: command, output: output)
            } catch {
                // `--help` stands, whatever else is wrong.
                guard arguments.contains(where: { $0 == "--help" || $0 == "-h" }) else { throw error }
                output.print(command.help)
                return Exit.ok
            }
            if parsed[Self.help] {
                output.print(command.help)
                return Exit.ok
            }
            _ = try command.form(of: parsed.positional)
            try command.check(parsed)
            configuration = try Configuration.parse(parsed.serverOptions, environment: environment.variables)
            invocation = parsed
        } catch {
            output.error("weatherd \(command.name): \(error)\n\(command.usage)")
            return Exit.usage
        }
        if let local = command.local,
            let status = await local(
                LocalContext(invocation: invocation, configuration: configuration, environment: environment))
        {
            return status
        }
        let notifications = AsyncStream<Notification>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let json = invocation[Self.json]
        let forward: @Sendable (String, JSONValue) -> Void = { method, params in
            notifications.continuation.yield(Notification(method: method, params: Context.shown(params, json: json)))
        }
        let connection: ClientConnection
        do {
            connection = try await connect(invocation, configuration, environment, onNotification: forward)
        } catch {
            output.error("weatherd \(command.name): \(Self.message(error))")
            return Exit.unavailable
        }
        let status: Int32
        do {
            status = try await command.run(
                Context(
                    invocation: invocation, client: connection.client, notifications: notifications.stream,
                    runtime: environment.runtime, variables: environment.variables,
                    autoLocation: configuration.autoLocation ?? true))
        } catch  where Task.isCancelled {
            // Stopped by SIGTERM or SIGINT (`interruptible`): a clean end, nothing to report.
            status = Exit.ok
        } catch {
            output.error("weatherd \(command.name): \(Self.message(error))")
            // A PLACE that is two numbers off the globe is found wrong only once the command runs.
            status =
                error is UsageError
                ? Exit.usage : (error as? RPCError)?.kind == "daemon_unavailable" ? Exit.unavailable : Exit.failed
        }
        notifications.continuation.finish()
        await connection.close()
        return status
    }

    /// Connects to the data dir's daemon (telling on stderr when it runs with other upstream settings than
    /// the command's), or with `--standalone` to an engine of the command's own.
    static func connect(
        _ invocation: Invocation, _ configuration: Configuration, _ environment: Environment,
        onNotification forward: @escaping @Sendable (String, JSONValue) -> Void
    ) async throws -> ClientConnection {
        guard !invocation[Self.standalone] else {
            // A command's own engine says only what goes wrong, unless asked for more.
            let level = configuration.explicit.contains("--log-level") ? configuration.logLevel : .warning
            return try ClientConnection.standalone(
                configuration: configuration, runtime: environment.runtime, logger: Logger(level: level),
                provider: configuration.makeProvider(), transport: environment.transport(configuration),
                autoLocator: GeoClue.locator(environment: environment.variables, runtime: environment.runtime),
                onNotification: forward)
        }
        let connection = try await ClientConnection.daemon(
            configuration: configuration, arguments: invocation.serverOptions, environment: environment.variables,
            executable: environment.executable, runtime: environment.runtime, onNotification: forward)
        if let status = try? await connection.client.call("service/status"),
            let line = DaemonSettings.mismatch(status: status, configuration: configuration)
        {
            environment.output.error(line)
        }
        return connection
    }

    /// An error as a person reads it: an RPC error's message, without its code, its advice in the commands'
    /// terms.
    static func message(_ error: any Error) -> String {
        if let error = error as? RPCError { return Advice.inCommandTerms(error.message) }
        return "\(error)"
    }

    /// `weatherd --help`: every command with one line each, then weatherd's own options.
    package static var overview: String {
        var text = """
            usage: weatherd [options]               JSON-RPC on stdin/stdout, through the data dir's shared daemon
                                                    (started when none runs; it stops after 300 s without clients)
                   weatherd --standalone [options]  JSON-RPC on stdin/stdout in this process alone (no socket)
                   weatherd serve [options]         the shared daemon: serve the data dir on a Unix socket
                   weatherd COMMAND [--help] …      a command for people and scripts (below)
                   weatherd help [COMMAND]           this overview, or a command's usage
                   weatherd log verify|dump|stats|compact  read or compact the log offline
                   weatherd --version

            commands:

            """
        let width = commands.map(\.name.count).max() ?? 0
        for command in commands {
            text +=
                "  " + command.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        return text + """
              log verify|dump|stats|compact  check the log, print its events, count them, or strip replaced
                                    payloads from its sealed segments (offline, JSON lines)

            Every command talks to the data dir's daemon (starting it when none runs), or, with --standalone, to
            weatherd in its own process. It takes weatherd's options (--data-dir, --socket, the provider's URLs…;
            see the server options below). Exit status: 0 done, 1 the request failed (the reason is on stderr),
            64 a wrong command line, 69 weatherd could not be reached.

            server options (a daemon already running keeps its own; `weatherd status` shows them):
            \(Configuration.table.helpLines())
            \(entryTable.helpLines())
            """
    }
}

/// A notification the server pushed on this connection (an event, an alert).
package struct Notification: Sendable {
    package var method: String
    package var params: JSONValue
}
