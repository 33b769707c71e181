import Foundation
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
/// shutdown (cancellation) it stops accepting, ends the open connections and waits for them.
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
        listener.start { [self] fd in
            connections.admit(fd) { await serve(fd) }
        } onEnd: { [engine] error in
            if let error { engine.logger.error("the metrics endpoint stopped accepting: \(error)") }
        }
        await untilCancelled()
        listener.close()
        await connections.stopAndDrain()
    }

    /// Serves the one request of a connection (`connections` closes it afterwards).
    private func serve(_ fd: Int32) async {
        let clock = engine.clock
        let head = await Self.bounded(fd, until: clock.now.advanced(by: settings.timeout), clock: clock, cut: .read) {
            Self.readHead(fd)
        }
        let response: MetricsResponse
        var includingBody = true
        switch head {
        case nil: response = MetricsResponse(408, "Request Timeout", body: "The request took too long to arrive.\n")
        case let head?:
            if let refusal = MetricsResponse.refusal(head) {
                response = refusal
            } else {
                if case .request("HEAD", _, _) = head { includingBody = false }
                response = .metrics(MetricsText.render(await engine.metrics()))
            }
        }
        let bytes = response.bytes(includingBody: includingBody)
        _ = await Self.bounded(fd, until: clock.now.advanced(by: settings.timeout), clock: clock, cut: .both) {
            Self.answer(fd, bytes)
        }
    }

    /// Runs `work` (blocking I/O on `fd`) on a thread of its own until it returns or `deadline` passes on
    /// `clock`; at the deadline it shuts `fd` down (`cut`), which ends the work, and waits for the thread
    /// before returning nil, so `fd` is never closed under it.
    private static func bounded<T: Sendable>(
        _ fd: Int32, until deadline: WallInstant, clock: any RuntimeClock, cut: SocketDirection,
        _ work: @escaping @Sendable () -> T
    ) async -> T? {
        let done = Promise<T>()
        startThread(named: "weatherd-metrics-io") { _ = done.fulfill(work()) }
        let first: T? = await withTaskGroup(of: T?.self) { group in
            group.addTask { await done.waitUnlessCancelled() }
            group.addTask {
                do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return await done.wait() }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let first { return first }
        shutdownSocket(fd, cut)
        _ = await done.wait()
        return nil
    }

    /// Reads until the head is complete, malformed or too large, or the input ends.
    private static func readHead(_ fd: Int32) -> HTTPRequestHead {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let count = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            if count <= 0 { return .incomplete }
            bytes += buffer[..<count]
            let head = HTTPRequestHead.read(bytes)
            if head != .incomplete { return head }
        }
    }

    /// Writes the response, ends the sending side, and reads what the client still sends until it closes (at
    /// most 64 KiB), so that closing with unread input does not reset the connection before the client has
    /// read the answer.
    private static func answer(_ fd: Int32, _ bytes: [UInt8]) {
        guard Descriptor.writeAll(fd, bytes, using: .send(flags: UnixSocket.sendFlags)) == nil else { return }
        _ = shutdown(fd, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 4096)
        var drained = 0
        while drained < 65_536 {
            let count = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            if count <= 0 { return }
            drained += count
        }
    }
}
