import EventLog
import Foundation
import Providers
import WeatherDomain
import WeatherEngine
import WeatherRuntime

/// `weatherd --standalone`: the engine and one connection on stdin/stdout in this process.
package enum Standalone {
    /// Opens the data dir, serves stdin/stdout until end of input, a signal or a closed stdout, and
    /// shuts down.
    ///
    /// - Returns: the process exit code (1 when the data dir could not be opened).
    package static func run(
        configuration: Configuration, runtime: Runtime, logger: Logger, provider: any WeatherProvider,
        transport: HTTPTransport, autoLocator: AutoLocator
    ) async -> Int32 {
        let opened: OpenedDataDir
        do {
            opened = try OpenedDataDir.open(configuration: configuration, clock: runtime.clock, logger: logger)
        } catch {
            logger.error("\(error)")
            // Before the service exists stdout has no other writer; a client waiting for JSON gets one error line.
            FileHandle.standardOutput.write(Data((error.responseLine + "\n").utf8))
            return 1
        }
        await serve(
            opened, configuration: configuration, runtime: runtime, logger: logger, provider: provider,
            transport: transport, autoLocator: autoLocator)
        return 0
    }

    /// Serves an opened data dir's engine to one connection on `input` and `output` (standard input and
    /// output by default) until it ends, a signal or a closed output, and shuts down.
    static func serve(
        _ opened: OpenedDataDir, configuration: Configuration, runtime: Runtime, logger: Logger,
        provider: any WeatherProvider, transport: HTTPTransport, autoLocator: AutoLocator, input: Int32 = 0,
        output: Int32 = 1
    ) async {
        let engine = Engine(
            opened, configuration: configuration, runtime: runtime, logger: logger, provider: provider,
            transport: transport, autoLocator: autoLocator)
        let front = StdioService(
            engine: engine, maxLineBytes: configuration.maxLineBytes, endOfInputGrace: configuration.endOfInputGrace,
            input: input, output: output)
        await ServiceGroup.serve(engine, front: front)
    }
}
