import EventLog
import Foundation
import Providers
import WeatherDomain
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A command-line tool's connection to weatherd: to the data dir's shared daemon (started when none runs), or,
/// with `--standalone`, to an engine served in this process on one end of a socket pair. Either way the tool
/// speaks the same JSON-RPC through a `LineClient`.
package struct ClientConnection: Sendable {
    /// The client over the connection.
    package let client: LineClient
    /// Ends once the in-process engine has shut down (at once for the daemon's connection).
    private let served: Task<Void, Never>?

    /// Connects to the daemon of `configuration`'s data dir, starting one when none is running.
    ///
    /// - Parameters:
    ///   - arguments: the options passed on to a daemon this starts.
    ///   - executable: this program.
    /// - Throws: `RPCError` `daemon_unavailable` when no daemon could be reached or started.
    package static func daemon(
        configuration: Configuration, arguments: [String], environment: [String: String], executable: String,
        runtime: Runtime, onNotification: @escaping @Sendable (String, JSONValue) -> Void = { _, _ in }
    ) async throws -> ClientConnection {
        let socket: Int32
        do {
            socket = try await RelayClient.connect(
                configuration: configuration, arguments: arguments, environment: environment, executable: executable,
                runtime: runtime)
        } catch {
            throw RelayClient.unavailable(error)
        }
        return ClientConnection(
            client: try LineClient(fd: socket, loop: runtime.loop, onNotification: onNotification), served: nil)
    }

    /// Opens the data dir in this process and serves one connection to it.
    ///
    /// - Throws: the data dir's error (locked by another weatherd, damaged log…), or `SocketError`.
    package static func standalone(
        configuration: Configuration, runtime: Runtime, logger: Logger, provider: any WeatherProvider,
        transport: HTTPTransport, autoLocator: AutoLocator,
        onNotification: @escaping @Sendable (String, JSONValue) -> Void = { _, _ in }
    ) throws -> ClientConnection {
        let opened = try OpenedDataDir.open(configuration: configuration, clock: runtime.clock, logger: logger)
        let (serverEnd, clientEnd) = try UnixSocket.pair()
        let served = Task {
            await Standalone.serve(
                opened, configuration: configuration, runtime: runtime, logger: logger, provider: provider,
                transport: transport, autoLocator: autoLocator, input: serverEnd, output: serverEnd)
            // Shut down before closing: a close alone would not tell the client.
            shutdownSocket(serverEnd, .both)
            UnixSocket.closeDescriptor(serverEnd)
        }
        return ClientConnection(
            client: try LineClient(fd: clientEnd, loop: runtime.loop, onNotification: onNotification), served: served)
    }

    /// Ends the connection: the server answers what it was sent, then (in this process) the engine shuts down.
    package func close() async {
        client.finishSending()
        await client.waitForEnd()
        await client.close()
        await served?.value
    }
}
