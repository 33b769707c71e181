import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherWire

/// `/mcp`: MCP's Streamable HTTP transport, for hosts that connect to a server by URL, with the same tools and
/// resources as on standard input and output.
///
/// - `POST /mcp` takes one JSON-RPC message. A request is answered as `application/json` with its answer; a
///   notification or a response is taken with `202 Accepted` and no body.
/// - `initialize` without `Mcp-Session-Id` opens a session: the answer carries its `Mcp-Session-Id`, which every
///   later request of the session sends. A session is a connection of its own (its version, its subscriptions,
///   its request ids). An unknown or ended session id is a 404, as the transport says, so the host initializes
///   again. A request without a session id that is not `initialize` is served on a connection of its own and
///   forgotten (the 2026-07-28 era, which names its version in each request's `_meta`, needs no session).
/// - `GET /mcp` with the session's id is a Server-Sent Events stream of the session's notifications (a
///   resource's `notifications/resources/updated`); one at a time per session, a second is a 409. Notifications
///   come only while a stream is open.
/// - `DELETE /mcp` ends the session.
/// - `MCP-Protocol-Version`, when sent, must be a version weatherd speaks (400 otherwise); `Origin`, when sent,
///   must be this host's (403), as for every change; the token is needed, as for `/v1`.
/// - At most `maxSessions` live at once; opening one more ends the one used longest ago.
final class MCPOverHTTP: Sendable {
    static let maxSessions = 32

    private struct State {
        var sessions: [String: (session: MCPHTTPSession, used: Int)] = [:]
        var uses = 0
        var opened = 0
    }

    private let engine: Engine
    private let state = Mutex(State())

    init(engine: Engine) { self.engine = engine }

    func answer(_ request: HTTPRequest) async -> HTTPResponse {
        if let refusal = APIFace.checkOrigin(request) { return refusal }
        if let version = request.headers["MCP-Protocol-Version"], MCPVersion(rawValue: version) == nil {
            return Self.error(
                .badRequest, .invalidRequest("MCP-Protocol-Version \(version) is not one weatherd speaks"))
        }
        switch request.method {
        case "POST": return await post(request)
        case "GET": return stream(request)
        case "DELETE":
            guard let id = request.headers["Mcp-Session-Id"], let session = take(id) else { return Self.noSession() }
            await session.end()
            return HTTPResponse(.noContent)
        default: return APIFace.methodNotAllowed(["GET", "POST", "DELETE"])
        }
    }

    private func post(_ request: HTTPRequest) async -> HTTPResponse {
        let message: JSONValue
        do {
            message = try JSONValue.parse(request.body, maxDepth: RPCServer.maxDepth)
        } catch {
            return Self.error(.badRequest, RPCServer.error(for: error))
        }
        guard case .object(let members) = message else {
            return Self.error(.badRequest, .invalidRequest("one JSON-RPC message, an object, per POST"))
        }
        let session: MCPHTTPSession
        var ephemeral = false
        if let id = request.headers["Mcp-Session-Id"] {
            guard let found = lookUp(id) else { return Self.noSession() }
            session = found
        } else if members["method"] == "initialize" {
            session = await open()
        } else {
            session = MCPHTTPSession(engine: engine, id: "", label: "http-mcp")
            ephemeral = true
        }
        guard let id = members["id"], members["method"] != nil else {
            await session.deliver(request.body)
            if ephemeral { await session.end() }
            return HTTPResponse(.accepted)
        }
        let answer = await session.call(request.body, id: id)
        if ephemeral { await session.end() }
        guard let answer else { return Self.noSession() }
        var response = HTTPResponse(.ok, headers: HTTPHeaders([("Content-Type", "application/json")]), body: answer)
        if !ephemeral { response.headers.add("Mcp-Session-Id", session.id) }
        return response
    }

    /// `GET /mcp`: the session's notifications as Server-Sent Events.
    private func stream(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.headers["Mcp-Session-Id"], let session = lookUp(id) else { return Self.noSession() }
        guard !session.isStreaming else {
            return Self.error(.conflict, .invalidRequest("this session has a stream open already"))
        }
        var response = HTTPResponse(
            .ok, headers: HTTPHeaders([("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")]))
        response.stream = HTTPStream { sink in
            _ = await session.stream { line in
                sink.write(Array("event: message\ndata: ".utf8) + line + Array("\n\n".utf8))
                return await sink.room()
            }
        }
        return response
    }

    private func open() async -> MCPHTTPSession {
        let id = Secret.randomHex(bytes: 16)
        let (session, evicted) = state.withLock { state -> (MCPHTTPSession, MCPHTTPSession?) in
            state.opened += 1
            state.uses += 1
            let session = MCPHTTPSession(engine: engine, id: id, label: "http-mcp:\(state.opened)")
            var evicted: MCPHTTPSession?
            if state.sessions.count >= Self.maxSessions,
                let oldest = state.sessions.min(by: { $0.value.used < $1.value.used })?.key
            {
                evicted = state.sessions.removeValue(forKey: oldest)?.session
            }
            state.sessions[id] = (session, state.uses)
            return (session, evicted)
        }
        await evicted?.end()
        return session
    }

    private func lookUp(_ id: String) -> MCPHTTPSession? {
        state.withLock { state in
            guard let found = state.sessions[id] else { return nil }
            state.uses += 1
            state.sessions[id]?.used = state.uses
            return found.session
        }
    }

    private func take(_ id: String) -> MCPHTTPSession? {
        state.withLock { $0.sessions.removeValue(forKey: id)?.session }
    }

    /// Ends every session (at shutdown).
    func endAll() async {
        let all = state.withLock { state in
            defer { state.sessions = [:] }
            return state.sessions.values.map(\.session)
        }
        for session in all { await session.end() }
    }

    private static func noSession() -> HTTPResponse {
        error(.notFound, .invalidRequest("no such MCP session (it ended, or weatherd restarted): initialize again"))
    }

    /// A JSON-RPC error with id null, as the transport answers what it cannot take.
    private static func error(_ status: HTTPStatus, _ error: RPCError) -> HTTPResponse {
        var line: [UInt8] = []
        RPCLine.error(id: .null, error, into: &line)
        return HTTPResponse(status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: line)
    }
}
