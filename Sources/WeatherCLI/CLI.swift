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
        ClimateCommand.command, ChartCommand.command, BarCommand.command,
        WarningsCommand.command, AirCommand.command, SearchCommand.command, LocationCommand.command,
        UnitsCommand.command, RefreshCommand.command, FavoritesCommand.command, AlertsCommand.command,
        EventsCommand.command, NotifyCommand.command, StatusCommand.command, MetricsCommand.command,
        StopCommand.command,
        CompletionsCommand.command,
    ]

    /// The command named `name`, if there is one.
    package static func command(named name: String) -> Command? { commands.first { $0.name == name } }

    /// What a command needs from the program that runs it.
    package struct Environment: Sendable {
        package var variables: [String: String]
        /// This program, started as the daemon when none runs.
        package var executable: String
        /// The time, and what long-running commands (`bar`) wait on.
        package var clock: any RuntimeClock
        /// The network of a command's own engine (`--standalone`), for the command's configuration.
        package var transport: @Sendable (Configuration) -> HTTPTransport
        package var output: Output

        package init(
            variables: [String: String], executable: String, clock: any RuntimeClock,
            transport: @escaping @Sendable (Configuration) -> HTTPTransport, output: Output
        ) {
            self.variables = variables
            self.executable = executable
            self.clock = clock
            self.transport = transport
            self.output = output
        }
    }

    /// Runs `command` with its arguments (after the command's name) and returns the exit status.
    package static func run(_ command: Command, _ arguments: [String], in environment: Environment) async -> Int32 {
        let output = environment.output
        let invocation: Invocation
        let configuration: Configuration
        do {
            let parsed = try Invocation.parse(arguments, for: command, output: output)
            if parsed.switches.contains("--help") {
                output.print(command.help)
                return Exit.ok
            }
            guard command.positionals.contains(parsed.positional.count) else {
                throw UsageError("\(command.name) takes \(command.positionalText)")
            }
            try command.check(parsed)
            configuration = try Configuration.parse(parsed.serverOptions, environment: environment.variables)
            invocation = parsed
        } catch {
            output.error("weatherd \(command.name): \(error)\n\(command.usage)")
            return Exit.usage
        }
        if let local = command.local {
            return await local(
                LocalContext(invocation: invocation, configuration: configuration, environment: environment))
        }
        let notifications = AsyncStream<Notification>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let json = invocation.switches.contains("--json")
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
                    clock: environment.clock, variables: environment.variables,
                    autoLocation: configuration.autoLocation ?? true))
        } catch {
            output.error("weatherd \(command.name): \(Self.message(error))")
            status = (error as? RPCError)?.kind == "daemon_unavailable" ? Exit.unavailable : Exit.failed
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
        guard !invocation.switches.contains("--standalone") else {
            // A command's own engine says only what goes wrong, unless asked for more.
            let level =
                invocation.serverOptions.contains { $0.hasPrefix("--log-level") } ? configuration.logLevel : .warning
            return try ClientConnection.standalone(
                configuration: configuration, clock: environment.clock, logger: Logger(level: level),
                provider: configuration.makeProvider(), transport: environment.transport(configuration),
                autoLocator: GeoClue.locator(environment: environment.variables), onNotification: forward)
        }
        let connection = try await ClientConnection.daemon(
            configuration: configuration, arguments: invocation.serverOptions, environment: environment.variables,
            executable: environment.executable, onNotification: forward)
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

    /// `weatherd --help`: every command with one line each.
    package static var overview: String {
        var text = """
            usage: weatherd [options]               JSON-RPC on stdin/stdout, through the data dir's shared daemon
                   weatherd --standalone [options]  JSON-RPC on stdin/stdout in this process alone
                   weatherd serve [options]         the shared daemon itself
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
        text += """
              log verify|dump|stats|compact  check the log, print its events, count them, or strip replaced
                                    payloads from its sealed segments (offline, JSON lines)

            Every command talks to the data dir's daemon (starting it when none runs), or, with --standalone, to
            weatherd in its own process. It takes weatherd's options (--data-dir, --socket, the provider's URLs…;
            see the server options below). Exit status: 0 done, 1 the request failed (the reason is on stderr),
            64 a wrong command line, 69 weatherd could not be reached.

            server options:

            """
        let options = Configuration.usage.components(separatedBy: "options:\n").last ?? ""
        return text + options
    }
}

/// A notification the server pushed on this connection (an event, an alert).
package struct Notification: Sendable {
    package var method: String
    package var params: JSONValue
}

/// A command line that is wrong.
struct UsageError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// One of weatherd's commands.
package struct Command: Sendable {
    /// The word after `weatherd`.
    package var name: String
    /// One line for `weatherd --help`.
    package var summary: String
    /// The usage line(s), e.g. `usage: weatherd now [PLACE] [--format FORMAT]`.
    package var usage: String
    /// The rest of `--help`: what it does, its flags, an example.
    package var details: String
    /// How many positional arguments it takes.
    package var positionals: ClosedRange<Int> = 0...0
    /// The positional arguments as the usage error names them.
    package var positionalText = "no arguments"
    /// Its own flags that take a value, e.g. `--format`.
    package var valueFlags: Set<String> = []
    /// Its own flags without a value, e.g. `--follow`.
    package var switchFlags: Set<String> = []
    /// Further checks of the arguments (choices, numbers), throwing a `UsageError`.
    var check: @Sendable (Invocation) throws -> Void = { _ in }
    /// Runs the command without a connection to weatherd (`stop`, `completions`); nil: `run` runs, connected.
    var local: (@Sendable (LocalContext) async -> Int32)? = nil
    /// Runs the command; returns the exit status.
    var run: @Sendable (Context) async throws -> Int32

    /// The whole `--help` text.
    package var help: String { usage + "\n\n" + details }
}

/// A command's arguments, sorted: positional ones, its own flags, and weatherd's options (passed on).
package struct Invocation: Sendable {
    package var positional: [String] = []
    /// The command's flags with their values.
    package var values: [String: String] = [:]
    /// The command's flags without a value, and `--standalone`, `--json`, `--help`.
    package var switches: Set<String> = []
    /// weatherd's own options (all of which take a value), for the configuration and a daemon started.
    package var serverOptions: [String] = []
    package var output: Output

    /// Flags every command takes.
    static let commonSwitches: Set<String> = ["--standalone", "--json", "--help", "-h"]

    /// Sorts `arguments` for `command`: its own flags (`--flag VALUE` or `--flag=VALUE`), the common
    /// switches, weatherd's options (every one takes a value), and the rest positional (`--` ends flags).
    static func parse(_ arguments: [String], for command: Command, output: Output) throws -> Invocation {
        var invocation = Invocation(output: output)
        var rest = arguments[...]
        var flagsEnded = false
        while let argument = rest.popFirst() {
            // A place such as `-33.87,151.21` starts with a minus sign but is no flag.
            let isNumber = argument.dropFirst().first.map { $0.isNumber || $0 == "." } ?? false
            if flagsEnded || !argument.hasPrefix("-") || argument == "-" || isNumber {
                invocation.positional.append(argument)
                continue
            }
            if argument == "--" {
                flagsEnded = true
                continue
            }
            var flag = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if Self.commonSwitches.contains(flag) || command.switchFlags.contains(flag) {
                guard inline == nil else { throw UsageError("\(flag) takes no value") }
                invocation.switches.insert(flag == "-h" ? "--help" : flag)
            } else if command.valueFlags.contains(flag) {
                guard let value = inline ?? rest.popFirst() else { throw UsageError("\(flag) needs a value") }
                invocation.values[flag] = value
            } else {
                invocation.serverOptions.append(argument)
                if inline == nil, let value = rest.popFirst() { invocation.serverOptions.append(value) }
            }
        }
        return invocation
    }
}
