import Foundation
import WeatherEngine
import WeatherRuntime
import WeatherWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What answers a request the connection has read: its target is already read as a path and a query.
package typealias HTTPHandler = @Sendable (HTTPRequest, HTTPTarget) async -> HTTPResponse

/// `weatherd serve --http-listen`: HTTP/1.1 on the event loop, every route behind one handler (`HTTPFace`).
///
/// Connections are served on the event loop, each in a task of the service's own group (no thread per
/// connection), with keep-alive and pipelining (answers go out in the order the requests came). Bounded, so
/// that no client can harm the daemon:
/// - a request's head, body and framing are read by `HTTPRequestParser` within `settings.limits` (431, 413,
///   400…); after a failure the connection closes;
/// - a client gets `timeout` on the engine's clock to send each request (and keep-alive connections idle as
///   long), then 408 and the connection closes;
/// - a client that does not read its answers is served on while they fit in `maxUnwrittenBytes`; past that it
///   has `timeout` to take them, then the connection is cut;
/// - at most `maxConnections` at once; one more gets 503 and is closed at once.
///
/// At shutdown (graceful, or cancellation) it stops accepting, cuts the open connections and waits for them.
package struct HTTPService: Service {
    package struct Settings: Sendable {
        /// The most connections served at once.
        package var maxConnections = 16
        /// How long a client has to send a request, and to take an answer that backs up.
        package var timeout: Duration = .seconds(10)
        /// The bounds of a request.
        package var limits = HTTPLimits()
        /// The most answer bytes queued for a client before it must take them within `timeout`.
        package var maxUnwrittenBytes = 1 << 20

        package init() {}
    }

    let engine: Engine
    let listener: TCPListener
    let settings: Settings
    let handler: HTTPHandler
    /// The open connections (the number the test of the bound reads).
    package let connections: HTTPConnections

    package init(engine: Engine, listener: TCPListener, settings: Settings = Settings(), handler: @escaping HTTPHandler)
    {
        self.engine = engine
        self.listener = listener
        self.settings = settings
        self.handler = handler
        connections = HTTPConnections(maxConnections: settings.maxConnections)
    }

    package func run() async {
        await engine.ready.wait()
        engine.logger.info("HTTP on http://\(listener.endpoint)/")
        engine.httpURL = "http://\(listener.endpoint)/"
        let (accepted, acceptor) = AsyncStream<Int32>.makeStream()
        listener.start(on: engine.runtime) { fd in
            if case .terminated = acceptor.yield(fd) { close(fd) }
        } onEnd: { [engine] error in
            if let error { engine.logger.error("the HTTP listener stopped accepting: \(error)") }
            acceptor.finish()
        }
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withDiscardingTaskGroup { group in
                    for await fd in accepted {
                        guard connections.admit() else {
                            Self.refuse(fd)
                            continue
                        }
                        group.addTask {
                            await serve(fd)
                            connections.closed()
                        }
                    }
                    // Accepting ended: the open connections are cut.
                    group.cancelAll()
                }
            } onGracefulShutdown: { [listener] in
                listener.close()
            }
        } onCancel: { [listener] in
            listener.close()
        }
    }

    /// Answers 503 to a connection past the bound, and closes it.
    private static func refuse(_ fd: Int32) {
        // A new connection's send buffer is empty, so this short answer is taken whole.
        let refusal = HTTPResponse(.serviceUnavailable, text: "Too many HTTP connections at once; try again.\n")
        refusal.serialized(keepAlive: false).withUnsafeBytes { raw in _ = Descriptor.writeNow(fd, raw, socket: true) }
        shutdownSocket(fd, .both)
        close(fd)
    }

    /// Serves a connection's requests until it closes, fails, idles past the timeout or the service stops.
    private func serve(_ fd: Int32) async {
        let channel: Channel
        do {
            channel = try Channel(loop: engine.runtime.loop, fd: fd, owned: true)
        } catch {
            close(fd)
            return
        }
        defer { channel.close() }
        let connection = HTTPConnection(channel: channel, clock: engine.clock, settings: settings, handler: handler)
        await connection.run()
    }
}
