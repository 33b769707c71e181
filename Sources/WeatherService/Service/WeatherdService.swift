import Dispatch
import EventLog
import Foundation
import Providers
import Synchronization
import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The whole service: opens the data dir, replays the log, serves requests, shuts down cleanly.
public final class WeatherdService: Sendable {
    /// weatherd's version.
    public static let version = "0.1.0"

    public let context: ServiceContext
    /// Decides and pushes alerts; started by `run`.
    public let alertActor: AlertActor
    /// The MCP state of the one connection this process serves.
    public let mcp = MCPSession(version: WeatherdService.version)
    /// Writes snapshots of the state; started with the log writer by `runLog`.
    public let snapshotter: Snapshotter
    private let configuration: Configuration
    private let lock: DirectoryLock
    private let recovered: LogRecovered?
    private let shutdownReason = Mutex<String?>(nil)
    private let input = AsyncStream<LineSplitter.Item>.makeStream()

    /// Opens the data dir: lock, create, verify and replay the log, repair a torn tail.
    ///
    /// - Parameters:
    ///   - provider: the weather provider; `transport` reaches it.
    ///   - openLog: opens the log for appending; tests pass a fault-injecting file here.
    /// - Throws: `StartupError` with the message to print (the log is untouched unless a tail was repaired).
    public init(
        configuration: Configuration, clock: WallClock, logger: Logger, provider: any WeatherProvider,
        transport: HTTPTransport, openLog: (String) throws -> any LogFile = { try PosixLogFile(path: $0) }
    ) throws(StartupError) {
        self.configuration = configuration
        let directory = DataDirectory(path: configuration.dataDirectory)
        do {
            try directory.create()
            lock = try directory.lock()
            try directory.ensureLog()
            for change in try directory.tightenPermissions() { logger.warning(change) }
        } catch let error as LockError {
            if case .held = error { throw StartupError(error.description, kind: "data_dir_in_use") }
            throw StartupError(error.description)
        } catch {
            throw StartupError("cannot open the data dir \(directory.path): \(error)")
        }
        let replay: Replay.Result
        do {
            replay = try Replay.start(
                path: directory.logPath, snapshots: SnapshotStore(directory: directory),
                commandWindow: configuration.commandWindow, logger: logger)
        } catch let damage as LogDamage {
            lock.release()
            throw StartupError("refusing to start: \(damage)", kind: "log_damaged", details: damage.details)
        } catch let error as ReplayError {
            lock.release()
            throw StartupError(
                "refusing to start: \(error)", kind: "log_damaged",
                details: ["file": .string(directory.logPath), "seq": .int(error.seq), "offset": .int(error.offset)])
        } catch {
            lock.release()
            throw StartupError("refusing to start: \(error)")
        }
        var position = replay.outcome.position
        if replay.outcome.missingNewline {
            do {
                try TailRepair.restoreNewline(logPath: directory.logPath, length: position.length)
            } catch {
                lock.release()
                throw StartupError("cannot restore the last newline of \(directory.logPath): \(error)")
            }
            position.length += 1
            logger.warning(
                "the log's last line (seq \(position.nextSeq - 1)) was intact but lacked its newline; restored it")
        }
        if let tail = replay.outcome.tail {
            do {
                recovered = try TailRepair.repair(logPath: directory.logPath, tail: tail, now: clock.now())
            } catch {
                lock.release()
                throw StartupError("cannot repair the torn end of \(directory.logPath): \(error)")
            }
            position.length = tail.offset
            logger.warning(
                "the log ended in a torn line (\(tail.reason.rawValue)); \(tail.length) bytes from offset "
                    + "\(tail.offset) were moved to \(recovered?.brokenCopy ?? "?")")
        } else {
            recovered = nil
        }
        let state = replay.state
        let bus = EventBus(lastSeq: position.nextSeq - 1)
        let registry = CommandRegistry(ledger: state.commands)
        let snapshotter = Snapshotter(
            state: state, chain: position.lastChain, snapshotSeq: replay.startup.snapshotSeq,
            store: SnapshotStore(directory: directory), every: configuration.snapshotEvery, fsync: configuration.fsync,
            logger: logger)
        self.snapshotter = snapshotter
        let file: any LogFile
        do {
            file = try openLog(directory.logPath)
        } catch {
            lock.release()
            throw StartupError("cannot open \(directory.logPath) for appending: \(error)")
        }
        let writer = LogWriter(
            file: file, position: position, index: replay.index, mode: configuration.fsync, now: clock.now
        ) { batch in
            registry.record(batch)
            bus.publish(batch)
            snapshotter.record(batch)
        }
        let cache = StateActor(state.cache, writer: writer)
        let fetcher = FetchActor(
            provider: provider, transport: transport, cache: cache, clock: clock, policy: configuration.fetch)
        let info = ServiceInfo(
            version: Self.version, startedAt: clock.now(), fsync: configuration.fsync, provider: provider.name,
            skippedEvents: state.skippedEvents, commandWindow: configuration.commandWindow, startup: replay.startup)
        context = ServiceContext(
            favorites: StateActor(state.favorites, writer: writer), history: StateActor(state.history, writer: writer),
            settings: StateActor(state.settings, writer: writer), location: StateActor(state.location, writer: writer),
            cache: cache, alerts: StateActor(state.alerts, writer: writer), fetcher: fetcher, registry: registry,
            writer: writer, bus: bus, dataDirectory: directory,
            clock: clock, info: info,
            logger: logger, background: BackgroundWork(), pushes: Pushes(),
            locationPrecision: configuration.locationPrecision, maxFavorites: configuration.maxFavorites)
        alertActor = AlertActor(context: context)
        let from = replay.startup.snapshotSeq.map { "the snapshot of seq \($0) and " } ?? ""
        logger.info(
            "serving \(directory.path): started from \(from)\(replay.startup.replayedEvents) events replayed, "
                + "last seq \(position.nextSeq - 1)")
    }

    /// Runs the log writer and the snapshotter until `writer.finish()`; the last snapshot is written after
    /// the writer's last batch (so after `service.stopped`, at a clean shutdown).
    public func runLog() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [context, snapshotter] in
                await context.writer.run()
                snapshotter.finish()
            }
            group.addTask { [context, snapshotter] in await snapshotter.run(writer: context.writer) }
        }
    }

    /// Releases the data dir's lock (`run` does it itself at the end).
    public func releaseLock() { lock.release() }

    /// All methods by name: weatherd's own and the MCP face's.
    public var methods: [String: MethodHandler] {
        let native = context.favoritesMethods.merging(context.settingsMethods) { first, _ in first }
            .merging(context.logMethods) { first, _ in first }
            .merging(context.weatherMethods) { first, _ in first }
            .merging(context.locationMethods) { first, _ in first }
            .merging(context.subscriptionMethods) { first, _ in first }
            .merging(context.alertMethods(alertActor)) { first, _ in first }
        return native.merging(context.mcpMethods(mcp, native: native)) { first, _ in first }
    }

    /// Asks the service to stop: input ends, in-flight requests finish, `service.stopped` is written.
    public func shutdown(reason: String) {
        let first = shutdownReason.withLock { current -> Bool in
            guard current == nil else { return false }
            current = reason
            return true
        }
        if first { input.continuation.finish() }
    }

    /// Serves standard input and output until end of input, a signal or a closed stdout.
    ///
    /// - Returns: the process exit code.
    public func run() async -> Int32 {
        let output = StandardOutput { [self] in shutdown(reason: "stdout_closed") }
        let signals = [SIGTERM, SIGINT].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in shutdown(reason: "signal") }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        let budget = InputBudget()
        StandardInput(maxLineBytes: configuration.maxLineBytes).start(
            budget: budget, waitForRoom: { output.waitForRoom() }, into: input.continuation)
        context.pushes.connect(output)
        let server = RPCServer(
            methods: methods, sink: output, registry: context.registry, logger: context.logger,
            maxLineBytes: configuration.maxLineBytes, onAnswered: context.pushes.answered)
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.runLog() }
            group.addTask { await output.run() }
            await serve(server: server, budget: budget)
            await output.flush()
            output.finish()
            context.writer.finish()
            await group.waitForAll()
            lock.release()
            return 0
        }
    }

    /// Writes the start-up events, serves every input line, then writes `service.stopped`.
    func serve(server: RPCServer, budget: InputBudget) async {
        var startup: [DomainEvent] = []
        if let recovered { startup.append(.logRecovered(recovered)) }
        startup.append(
            .serviceStarted(
                ServiceStarted(
                    version: Self.version, fsync: configuration.fsync.rawValue,
                    pid: Int64(ProcessInfo.processInfo.processIdentifier))))
        await appendQuietly(startup, cause: "startup", what: "the start-up events")
        let scheduler = configuration.refreshInterval.map { interval in
            Task { [context] in
                let service = RefreshScheduler(interval: interval, clock: ContinuousClock()) { only in
                    await context.refreshFavorites(only: only)
                }
                do {
                    try await service.run()
                } catch {
                    // run() ends only by cancellation, at shutdown.
                }
            }
        }
        let alerting = Task { await alertActor.run(clock: ContinuousClock()) }
        for await item in input.stream {
            let size = item.byteCount
            await server.receive(item) { budget.give(bytes: size) }
        }
        shutdown(reason: "eof")
        scheduler?.cancel()
        await scheduler?.value
        alerting.cancel()
        await alerting.value
        mcp.close()
        await finishInFlight(server, grace: .seconds(1))
        _ = context.pushes.stopSubscriptions(nil)
        let reason = shutdownReason.withLock { $0 } ?? "eof"
        let uptime = context.clock.now().milliseconds - context.info.startedAt.milliseconds
        await appendQuietly(
            [.serviceStopped(ServiceStopped(reason: reason, uptimeMs: max(0, uptime)))], cause: "shutdown",
            what: "service.stopped")
        context.logger.info("stopped (\(reason))")
    }

    /// Appends service events; a read-only log is reported on stderr, not fatal.
    private func appendQuietly(_ events: [DomainEvent], cause: String, what: String) async {
        do {
            let ticket = try context.writer.append(events.map { NewEvent($0, cause: cause, corr: nil) })
            _ = try await ticket.committed()
        } catch {
            context.logger.error("could not record \(what): \(error)")
        }
    }
}

/// Why the service could not start; the message is printed on stderr, one JSON-RPC error line (id null)
/// on stdout, and the process exits non-zero.
public struct StartupError: WireError, CustomStringConvertible {
    public var description: String
    /// The stable kind: `data_dir_in_use`, `log_damaged`, or `storage_failure` for anything else.
    public var kind: String
    /// Members of the error's `data` besides `kind` (`file`, `line`, `seq`, `offset` for `log_damaged`).
    public var details: [String: JSONValue]

    public init(_ description: String, kind: String = "storage_failure", details: [String: JSONValue] = [:]) {
        self.description = description
        self.kind = kind
        self.details = details
    }

    public var rpcCode: Int { ApplicationErrorCode.code(for: kind) }
    public var message: String { "weatherd could not start: \(description)" }

    /// The line written on stdout before exiting, so a client waiting for JSON gets an answer, not only EOF.
    public var responseLine: String {
        let error = RPCError(code: rpcCode, kind: kind, message: message, details: details)
        return JSONValue.object(["jsonrpc": "2.0", "id": .null, "error": error.json]).jsonString
    }
}

extension LogDamage {
    /// The error's `data` members naming the place: `file`, `line`, `seq`, `offset`.
    public var details: [String: JSONValue] {
        ["file": .string(path), "line": .int(line), "seq": .int(seq), "offset": .int(offset)]
    }
}
