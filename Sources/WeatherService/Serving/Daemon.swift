import EventLog
import Foundation
import Providers
import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `weatherd serve`: the shared daemon of one data dir, on a Unix socket.
package enum Daemon {
    /// Opens the data dir (holding its lock before touching the socket, so two starting daemons never
    /// both replace it), listens on the socket systemd passed or on the data dir's own, and serves until
    /// a signal or `--idle-exit`.
    ///
    /// - Parameters:
    ///   - places: what answers the HTTP face's `GET /{place}` (wttr.in's grammar), given by the shell that
    ///     holds the formatter.
    /// - Returns: the process exit code (1 when the data dir or the socket could not be opened).
    package static func run(
        configuration: Configuration, environment: [String: String], runtime: Runtime, logger: Logger,
        provider: any WeatherProvider, transport: HTTPTransport,
        places: (@Sendable (Engine) -> HTTPFace.PlaceAnswer)? = nil
    ) async -> Int32 {
        let clock = runtime.clock
        let opened: OpenedDataDir
        do {
            // Named in LOCK, so a client whose daemon lost the race knows this one will listen there.
            let socket =
                environment["LISTEN_FDS"] == nil ? try? socketPath(configuration, environment: environment) : nil
            opened = try OpenedDataDir.open(configuration: configuration, clock: clock, logger: logger, socket: socket)
        } catch {
            logger.error("\(error)")
            return 1
        }
        let prepared: Prepared
        do {
            prepared = try prepare(configuration, environment: environment, logger: logger)
        } catch {
            logger.error("weatherd serve: \(error)")
            opened.lock.release()
            return 1
        }
        let (listener, http) = (prepared.listener, prepared.http)
        logger.info("listening on \(listener.path ?? "the socket systemd passed")")
        let engine = Engine(
            opened, configuration: configuration, runtime: runtime, logger: logger, provider: provider,
            transport: transport, autoLocator: GeoClue.locator(environment: environment, runtime: runtime))
        let shipper = prepared.shipping.map { LogShipper(engine: engine, settings: $0) }
        var settings = DaemonService.Settings(
            maxLineBytes: configuration.maxLineBytes, endOfInputGrace: configuration.endOfInputGrace)
        settings.maxConnections = configuration.maxConnections
        settings.outputLimit = configuration.maxUnreadOutputBytes
        settings.idleExit = configuration.idleExit
        var faces: [any Service] = []
        if let http {
            let access = HTTPAccess(
                token: http.token, allowRemote: configuration.httpAllowRemote,
                metricsPublic: configuration.metricsPublic, hosts: configuration.httpHosts)
            let face = HTTPFace(engine: engine, access: access, places: places?(engine))
            faces.append(HTTPService(engine: engine, listener: http.listener, handler: face.answer))
        }
        await ServiceGroup.serve(
            engine, front: DaemonService(engine: engine, listener: listener, settings: settings),
            also: faces + (shipper.map { [$0] } ?? []))
        listener.close()
        http?.listener.close()
        return 0
    }

    /// What serving needs beside the engine, each checked before anything is served.
    private struct Prepared {
        var listener: UnixListener
        var http: (listener: TCPListener, token: HTTPToken)?
        var shipping: LogShipper.Settings?
    }

    /// The shipping settings (`--nats`), the socket, and the HTTP listener with its token (`--http-listen`); what
    /// was opened is closed again when a later step fails.
    private static func prepare(
        _ configuration: Configuration, environment: [String: String], logger: Logger
    ) throws -> Prepared {
        let shipping = try LogShipper.settings(for: configuration)
        let listener = try listen(configuration, environment: environment, logger: logger)
        guard let endpoint = configuration.httpListen else {
            return Prepared(listener: listener, http: nil, shipping: shipping)
        }
        do {
            let token = try HTTPToken.loadOrCreate(dataDirectory: configuration.dataDirectory)
            return Prepared(listener: listener, http: (try TCPListener(endpoint), token), shipping: shipping)
        } catch {
            listener.close()
            throw SocketError("--http-listen \(endpoint): \(error)")
        }
    }

    /// The listening socket: systemd's (`LISTEN_FDS`), else a new one at `--socket` or the default path,
    /// in a folder of mode 0700.
    static func listen(
        _ configuration: Configuration, environment: [String: String], logger: Logger
    ) throws -> UnixListener {
        if let passed = try SystemdSockets.take() { return passed }
        let path = try socketPath(configuration, environment: environment)
        if let change = try SocketPath.prepareFolder((path as NSString).deletingLastPathComponent) {
            logger.warning(change)
        }
        return try UnixListener(path: path)
    }

    /// `--socket`, else the data dir's default socket path.
    package static func socketPath(_ configuration: Configuration, environment: [String: String]) throws -> String {
        if let path = configuration.socketPath {
            let absolute = SocketPath.standardize(path, currentDirectory: FileManager.default.currentDirectoryPath)
            try SocketPath.check(absolute)
            return absolute
        }
        return try SocketPath.defaultPath(dataDirectory: configuration.dataDirectory, environment: environment)
    }
}

/// `weatherd` with no subcommand: a relay between stdin/stdout and the data dir's daemon, which it
/// starts (detached, in its own session, with `--idle-exit 300`) when none is running.
package enum RelayClient {
    /// The search for the data dir's daemon, which starts one (detached, `--idle-exit 300`, logging to
    /// `DIR/weatherd.log`) when none is running.
    ///
    /// - Parameters:
    ///   - arguments: the client's own options, passed on to a daemon it starts.
    ///   - executable: this program, started as `executable serve …`.
    package static func launch(
        configuration: Configuration, arguments: [String], environment: [String: String], executable: String,
        clock: any RuntimeClock, loop: EventLoop
    ) throws -> DaemonLauncher.Launch {
        let path = try Daemon.socketPath(configuration, environment: environment)
        let dataDirectory = SocketPath.standardize(
            configuration.dataDirectory, currentDirectory: FileManager.default.currentDirectoryPath)
        // The client's options come last, so its own --idle-exit or --log-file win.
        let daemonArguments =
            [
                "serve", "--idle-exit", "300", "--log-file", dataDirectory + "/weatherd.log",
            ] + arguments + ["--data-dir", dataDirectory, "--socket", path]
        return DaemonLauncher.Launch(
            path: path, lockPath: dataDirectory + "/LOCK", grace: .seconds(1), limit: .seconds(300), clock: clock,
            loop: loop, tryingFirst: runningSocket(configuration, dataDirectory: dataDirectory, otherThan: path)
        ) {
            try FileManager.default.createDirectory(
                atPath: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return try DaemonLauncher.spawnDetached(
                executable: executable, arguments: daemonArguments, environment: environment)
        }
    }

    /// Connects to the data dir's daemon, starting one when none is running.
    ///
    /// - Returns: the connected socket.
    package static func connect(
        configuration: Configuration, arguments: [String], environment: [String: String], executable: String,
        runtime: Runtime
    ) async throws -> Int32 {
        let launch = try launch(
            configuration: configuration, arguments: arguments, environment: environment, executable: executable,
            clock: runtime.clock, loop: runtime.loop)
        let outcome = Promise<Result<Int32, DaemonLauncher.ConnectError>>()
        launch.run { outcome.fulfill($0) }
        return try await outcome.wait().get()
    }

    /// The socket the data dir's running daemon listens on, as its `LOCK` names it, when it is not `path`
    /// (the client's socket) and the client gave no `--socket`: a daemon started where `XDG_RUNTIME_DIR` is
    /// set is the data dir's own for a client without it (cron, ssh) too. Nil when no live daemon holds the
    /// data dir, or it listens on `path`.
    package static func runningSocket(
        _ configuration: Configuration, dataDirectory: String, otherThan path: String
    ) -> String? {
        guard configuration.socketPath == nil, let holder = LockHolder.read(lockPath: dataDirectory + "/LOCK"),
            let socket = holder.socket, socket != path, kill(holder.pid, 0) == 0 || errno == EPERM
        else { return nil }
        return socket
    }

    /// The error a client gets when `connect` failed.
    package static func unavailable(_ error: any Error) -> RPCError {
        .application(
            "daemon_unavailable", "weatherd could not reach its daemon: \(error); --standalone runs without one")
    }

    /// Connects (starting the daemon when needed) and relays until end of input and every answer, a signal, or
    /// the daemon's end; all of it on an event loop run by the calling thread, the relay process's only one.
    ///
    /// - Parameters:
    ///   - arguments: the client's own options, passed on to a daemon it starts.
    ///   - executable: this program, started as `executable serve …`.
    /// - Returns: the exit code: 0 when every request was answered, 1 otherwise.
    package static func runOnThisThread(
        configuration: Configuration, arguments: [String], environment: [String: String], executable: String,
        logger: Logger
    ) -> Int32 {
        let loop: EventLoop
        let signals: SignalWatch
        let code = Mutex<Int32>(1)
        let relay = Mutex<Relay?>(nil)
        do {
            loop = try EventLoop(name: "weatherd-relay")
            signals = try SignalWatch(on: loop) { _ in
                let running = relay.withLock { $0 }
                if let running { running.stop() } else { loop.stop() }
            }
        } catch {
            logger.error("\(error)")
            return 1
        }
        let clock = SystemClock()
        let failed: @Sendable (any Error) -> Void = { error in
            logger.error("\(error)")
            var line: [UInt8] = []
            RPCLine.error(id: .null, unavailable(error), into: &line)
            line.append(UInt8(ascii: "\n"))
            Descriptor.writeAll(1, line)
            loop.stop()
        }
        do {
            let launch = try launch(
                configuration: configuration, arguments: arguments, environment: environment, executable: executable,
                clock: clock, loop: loop)
            launch.run { outcome in
                switch outcome {
                case .failure(let error): failed(error)
                case .success(let socket):
                    do {
                        let started = try Relay(
                            socket: socket, maxLineBytes: configuration.maxLineBytes,
                            deadline: configuration.endOfInputGrace, logger: logger, clock: clock, loop: loop)
                        relay.withLock { $0 = started }
                        started.start { status in
                            if let status,
                                let line = DaemonSettings.mismatch(status: status, configuration: configuration)
                            {
                                Logger.standardError(line)
                            }
                        } onDone: { status in
                            code.withLock { $0 = status }
                            loop.stop()
                        }
                    } catch {
                        logger.error("\(error)")
                        loop.stop()
                    }
                }
            }
        } catch {
            failed(error)
        }
        loop.run()
        signals.cancel()
        return code.withLock { $0 }
    }
}
