import WeatherDomain
import WeatherEngine

/// One call of a method, as the handler sees it.
package struct MethodCall: Sendable {
    /// The request id; nil for a notification.
    package var id: JSONValue?
    /// The params object (empty when absent).
    package var params: FieldReader
    /// The `cause` recorded on the events it writes: `<connection>/rpc:<id>`.
    package var cause: String
    /// The client's `commandId`, recorded as `corr`.
    package var corr: String?

    /// The origin the engine records.
    package var origin: Origin { Origin(cause: cause, corr: corr) }
}

/// The methods of `controllers` by name (the first controller to name a method keeps it).
func methodTable(_ controllers: [any Controller]) -> [String: MethodHandler] {
    var methods: [String: MethodHandler] = [:]
    for controller in controllers {
        methods.merge(controller.methods) { first, _ in first }
    }
    return methods
}

/// The engine's controllers that need no connection of their own (weather, places, favorites, settings, location,
/// alerts, the log, warnings, the past, confidence): what every connection serves beside its subscriptions and
/// MCP, and what the HTTP face calls in-process.
func connectionlessControllers(_ engine: Engine) -> [any Controller] {
    [
        WeatherController(weather: engine), FavoritesController(favorites: engine),
        SettingsController(settings: engine), LocationController(location: engine), AlertsController(alerts: engine),
        LogController(log: engine), OfficialController(weather: engine), PastController(weather: engine),
        ConfidenceController(weather: engine),
    ]
}

/// A group of methods of one face; holds only what its methods use.
protocol Controller: Sendable {
    /// The methods by name.
    var methods: [String: MethodHandler] { get }
}

/// A method: whether it changes state, and its first phase.
///
/// `begin` runs in the server's dispatch loop, one request at a time in arrival order: it checks
/// params and, for a change, decides and queues the events. The `Completion` it returns (waiting
/// for durability, reading, formatting) runs concurrently with other requests.
package struct MethodHandler: Sendable {
    /// Whether the method changes state (and so accepts `commandId`).
    package var changesState: Bool
    /// The params members the method accepts, besides `commandId` and `_meta`.
    package var params: Set<String>
    package var begin: @Sendable (MethodCall) async throws -> Completion<JSONValue>

    package init(
        changesState: Bool = false, params: Set<String> = [],
        begin: @escaping @Sendable (MethodCall) async throws -> Completion<JSONValue>
    ) {
        self.changesState = changesState
        self.params = params
        self.begin = begin
    }
}
