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
SignalWatch.unblockTermination()

let environment = ProcessInfo.processInfo.environment
let entry = CLI.entry(Array(CommandLine.arguments.dropFirst()))
let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
/// The runtime of a mode that has more to do than relay: the clock, an event loop on a thread of its own, the pool.
func startedRuntime() -> Runtime {
    do {
        return try Runtime.started()
    } catch {
        Logger.standardError("weatherd: cannot start: \(error)")
        exit(71)
    }
}
let mode: CLI.Entry.Mode
let arguments: [String]
switch entry {
case .log(let rest):
    if rest.contains(where: { ["--help", "-h", "help"].contains($0) }) {
        print(LogTools.usage)
        exit(0)
    }
    let code = LogTools.run(rest, environment: environment) { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
    exit(code)
case .command(let name, let rest):
    guard let command = CLI.command(named: name) else { exit(CLI.Exit.usage) }
    let output = Output.standard(environment: environment)
    exit(
        await CLI.run(
            command, rest,
            in: CLI.Environment(
                variables: environment, executable: executable, runtime: startedRuntime(),
                transport: { .live(maxBodyBytes: $0.maxBodyBytes, idleTimeout: $0.fetch.deadline) }, output: output)))
case .print(let text):
    print(text)
    exit(0)
case .wrong(let text):
    Logger.standardError(text)
    exit(CLI.Exit.usage)
case .serve(let chosen, let options):
    mode = chosen
    arguments = options
}

let configuration: Configuration
do {
    configuration = try Configuration.parse(arguments, environment: environment)
} catch {
    Logger.standardError("weatherd: \(TerminalText.safe("\(error)"))\n\n\(CLI.overview)")
    exit(CLI.Exit.usage)
}
// A person who typed `weatherd` on a terminal is told what it waits for, once; a program's pipe is not.
if mode != .serve, isatty(0) == 1 { Logger.standardError(CLI.terminalHint) }

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
    let runtime = startedRuntime()
    exit(
        await Standalone.run(
            configuration: configuration, runtime: runtime, logger: logger, provider: configuration.makeProvider(),
            transport: .live(maxBodyBytes: configuration.maxBodyBytes, idleTimeout: configuration.fetch.deadline),
            autoLocator: GeoClue.locator(environment: environment, runtime: runtime)))
case .serve:
    exit(
        await Daemon.run(
            configuration: configuration, environment: environment, runtime: startedRuntime(), logger: logger,
            provider: configuration.makeProvider(),
            transport: .live(maxBodyBytes: configuration.maxBodyBytes, idleTimeout: configuration.fetch.deadline),
            places: { engine in WebPages(engine: engine).answer }))
case .relay:
    // A relay needs no thread but this one: its event loop runs here.
    exit(
        RelayClient.runOnThisThread(
            configuration: configuration, arguments: arguments, environment: environment, executable: executable,
            logger: logger))
}
