import Foundation
import Providers
import WeatherDomain
import WeatherEngine
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

signal(SIGPIPE, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "log" {
    let code = LogTools.run(Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment) { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
    exit(code)
}
if arguments.contains("--help") || arguments.contains("-h") {
    Logger.standardError(Configuration.usage)
    exit(0)
}
if arguments.contains("--version") {
    Logger.standardError("weatherd \(Engine.version)")
    exit(0)
}

let configuration: Configuration
do {
    configuration = try Configuration.parse(arguments, environment: ProcessInfo.processInfo.environment)
} catch {
    Logger.standardError("weatherd: \(error)\n\n\(Configuration.usage)")
    exit(2)
}

let logger = Logger(level: configuration.logLevel)
let clock = WallClock { Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) }
exit(
    await Standalone.run(
        configuration: configuration, clock: clock, logger: logger, provider: configuration.makeProvider(),
        transport: .live()))
