import WeatherDomain
import WeatherEngine

/// One JSON-lines peer of the engine (standard input and output, or one socket connection): its own
/// request-id space and cancellation, its event and alert feeds, its MCP era and negotiated version,
/// and its output. Its methods are the two faces, JSON-RPC and MCP, over the engine's one typed API.
public final class Connection: Sendable {
    /// `stdio`, or `conn:<n>` on the daemon's socket: the first part of the `cause` of what it writes.
    public let label: String
    /// The JSON-RPC front of this connection.
    public let server: RPCServer
    private let pushes: Pushes
    private let mcp: MCPSession

    public init(engine: Engine, label: String, sink: any LineSink, maxLineBytes: Int) {
        self.label = label
        let pushes = Pushes(sink: sink)
        let mcp = MCPSession(version: Engine.version)
        let controllers: [any Controller] = [
            WeatherController(engine: engine), FavoritesController(engine: engine), SettingsController(engine: engine),
            LocationController(engine: engine), AlertsController(engine: engine), LogController(engine: engine),
            SubscriptionsController(engine: engine, pushes: pushes), OfficialController(engine: engine),
            MCPController(engine: engine, session: mcp, pushes: pushes),
        ]
        var methods: [String: MethodHandler] = [:]
        for controller in controllers {
            methods.merge(controller.methods) { first, _ in first }
        }
        self.pushes = pushes
        self.mcp = mcp
        server = RPCServer(
            methods: methods, sink: sink, registry: engine.registry, logger: engine.logger, maxLineBytes: maxLineBytes,
            label: label, onAnswered: pushes.answered)
    }

    /// Serves input items in arrival order until the stream ends; each item's share of `budget` is
    /// given back once it is answered.
    public func serve(_ input: AsyncStream<LineSplitter.Item>, budget: InputBudget) async {
        for await item in input {
            let size = item.byteCount
            await server.receive(item) { budget.give(bytes: size) }
        }
    }

    /// Ends the connection: its feeds and MCP listen streams end, its requests in flight get up to
    /// `grace` to be answered (cut short to a latch's own grace once it opens: a signal, a peer that
    /// hung up), and then the rest are cancelled (answered -32800) and waited for.
    public func finish(grace: Duration, cutShort: [(latch: Latch, grace: Duration)] = []) async {
        mcp.close()
        pushes.close()
        let server = self.server
        let done = Latch()
        var waits = [
            Task {
                await server.drain()
                done.open()
            },
            Task {
                try? await Task.sleep(for: grace)
                done.open()
            },
        ]
        for (latch, shorter) in cutShort {
            waits.append(
                Task {
                    await latch.wait()
                    guard !Task.isCancelled else { return }
                    try? await Task.sleep(for: shorter)
                    done.open()
                })
        }
        await done.wait()
        for wait in waits.dropFirst() { wait.cancel() }
        let answered = server.isIdle
        if !answered {
            server.cancelAll()
            await server.drain()
        }
    }
}
