import EventLog
import Foundation
import Providers
import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService

/// The service in this process on a temporary data dir: the real methods, RPC front and log writer, run by
/// weatherd's own service group (`ServiceGroup.weatherd`), with a collecting sink instead of stdout and a manual
/// clock.
///
/// What differs from a daemon is configuration only: the log records no `service.started`/`service.stopped` (a
/// test's first event is seq 1), and the scheduled refresh and the nowcast watch run only when a test sets their
/// intervals (`configure`), so that no call happens behind a test's back when it advances the clock.
package final class InProcessWeatherd: Sendable {
    package let engine: Engine
    package let output = CollectingSink()
    package let connection: Connection
    package var server: RPCServer { connection.server }
    /// The provider's in-memory network: route replies here.
    package let network: InMemoryTransport
    /// weatherd's service group, and the task that runs it until `stop`.
    private let group: ServiceGroup
    private let running: Task<Void, Never>
    /// The service's one clock: wall time, deadlines, backoff and every timer.
    package let clock: ManualClock
    private let nextID = Mutex<Int64>(1)

    /// Opens the service on `directory` (replaying whatever log is there); the weather provider is Open-Meteo at
    /// `http://weather.test` and `http://geo.test` unless `provider` is given. Its calls go to `network` unless
    /// `transport` is given (the live one, to a `LocalHTTPServer` on 127.0.0.1 that counts what it is asked).
    package init(
        directory: TemporaryDataDirectory, clock: ManualClock = ManualClock(), fsync: FsyncMode = .always,
        maxLineBytes: Int = 1 << 20, commandWindow: Int = 100_000, file: FaultInjectingFile? = nil,
        network: InMemoryTransport = InMemoryTransport(), fetch: FetchPolicy = .inProcess,
        snapshotEvery: Int = 10_000, maxFavorites: Int = FavoritesDecisions.defaultMaxCount,
        segmentBytes: Int64 = 64 << 20, logger: Logger = Logger(level: .error), warningsInterval: Duration? = nil,
        warningsLanguage: String? = nil, followerCapacity: Int = 10_000,
        summaryCheckInterval: Duration? = .seconds(60), provider: (any WeatherProvider)? = nil,
        autoLocator: AutoLocator = .unavailable, transport: HTTPTransport? = nil,
        configure: (inout Configuration) -> Void = { _ in }
    ) throws {
        self.network = network
        self.clock = clock
        var configuration = Configuration(dataDirectory: directory.path)
        configuration.segmentBytes = segmentBytes
        configuration.fsync = fsync
        configuration.maxLineBytes = maxLineBytes
        configuration.commandWindow = commandWindow
        configuration.fetch = fetch
        configuration.snapshotEvery = snapshotEvery
        configuration.maxFavorites = maxFavorites
        configuration.nwsBaseURL = Self.nwsBaseURL
        configuration.contact = "tests@weatherd.test"
        configuration.meteoAlarmBaseURL = Self.meteoAlarmBaseURL
        configuration.brightSkyBaseURL = Self.brightSkyBaseURL
        configuration.fpasBaseURL = Self.fpasBaseURL
        configuration.openMeteoAirQualityBaseURL = Self.airQualityBaseURL
        configuration.warningsInterval = warningsInterval
        configuration.warningsLanguage = warningsLanguage
        configuration.followerCapacity = followerCapacity
        configuration.summaryCheckInterval = summaryCheckInterval
        configuration.metNorwayBaseURL = Self.metNorwayBaseURL
        configuration.openMeteoArchiveBaseURL = Self.archiveBaseURL
        configuration.openMeteoHistoricalForecastBaseURL = Self.historicalForecastBaseURL
        configuration.openMeteoEnsembleBaseURL = Self.ensembleBaseURL
        configuration.openMeteoBaseURL = "http://weather.test"
        configuration.lifecycleEvents = false
        configuration.refreshInterval = nil
        configuration.nowcastCheckInterval = nil
        configure(&configuration)
        let opened = try Self.open(configuration: configuration, clock: clock, logger: logger, file: file)
        let engine = Engine(
            opened, configuration: configuration, runtime: .testing(clock: clock), logger: logger,
            provider: provider
                ?? OpenMeteoProvider(baseURL: "http://weather.test", geocodingBaseURL: "http://geo.test"),
            transport: transport ?? network.transport, autoLocator: autoLocator)
        self.engine = engine
        let connection = Connection(engine: engine, label: "stdio", sink: output, maxLineBytes: maxLineBytes)
        self.connection = connection
        let group = ServiceGroup.weatherd(engine, front: HeldFront(connection: connection, engine: engine))
        self.group = group
        running = Task { await group.run() }
    }

    /// The base URLs the official sources are asked at (route replies by their paths).
    package static let nwsBaseURL = "http://nws.test"
    package static let metNorwayBaseURL = "http://met.test"
    package static let meteoAlarmBaseURL = "http://meteoalarm.test"
    package static let brightSkyBaseURL = "http://brightsky.test"
    package static let fpasBaseURL = "http://fpas.test"
    package static let airQualityBaseURL = "http://aq.test"
    package static let archiveBaseURL = "http://archive.test"
    package static let historicalForecastBaseURL = "http://historical-forecast.test"
    package static let ensembleBaseURL = "http://ensemble.test"

    /// Opens the data dir, waiting up to 5 s while its lock is held by this very process. That happens only
    /// in tests that stop a service and open the dir again: the lock's descriptor is closed, but a child
    /// process that another test is spawning at that moment may still hold a copy of it until its `exec`
    /// (close-on-exec closes it there), and the lock is free only when every copy is closed.
    private static func open(
        configuration: Configuration, clock: ManualClock, logger: Logger, file: FaultInjectingFile?
    ) throws -> OpenedDataDir {
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        let heldHere = "(pid \(getpid()))"
        while true {
            let failure: StartupError
            do {
                return try OpenedDataDir.open(configuration: configuration, clock: clock, logger: logger) {
                    path in
                    guard let file else { return try PosixLogFile(path: path) }
                    return file
                }
            } catch {
                failure = error
            }
            guard failure.kind == "data_dir_in_use", failure.description.contains(heldHere),
                ContinuousClock.now < deadline
            else { throw failure }
            usleep(10_000)
        }
    }

    /// Runs `body` against a service on a fresh temporary data dir, and stops the service afterwards.
    package static func with(
        clock: ManualClock = ManualClock(), file: FaultInjectingFile? = nil,
        network: InMemoryTransport = InMemoryTransport(), fetch: FetchPolicy = .inProcess,
        _ body: (InProcessWeatherd) async throws -> Void
    ) async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, file: file, network: network, fetch: fetch)
        do {
            try await body(service)
        } catch {
            await service.stop()
            throw error
        }
        await service.stop()
    }

    /// Feeds one raw input line, as the stdin reader would.
    package func receive(_ line: [UInt8]) async {
        var splitter = LineSplitter(maxLineBytes: server.maxLineBytes)
        var items: [LineSplitter.Item] = []
        line.withUnsafeBytes { splitter.feed($0) { items.append($0) } }
        splitter.finish { items.append($0) }
        for item in items { await server.receive(item) }
    }

    /// Sends a request and returns the whole response object.
    package func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        let id = nextID.withLock { id in
            defer { id += 1 }
            return id
        }
        var request: [String: JSONValue] = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
        if let params { request["params"] = params }
        await receive(JSONValue.object(request).jsonBytes)
        guard let response = try await output.response(id: .int(id)) else {
            throw RunningWeatherdError("no response to \(method)")
        }
        return response
    }

    /// Sends a request and returns its `result`, failing when it is an error.
    package func result(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        let response = try await call(method, params)
        guard let result = response["result"] else {
            throw RunningWeatherdError("\(method) failed: \(response.jsonString)")
        }
        return result
    }

    /// Shuts the service group down gracefully, as SIGTERM does a daemon's: the workers stop, every request is
    /// answered, the writer stops (and the snapshotter writes a last snapshot) and the data dir is released.
    package func stop() async {
        group.triggerGracefulShutdown()
        await running.value
    }
}

/// The harness's front: the test feeds its connection (`receive`); at the graceful shutdown it answers every
/// request in flight and waits for the background work they started.
private struct HeldFront: Service {
    let connection: Connection
    let engine: Engine

    func run() async {
        await gracefulShutdown()
        await connection.finish(grace: .seconds(3600), cutShort: [])
        await engine.drainBackground()
    }
}

extension FetchPolicy {
    /// The policy in-process services run with unless a test says otherwise: retries follow at once, since
    /// nothing moves the manual clock behind a test's back (backoff is asserted where it is under test, by
    /// advancing the clock).
    package static var inProcess: FetchPolicy {
        var policy = FetchPolicy()
        policy.backoff = .zero
        return policy
    }
}
