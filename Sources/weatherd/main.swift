import Foundation
import Providers
import WeatherCLI
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

signal(SIGPIPE, SIG_IGN)

let environment = ProcessInfo.processInfo.environment
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "log" {
    if arguments.dropFirst().contains(where: { ["--help", "-h", "help"].contains($0) }) {
        print(LogTools.usage)
        exit(0)
    }
    let code = LogTools.run(Array(arguments.dropFirst()), environment: environment) { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
    exit(code)
}
let clock = SystemClock()
let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
if let name = arguments.first, let command = CLI.command(named: name) {
    let output = Output.standard(environment: environment)
    exit(
        await CLI.run(
            command, Array(arguments.dropFirst()),
            in: CLI.Environment(
                variables: environment, executable: executable, clock: clock,
                transport: { .live(maxBodyBytes: $0.maxBodyBytes, idleTimeout: $0.fetch.deadline) }, output: output)))
}
if arguments.first == "help", arguments.count > 1 {
    if let command = CLI.command(named: arguments[1]) {
        print(command.help)
        exit(0)
    }
    if arguments[1] == "log" {
        print(LogTools.usage)
        exit(0)
    }
}
if arguments.first == "help" || arguments.contains("--help") || arguments.contains("-h") {
    print(CLI.overview)
    exit(0)
}
if arguments.contains("--version") {
    print("weatherd \(Engine.version)")
    exit(0)
}
if let first = arguments.first, !first.hasPrefix("-"), first != "serve" {
    Logger.standardError(CLI.unknownCommand(first))
    exit(CLI.Exit.usage)
}

/// How this process serves: through the shared daemon (the default), as the daemon, or alone.
enum Mode { case relay, serve, standalone }
var mode = Mode.relay
if arguments.first == "serve" {
    arguments.removeFirst()
    mode = .serve
}
if let index = arguments.firstIndex(of: "--standalone") {
    arguments.remove(at: index)
    mode = mode == .serve ? mode : .standalone
}

let configuration: Configuration
do {
    configuration = try Configuration.parse(arguments, environment: environment)
} catch {
    Logger.standardError("weatherd: \(TerminalText.safe("\(error)"))\n\n\(CLI.overview)")
    exit(CLI.Exit.usage)
}

var logger = Logger(level: configuration.logLevel)
if mode == .serve, let path = configuration.logFile {
    do {
        logger = Logger(level: configuration.logLevel, sink: try BoundedLogFile(path: path).sink)
    } catch {
        Logger.standardError("weatherd: cannot write the log file: \(error)")
        exit(2)
    }
}
switch mode {
case .standalone:
    exit(
        await Standalone.run(
            configuration: configuration, clock: clock, logger: logger, provider: configuration.makeProvider(),
            transport: .live(maxBodyBytes: configuration.maxBodyBytes, idleTimeout: configuration.fetch.deadline),
            autoLocator: GeoClue.locator(environment: environment)))
case .serve:
    exit(
        await Daemon.run(
            configuration: configuration, environment: environment, clock: clock, logger: logger,
            provider: configuration.makeProvider(),
            transport: .live(maxBodyBytes: configuration.maxBodyBytes, idleTimeout: configuration.fetch.deadline)))
case .relay:
    exit(
        await RelayClient.run(
            configuration: configuration, arguments: arguments, environment: environment, executable: executable,
            logger: logger))
}
