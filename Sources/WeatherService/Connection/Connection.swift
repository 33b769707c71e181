import WeatherDomain
import WeatherEngine
import WeatherRuntime

/// One JSON-lines peer of the engine (standard input and output, or one socket connection): its own
/// request-id space and cancellation, its event and alert feeds, its MCP era and negotiated version,
/// and its output. Its methods are the two faces, JSON-RPC and MCP, over the engine's one typed API.
package final class Connection: Sendable {
    /// `stdio`, or `conn:<n>` on the daemon's socket: the first part of the `cause` of what it writes.
    package let label: String
    /// The JSON-RPC front of this connection.
    package let server: RPCServer
    private let pushes: Pushes
    private let mcp: MCPSession
    /// The nowcast watches and alert followers this connection holds: ended at once by `finish`.
    private let watches: NowcastWatches
    private let clock: any RuntimeClock

    package init(engine: Engine, label: String, sink: any LineSink, maxLineBytes: Int) {
        self.label = label
        clock = engine.clock
        let pushes = Pushes(sink: sink)
        let mcp = MCPSession(version: Engine.version)
        let watches = engine.openWatches()
        let methods = methodTable(
            connectionlessControllers(engine) + [
                SubscriptionsController(log: engine, alerts: engine, pushes: pushes, watches: watches),
                MCPController(engine: engine, session: mcp, pushes: pushes, watches: watches),
            ])
        self.pushes = pushes
        self.mcp = mcp
        self.watches = watches
        server = RPCServer(
            methods: methods, sink: sink, registry: engine.registry, logger: engine.logger, maxLineBytes: maxLineBytes,
            label: label, onAnswered: pushes.answered)
    }

    /// Serves input items in arrival order until the stream ends; each item's share of `budget` is
    /// given back once it is answered.
    package func serve(_ input: AsyncStream<LineSplitter.Item>, budget: InputBudget) async {
        for await item in input {
            let size = item.byteCount
            await server.receive(item) { budget.give(bytes: size) }
        }
    }

    /// Ends the connection: its nowcast watches end at once, its feeds and MCP listen streams end, its requests in flight get up to
    /// `grace` to be answered, or less once one of `cutShort` reaches its deadline (a shutdown, a peer that
    /// hung up), and then the rest are cancelled (answered -32800) and waited for.
    package func finish(grace: Duration, cutShort: [ShutdownDeadline]) async {
        // What it watched is no longer refreshed from now on, whatever its tasks are still doing.
        watches.end()
        mcp.close()
        pushes.close()
        let server = self.server
        let end = clock.now.advanced(by: grace)
        await withTaskGroup(of: Void.self) { [clock] group in
            group.addTask { await server.drain() }
            group.addTask { try? await clock.sleep(until: end, tolerance: nil) }
            for deadline in cutShort {
                group.addTask { await deadline.reached() }
            }
            await group.next()
            group.cancelAll()
        }
        if !server.isIdle {
            server.cancelAll()
            await server.drainIgnoringCancellation()
        }
    }
}
