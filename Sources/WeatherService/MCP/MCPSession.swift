import Synchronization
import WeatherDomain
import WeatherEngine

/// The MCP state of the one connection a weatherd process serves: its era and negotiated version,
/// its resource subscriptions (`resources/subscribe`) and its `subscriptions/listen` streams.
///
/// The era is fixed by the first real MCP request: `initialize` selects the handshake era, the first
/// request carrying `io.modelcontextprotocol/protocolVersion` in `_meta` the stateless era.
/// `server/discover` and weatherd's own methods never fix it.
package final class MCPSession: Sendable {
    /// The connection's era.
    enum Era: Equatable, Sendable {
        case undecided
        case handshake(MCPVersion)
        case stateless
    }

    /// An open `subscriptions/listen` stream.
    private struct Listener {
        var uris: Set<String>
        var done: CheckedContinuation<Void, any Error>?
    }

    private struct State {
        var era = Era.undecided
        var logLevel = "info"
        /// URIs subscribed with `resources/subscribe` (handshake era).
        var subscribed: Set<String> = []
        /// Open listen streams by the id of their request (stateless era).
        var listeners: [JSONValue: Listener] = [:]
        /// The place key of each subscribed template URI, resolved when it was subscribed.
        var keys: [String: String] = [:]
        var follower: Task<Void, Never>?
        var closed = false
    }

    private let state = Mutex(State())
    /// `{name, version}` of this server.
    let serverInfo: JSONValue

    package init(version: String) {
        serverInfo = ["name": "weatherd", "version": .string(version)]
    }

    /// The era so far.
    var era: Era { state.withLock { $0.era } }

    /// Admits an MCP request under the connection's era, fixing the era when it is the first.
    ///
    /// - Parameter beforeHandshake: the method may run before `initialize` (`ping`).
    /// - Throws: `RPCError` for a request the era does not allow, or malformed `_meta`.
    func admit(_ call: MethodCall, beforeHandshake: Bool = false) throws(RPCError) -> MCPRequest {
        let meta = call.params.members["_meta"]?.objectValue ?? [:]
        var progressToken: JSONValue?
        switch meta["progressToken"] {
        case .string?, .int?: progressToken = meta["progressToken"]
        default: progressToken = nil
        }
        if let requested = meta[MCPMeta.protocolVersion] {
            guard case .string(let text) = requested else {
                throw .invalidParams("params._meta[\"\(MCPMeta.protocolVersion)\"] must be a string")
            }
            guard MCPVersion(rawValue: text)?.isStateless == true else { throw MCPErrors.unsupported(text) }
            guard meta[MCPMeta.clientCapabilities]?.objectValue != nil else {
                throw .invalidParams("params._meta[\"\(MCPMeta.clientCapabilities)\"] is required (an object)")
            }
            let previous = state.withLock { state -> Era in
                if state.era == .undecided { state.era = .stateless }
                return state.era
            }
            if case .handshake(let version) = previous { throw MCPErrors.eraMismatch(version) }
            return MCPRequest(version: .v20260728, id: call.id, progressToken: progressToken, serverInfo: serverInfo)
        }
        switch era {
        case .handshake(let version):
            return MCPRequest(version: version, id: call.id, progressToken: progressToken, serverInfo: serverInfo)
        case .stateless:
            throw .invalidParams(
                "params._meta[\"\(MCPMeta.protocolVersion)\"] is required: this connection speaks 2026-07-28")
        case .undecided:
            guard beforeHandshake else { throw MCPErrors.notInitialized }
            return MCPRequest(
                version: .latestHandshake, id: call.id, progressToken: progressToken, serverInfo: serverInfo)
        }
    }

    /// `initialize`: negotiates the version (the client's when weatherd speaks it, else the latest)
    /// and fixes the handshake era.
    func initialize(requested: String) throws(RPCError) -> MCPVersion {
        let version = MCPVersion.handshake.first { $0.rawValue == requested } ?? .latestHandshake
        let previous = state.withLock { state -> Era in
            if state.era != .stateless { state.era = .handshake(version) }
            return state.era
        }
        if previous == .stateless { throw MCPErrors.statelessInitialize }
        return version
    }

    /// `logging/setLevel`.
    func setLogLevel(_ level: String) { state.withLock { $0.logLevel = level } }

    /// Records the place key of a template URI, for matching fetches to it.
    func resolve(_ uri: String, key: String?) {
        guard let key else { return }
        state.withLock { $0.keys[uri] = key }
    }

    /// `resources/subscribe`.
    func subscribe(_ uri: String) { state.withLock { _ = $0.subscribed.insert(uri) } }

    /// `resources/unsubscribe`.
    func unsubscribe(_ uri: String) { state.withLock { _ = $0.subscribed.remove(uri) } }

    /// Claims request `id` for a listen stream (with no URIs yet); false when a stream with that id is
    /// open already, whose waiting answer would otherwise be lost (and shutdown would wait on it).
    func reserveListener(id: JSONValue) -> Bool {
        state.withLock { state in
            guard state.listeners[id] == nil else { return false }
            state.listeners[id] = Listener(uris: [])
            return true
        }
    }

    /// Sets the URIs of the listen stream `id` (reserved with `reserveListener`).
    func openListener(id: JSONValue, uris: Set<String>) {
        state.withLock { $0.listeners[id]?.uris = uris }
    }

    /// Waits until the listen stream `id` ends: normally when the session closes, by throwing
    /// `CancellationError` when the request is cancelled.
    func waitForEnd(of id: JSONValue) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Bool? in
                    if state.closed { return true }
                    guard state.listeners[id] != nil else { return false }
                    state.listeners[id]?.done = continuation
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let waiting = state.withLock { $0.listeners.removeValue(forKey: id)?.done }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Where a change must be announced: each URI with the listen stream it goes to (nil: the
    /// handshake era's subscriptions).
    func targets(of change: ResourceChange) -> [(uri: String, subscription: JSONValue?)] {
        state.withLock { state in
            let matches = { (uri: String) in change.matches(uri, key: state.keys[uri]) }
            var targets = state.subscribed.filter(matches).sorted().map { (uri: $0, subscription: JSONValue?.none) }
            for (id, listener) in state.listeners {
                targets += listener.uris.filter(matches).sorted().map { (uri: $0, subscription: Optional(id)) }
            }
            return targets
        }
    }

    /// Starts the task that follows committed events for subscriptions, once.
    func startFollower(_ operation: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard state.follower == nil, !state.closed else { return }
            state.follower = Task { await operation() }
        }
    }

    /// Ends the session at shutdown: listen streams end with their result, the follower stops.
    package func close() {
        let (waiting, follower) = state.withLock { state in
            state.closed = true
            let waiting = state.listeners.values.compactMap(\.done)
            state.listeners = [:]
            defer { state.follower = nil }
            return (waiting, state.follower)
        }
        for continuation in waiting { continuation.resume() }
        follower?.cancel()
    }
}

/// A change that may concern subscribed resources.
enum ResourceChange: Sendable, Equatable {
    case favorites
    case alerts
    /// A fetch of official warnings.
    case warnings
    /// A fetch of `kind` (`current` or `forecast`) for the place with `key`.
    case weather(kind: String, key: String)

    func matches(_ uri: String, key: String?) -> Bool {
        switch self {
        case .favorites: uri == MCPResourceURI.favorites
        case .alerts: uri == MCPResourceURI.alerts
        case .warnings: uri == MCPResourceURI.warnings
        case .weather(let kind, let fetched): uri.hasPrefix("weather://\(kind)/") && key == fetched
        }
    }
}

/// The reserved `_meta` keys weatherd reads and writes.
enum MCPMeta {
    static let protocolVersion = "io.modelcontextprotocol/protocolVersion"
    static let clientCapabilities = "io.modelcontextprotocol/clientCapabilities"
    static let serverInfo = "io.modelcontextprotocol/serverInfo"
    static let subscriptionId = "io.modelcontextprotocol/subscriptionId"
}
