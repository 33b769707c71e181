import Foundation
import Synchronization
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `weatherd serve --metrics-listen`: answers `GET /metrics` over HTTP/1.1 with the engine's exposition.
///
/// Bounded, so that no client can harm the daemon:
/// - one request per connection (`Connection: close`), its head at most `HTTPRequestHead.maxBytes` (8 KiB;
///   past it 431), a request line that is not HTTP/1.x gets 400, another path 404, another method 405;
/// - a client gets `timeout` on the engine's clock to send its request and as long again to take the answer,
///   then 408 (or nothing) and the connection closes;
/// - at most `maxConnections` at once; one more gets 503 and is closed at once.
///
/// A scrape reads the engine's state only: it makes no upstream call and writes nothing to the log. At
/// shutdown (graceful, or cancellation) it stops accepting, cuts the open connections and waits for them.
/// Connections are served on the event loop, each in a task of the service's own group.
package struct MetricsService: Service {
    package struct Settings: Sendable {
        /// The most connections served at once.
        package var maxConnections = 16
        /// How long a client has to send its request head, and again to read the answer.
        package var timeout: Duration = .seconds(10)

        package init() {}
    }

    let engine: Engine
    let listener: TCPListener
    let settings: Settings
    /// The open connections (the number the test of the bound reads).
    package let connections: MetricsConnections

    package init(engine: Engine, listener: TCPListener, settings: Settings = Settings()) {
        self.engine = engine
        self.listener = listener
        self.settings = settings
        connections = MetricsConnections(maxConnections: settings.maxConnections)
    }

    package func run() async {
        await engine.ready.wait()
        engine.logger.info("metrics on http://\(listener.endpoint)/metrics")
        let (accepted, acceptor) = AsyncStream<Int32>.makeStream()
        listener.start(on: engine.runtime) { fd in
            if case .terminated = acceptor.yield(fd) { close(fd) }
        } onEnd: { [engine] error in
            if let error { engine.logger.error("the metrics endpoint stopped accepting: \(error)") }
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
        let refusal = MetricsResponse(503, "Service Unavailable", body: "Too many metrics connections at once.\n")
        refusal.bytes().withUnsafeBytes { raw in _ = Descriptor.writeNow(fd, raw, socket: true) }
        shutdownSocket(fd, .both)
        close(fd)
    }

    /// Serves the one request of a connection, and closes it.
    private func serve(_ fd: Int32) async {
        let channel: Channel
        do {
            channel = try Channel(loop: engine.runtime.loop, fd: fd, owned: true)
        } catch {
            close(fd)
            return
        }
        defer { channel.close() }
        let clock = engine.clock
        let head = Promise<HTTPRequestHead>()
        let read = Mutex<[UInt8]>([])
        channel.startReading { input in
            switch input {
            case .bytes(let bytes):
                let sofar = read.withLock { read -> [UInt8] in
                    read.append(contentsOf: bytes)
                    return read
                }
                let parsed = HTTPRequestHead.read(sofar)
                if parsed != .incomplete {
                    channel.pauseReading()
                    head.fulfill(parsed)
                }
            case .end: head.fulfill(.incomplete)
            }
        }
        let received = await Self.first(
            head.waitUnlessCancelled, before: clock.now.advanced(by: settings.timeout), clock)
        let response: MetricsResponse
        var includingBody = true
        switch received {
        case nil: response = MetricsResponse(408, "Request Timeout", body: "The request took too long to arrive.\n")
        case let head?:
            if let refusal = MetricsResponse.refusal(head) {
                response = refusal
            } else {
                if case .request("HEAD", _, _) = head { includingBody = false }
                response = .metrics(MetricsText.render(await engine.metrics()))
            }
        }
        guard !Task.isCancelled else { return }
        channel.write(response.bytes(includingBody: includingBody))
        channel.shutdownOutputWhenFlushed()
        // A client that ended its input before its head was whole has nothing more to send.
        guard received != .incomplete else { return await channel.flush() }
        // Read what the client still sends until it closes (at most 64 KiB), so that closing with unread input
        // does not reset the connection before the client has read the answer.
        let closedByClient = Promise<Void>()
        let drained = Mutex(0)
        channel.startReading { input in
            switch input {
            case .bytes(let bytes):
                let total = drained.withLock { total -> Int in
                    total += bytes.count
                    return total
                }
                if total >= 65_536 { closedByClient.fulfill(()) }
            case .end: closedByClient.fulfill(())
            }
        }
        channel.resumeReading()
        _ = await Self.first(
            closedByClient.waitUnlessCancelled, before: clock.now.advanced(by: settings.timeout), clock)
    }

    /// What `wait` returns, unless `deadline` passes on `clock` first (nil), or the task is cancelled (nil).
    private static func first<T: Sendable>(
        _ wait: @escaping @Sendable () async -> T?, before deadline: RuntimeInstant, _ clock: any RuntimeClock
    ) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await wait() }
            group.addTask {
                try? await clock.sleep(until: deadline, tolerance: nil)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
