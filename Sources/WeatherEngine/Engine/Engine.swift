import EventLog
import Foundation
import Providers
import Synchronization
import WeatherDomain
import WeatherRuntime

/// The weather engine: the state slices, the log writer, fetching and the bus, shared by every
/// connection. Its typed API (`API/`) is what the JSON-RPC and MCP faces call; its long-running parts
/// are `services` for a `ServiceGroup`.
///
/// Building it starts nothing: `OpenedDataDir.open` did the I/O, the services do the work.
package final class Engine: Sendable {
    /// weatherd's version.
    package static let version = "0.1.0"

    let favorites: StateActor<FavoritesState>
    let history: StateActor<HistoryState>
    let settings: StateActor<SettingsState>
    let location: StateActor<LocationState>
    let cache: StateActor<WeatherCache>
    let alerts: StateActor<AlertState>
    let fetcher: FetchActor
    /// The `commandId`s seen, for answering a repeat.
    package let registry: CommandRegistry
    let writer: LogWriter
    /// Where the slices decide and queue their changes, and where a request's batch is appended as one.
    let slices: SliceWriter
    /// Committed events, live, for subscriptions.
    package let bus: EventBus
    let dataDirectory: DataDirectory
    /// The one clock: every time stamped and every wait.
    package let clock: any RuntimeClock
    /// The clock, the event loop and the blocking pool.
    package let runtime: Runtime
    let info: ServiceInfo
    package let logger: Logger
    /// Work started by a request but not awaited by it (a refresh after a move), drained at shutdown.
    let background = BackgroundWork()
    /// Decimals kept of the client's coordinates (`--location-precision`).
    let locationPrecision: Int
    /// Damage found in the log while serving.
    let logHealth: LogHealth
    /// Every committed event, each once and in order, for whatever follows the log.
    package let follower: LogFollower
    /// The most favorites kept (`--max-favorites`).
    let maxFavorites: Int
    let snapshotter: Snapshotter
    /// Opens once the start-up events are recorded; fronts serve nothing before it.
    package let ready = Latch()
    let alertActor: AlertActor
    /// Who watches which places' nowcasts.
    package let nowcastWatchers = NowcastWatchers()
    private let opened: OpenedDataDir
    let configuration: Configuration
    /// Why the engine stops, as `service.stopped` records it.
    private let stopReason = Mutex<String?>(nil)
    /// The counters `/metrics` shows, folded from every committed batch.
    let metricsRecorder: MetricsRecorder
    /// How the machine's location is found when the client set none (`--auto-location`).
    let autoLocator: AutoLocator
    /// The search for it in flight, and when the last began.
    let autoLocating = AutoLocating()
    /// Whether a request that does not say looks for the machine's location (`--auto-location`; off unless
    /// given: a JSON-RPC client asks with `autoLocation`, as the commands do).
    let autoLocationDefault: Bool
    /// Facts the front adds to `service/status` (the socket, the connections).
    private let frontFacts = CallbackSlot<@Sendable () -> FrontStatus>()
    private let httpAddress = Mutex<String?>(nil)
    /// The one-time codes and browser sessions of the HTTP face (`http/open`, `weatherd open`).
    package let browserPasses = BrowserPasses()
    /// How far the log is shipped (`--nats`), told by the shipper.
    private let shipFacts = CallbackSlot<@Sendable () -> ShipStatus>()

    /// Builds the engine over an opened data dir.
    package init(
        _ opened: OpenedDataDir, configuration: Configuration, runtime: Runtime, logger: Logger,
        provider: any WeatherProvider, transport: HTTPTransport, autoLocator: AutoLocator = .unavailable
    ) {
        let clock = runtime.clock
        self.opened = opened
        self.autoLocator = autoLocator
        autoLocationDefault = configuration.autoLocation ?? false
        self.configuration = configuration
        let state = opened.replay.state
        let bus = EventBus(lastSeq: opened.position.nextSeq - 1)
        let registry = CommandRegistry(ledger: state.commands)
        let metricsRecorder = MetricsRecorder()
        let snapshotter = Snapshotter(
            state: state, chain: opened.position.lastChain, snapshotSeq: opened.replay.startup.snapshotSeq,
            lastChange: opened.replay.lastChange,
            store: SnapshotStore(directory: opened.directory), every: configuration.snapshotEvery,
            fsync: configuration.fsync, logger: logger)
        let writer = LogWriter(
            file: opened.file, position: opened.position, index: opened.replay.index, mode: configuration.fsync,
            segmentBytes: configuration.segmentBytes, runtime: runtime, now: { clock.timestamp() }
        ) { batch in
            registry.record(batch)
            metricsRecorder.record(batch)
            bus.publish(batch)
            snapshotter.record(batch)
        }
        let logHealth = LogHealth()
        let follower = LogFollower(
            bus: bus, writer: writer, logHealth: logHealth, directory: opened.directory.path,
            capacity: configuration.followerCapacity, chunk: 1000)
        self.logHealth = logHealth
        self.follower = follower
        let slices = SliceWriter(writer: writer)
        let cache = StateActor(state.cache, slices: slices)
        favorites = StateActor(state.favorites, slices: slices)
        history = StateActor(state.history, slices: slices)
        settings = StateActor(state.settings, slices: slices)
        location = StateActor(state.location, slices: slices)
        alerts = StateActor(state.alerts, slices: slices)
        self.slices = slices
        self.cache = cache
        fetcher = FetchActor(
            provider: provider, sources: configuration.makeOfficialSources(), transport: transport, cache: cache,
            clock: clock, policy: configuration.fetch)
        self.registry = registry
        self.metricsRecorder = metricsRecorder
        self.writer = writer
        self.bus = bus
        self.snapshotter = snapshotter
        dataDirectory = opened.directory
        self.clock = clock
        self.runtime = runtime
        self.logger = logger
        locationPrecision = configuration.locationPrecision
        maxFavorites = configuration.maxFavorites
        info = ServiceInfo(
            version: Self.version, startedAt: clock.timestamp(), fsync: configuration.fsync, provider: provider.name,
            skippedEvents: state.skippedEvents, commandWindow: configuration.commandWindow,
            startup: opened.replay.startup)
        alertActor = AlertActor(
            cache: cache, favorites: favorites, location: location, alerts: alerts, follower: follower, clock: clock,
            pool: runtime.pool, logger: logger, ensembleModel: configuration.ensembleModel)
        let from = opened.replay.startup.snapshotSeq.map { "the snapshot of seq \($0) and " } ?? ""
        logger.info(
            "serving \(opened.directory.path): started from \(from)\(opened.replay.startup.replayedEvents) events "
                + "replayed, last seq \(opened.position.nextSeq - 1)")
    }

    /// The log writer and snapshotter as a service: a group starts it first and stops it last, so
    /// `service.stopped` follows everything else.
    package var logService: any Service { EngineLogService(engine: self) }

    /// The refresh scheduler and the alert actor as services; a group starts them after the front that
    /// serves clients, so at shutdown they stop first (no new scheduled fetch during the front's grace).
    package func workerServices() -> [any Service] {
        var services: [any Service] = [
            AlertService(actor: alertActor, summaryCheckInterval: configuration.summaryCheckInterval),
            CompactionService(
                directory: dataDirectory.path, retainPayloads: configuration.retainPayloads,
                retainAudit: configuration.retainAudit, writer: writer,
                snapshots: SnapshotStore(directory: opened.directory),
                lastTruncation: opened.replay.state.lastTruncation, clock: clock, pool: runtime.pool,
                delay: .seconds(60), interval: .seconds(6 * 3600), logger: logger,
                shipped: { [self] in
                    guard configuration.nats != nil else { return true }
                    return shipStatus.map { $0.lag(lastSeq: writer.status.lastSeq) == 0 } ?? false
                }),
        ]
        if let interval = configuration.warningsInterval {
            services.append(OfficialChecksService(engine: self, interval: interval))
        }
        if let interval = configuration.nowcastCheckInterval {
            services.append(NowcastWatchService(engine: self, interval: interval))
        }
        if let interval = configuration.refreshInterval {
            services.append(
                RefreshService(
                    scheduler: RefreshScheduler(interval: interval, clock: clock) { [self] only in
                        await refreshFavorites(only: only)
                    }))
        }
        return services
    }

    /// Runs the log writer and the snapshotter until `finishLog`; the last snapshot is written after the
    /// writer's last batch. (`logService` runs it.)
    package func runLog() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [writer, snapshotter] in
                await writer.run()
                snapshotter.finish()
            }
            group.addTask { [writer, snapshotter] in await snapshotter.run(writer: writer) }
        }
    }

    /// Stops the log writer once everything queued is written; appends fail from now on.
    package func finishLog() { writer.finish() }

    /// Releases the data dir's lock.
    package func releaseLock() { opened.lock.release() }

    /// Returns once the alert rules have handled every event committed so far (a barrier for tests and for
    /// whatever must see the alerts a change raises).
    package func alertsCaughtUp() async { await alertActor.handled.wait(reaching: follower.lastSeq) }

    /// Waits for the background work a request started (a refresh after a move).
    package func drainBackground() async { await background.drain() }

    /// Records why the engine stops (the first reason given wins); `service.stopped` carries it.
    package func setStopReason(_ reason: String) {
        stopReason.withLock { if $0 == nil { $0 = reason } }
    }

    var stoppedReason: String { stopReason.withLock { $0 } ?? "eof" }

    /// Adds the front's facts to `service/status`, read when it is asked.
    package func setFrontStatus(_ facts: @escaping @Sendable () -> FrontStatus) {
        frontFacts.set(facts)
    }

    var frontStatus: FrontStatus? { frontFacts.callback?() }

    /// Where the HTTP face listens (`http://127.0.0.1:9466/`), once it does: `service/status` shows it.
    package var httpURL: String? {
        get { httpAddress.withLock { $0 } }
        set { httpAddress.withLock { $0 = newValue } }
    }

    /// Where `service/status` and the metrics read how far the log is shipped.
    package func setShipStatus(_ facts: @escaping @Sendable () -> ShipStatus) {
        shipFacts.set(facts)
    }

    var shipStatus: ShipStatus? { shipFacts.callback?() }

    /// The opened data dir (its lock is released when the log service stops).
    var openedDataDir: OpenedDataDir { opened }

    /// The path of the data dir.
    package var dataDirectoryPath: String { dataDirectory.path }

    /// Lets in-flight background refreshes and upstream calls finish until the shutdown's deadline, then
    /// cancels what is left (cut upstream calls are audited as timeouts) and waits for it.
    package func finishBackground(by shutdown: ShutdownDeadline) async {
        shutdown.begin()
        let deadline = shutdown.deadline ?? clock.now
        let finished = await withDeadline(deadline, clock: clock) {
            await self.background.drain()
            await self.fetcher.drain()
            return true
        } onTimeout: {
            false
        }
        if !finished {
            background.cancelAll()
            await fetcher.abandonAll()
            await background.drain()
            await fetcher.drain()
        }
    }
}

/// Facts about the running service, for `service/status`.
package struct ServiceInfo: Sendable {
    package var version: String
    package var startedAt: Timestamp
    package var fsync: FsyncMode
    package var provider: String
    /// Events replay skipped because this build does not know their type or version.
    package var skippedEvents: [EventKind: Int]
    /// The command window (`--command-window`).
    package var commandWindow: Int
    /// What start-up did: the snapshot it loaded and how many events it replayed.
    package var startup: Replay.Startup
}
