import WeatherDomain

/// What a method's first phase returns: the rest of the work, run concurrently.
public typealias Completion = @Sendable () async throws -> JSONValue

/// One call of a method, as the handler sees it.
public struct MethodCall: Sendable {
    /// The request id; nil for a notification.
    public var id: JSONValue?
    /// The params object (empty when absent).
    public var params: FieldReader
    /// The `cause` recorded on the events it writes: `rpc:<id>`.
    public var cause: String
    /// The client's `commandId`, recorded as `corr`.
    public var corr: String?
}

/// A method: whether it changes state, and its first phase.
///
/// `begin` runs in the server's dispatch loop, one request at a time in arrival order: it checks
/// params and, for a change, decides and queues the events. The `Completion` it returns (waiting
/// for durability, reading, formatting) runs concurrently with other requests.
public struct MethodHandler: Sendable {
    /// Whether the method changes state (and so accepts `commandId`).
    public var changesState: Bool
    /// The params members the method accepts, besides `commandId` and `_meta`.
    public var params: Set<String>
    public var begin: @Sendable (MethodCall) async throws -> Completion

    public init(
        changesState: Bool = false, params: Set<String> = [],
        begin: @escaping @Sendable (MethodCall) async throws -> Completion
    ) {
        self.changesState = changesState
        self.params = params
        self.begin = begin
    }
}
