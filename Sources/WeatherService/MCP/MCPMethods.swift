import WeatherDomain
import WeatherEngine

/// The log levels of `logging/setLevel` (RFC 5424 severities).
enum MCPLogLevel: String, CaseIterable, Sendable {
    case debug, info, notice, warning, error, critical, alert, emergency
}

/// The MCP face of one connection: its methods by name, over the engine's API (as the JSON-RPC
/// face), with the connection's MCP session and pushes.
struct MCPController: Controller {
    let engine: Engine
    let session: MCPSession
    let pushes: Pushes
    /// The connection's nowcast watches (a subscribed nowcast resource's), which end with it.
    let watches: NowcastWatches

    var methods: [String: MethodHandler] {
        let mcp = {
            (
                params: Set<String>, beforeHandshake: Bool,
                body: @escaping @Sendable (MCPRequest, MethodCall) async throws -> Completion<JSONValue>
            ) in
            MethodHandler(params: params) { call in
                try await body(try session.admit(call, beforeHandshake: beforeHandshake), call)
            }
        }
        return [
            "server/discover": MethodHandler { _ in Completion { MCPDescription.discover(session) } },
            "initialize": MethodHandler(params: ["protocolVersion", "capabilities", "clientInfo"]) { call in
                let version = try session.initialize(requested: try call.params.string("protocolVersion"))
                return Completion { MCPDescription.initialize(version, session) }
            },
            "notifications/initialized": MethodHandler { _ in Completion { .null } },
            "ping": mcp([], true) { request, _ in Completion { request.result([:]) } },
            "logging/setLevel": mcp(["level"], false) { request, call in
                guard !request.version.isStateless else { throw RPCError.methodNotFound("logging/setLevel") }
                guard let level = try call.params.choice("level", as: MCPLogLevel.self) else {
                    throw FieldError(path: "params.level", problem: "is required")
                }
                session.setLogLevel(level.rawValue)
                return Completion { request.result([:]) }
            },
            "tools/list": mcp(["cursor"], false) { request, _ in
                Completion {
                    request.cacheable(
                        ["tools": .array(MCPTool.listed.map { $0.json(for: request.version) })], ttlMs: 3_600_000,
                        scope: "public")
                }
            },
            "tools/call": mcp(["name", "arguments", "inputResponses", "requestState"], false) { request, call in
                try await callTool(request, call)
            },
            "resources/list": mcp(["cursor"], false) { request, _ in Completion { await listResources(request) } },
            "resources/templates/list": mcp(["cursor"], false) { request, _ in
                Completion { listResourceTemplates(request) }
            },
            "resources/read": mcp(["uri", "inputResponses", "requestState"], false) { request, call in
                let uri = try call.params.string("uri")
                return Completion { try await readResource(uri, request, call) }
            },
            "resources/subscribe": mcp(["uri"], false) { request, call in
                guard !request.version.isStateless else { throw RPCError.methodNotFound("resources/subscribe") }
                let uri = try call.params.string("uri")
                guard let target = try MCPResourceURI.checkedTarget(uri) else {
                    throw MCPErrors.resourceNotFound(uri, version: request.version)
                }
                return Completion {
                    session.resolve(uri, key: try await placeKey(of: uri, cause: call.cause))
                    session.startFollower { await followResourceChanges(session) }
                    pushes.afterAnswer(to: call.id) { session.subscribe(uri) }
                    if case .weather("nowcast", let place) = target {
                        let query = try await placeQuery(place)
                        pushes.startSubscription(Self.watchID(uri)) {
                            await engine.watchNowcast(query, by: watches, cause: call.cause)
                        }
                    }
                    return request.result([:])
                }
            },
            "resources/unsubscribe": mcp(["uri"], false) { request, call in
                guard !request.version.isStateless else { throw RPCError.methodNotFound("resources/unsubscribe") }
                let uri = try call.params.string("uri")
                session.unsubscribe(uri)
                _ = pushes.stopSubscriptions(Self.watchID(uri))
                return Completion { request.result([:]) }
            },
            "subscriptions/listen": mcp(["notifications"], false) { request, call in
                guard request.version.isStateless, let id = call.id else {
                    throw RPCError.methodNotFound("subscriptions/listen")
                }
                let filter = try FieldReader(call.params.members["notifications"], path: "params.notifications")
                let uris = try (try filter.optionalStrings("resourceSubscriptions") ?? []).filter {
                    uri throws(FieldError) in try MCPResourceURI.checkedTarget(uri) != nil
                }
                guard session.reserveListener(id: id) else {
                    throw RPCError.invalidRequest("a subscriptions/listen stream with this request id is open already")
                }
                return Completion {
                    for uri in uris { session.resolve(uri, key: try await placeKey(of: uri, cause: call.cause)) }
                    var accepted: [String: JSONValue] = [:]
                    if filter.has("resourceSubscriptions") {
                        accepted["resourceSubscriptions"] = .array(uris.map { .string($0) })
                    }
                    pushes.notify(
                        "notifications/subscriptions/acknowledged",
                        ["_meta": [MCPMeta.subscriptionId: id], "notifications": .object(accepted)])
                    session.openListener(id: id, uris: Set(uris))
                    session.startFollower { await followResourceChanges(session) }
                    try await session.waitForEnd(of: id)
                    return [
                        "resultType": "complete",
                        "_meta": [MCPMeta.serverInfo: session.serverInfo, MCPMeta.subscriptionId: id],
                    ]
                }
            },
            "completion/complete": mcp(["ref", "argument", "context"], false) { request, call in
                Completion { try await complete(request, call.params, cause: call.cause) }
            },
        ]
    }
}

extension MCPController {
    /// The id of the watch a subscription to a nowcast resource holds (ended by `resources/unsubscribe`).
    static func watchID(_ uri: String) -> String { "nowcast-watch:" + uri }
}
