import EventLog
import Providers
import WeatherDomain

/// Everything the methods work with, built once by `WeatherdService` and passed down.
public struct ServiceContext: Sendable {
    public let favorites: StateActor<FavoritesState>
    public let history: StateActor<HistoryState>
    public let settings: StateActor<SettingsState>
    public let location: StateActor<LocationState>
    public let cache: StateActor<WeatherCache>
    public let alerts: StateActor<AlertState>
    public let fetcher: FetchActor
    public let registry: CommandRegistry
    public let writer: LogWriter
    public let bus: EventBus
    public let dataDirectory: DataDirectory
    public let clock: WallClock
    public let info: ServiceInfo
    public let logger: Logger
    /// Work started by a request but not awaited by it (a refresh after a move), drained at shutdown.
    public let background: BackgroundWork
    /// Notifications to the client and work that follows an answer.
    public let pushes: Pushes
    /// Decimals kept of the client's coordinates (`--location-precision`).
    public let locationPrecision: Int
    /// Damage found in the log while serving.
    public let logHealth = LogHealth()
    /// The most favorites kept (`--max-favorites`).
    public var maxFavorites = FavoritesDecisions.defaultMaxCount
}

/// Facts about the running service, for `service/status`.
public struct ServiceInfo: Sendable {
    public var version: String
    public var startedAt: Timestamp
    public var fsync: FsyncMode
    public var provider: String
    /// Events replay skipped because this build does not know their type or version.
    public var skippedEvents: [EventKind: Int]
    /// The command window (`--command-window`).
    public var commandWindow: Int
    /// What start-up did: the snapshot it loaded and how many events it replayed.
    public var startup: Replay.Startup
}

/// The wall clock, injected so tests control time.
public struct WallClock: Sendable {
    public var now: @Sendable () -> Timestamp

    public init(now: @escaping @Sendable () -> Timestamp) { self.now = now }
}
