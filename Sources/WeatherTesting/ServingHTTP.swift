import WeatherEngine
import WeatherRuntime
import WeatherService

extension InProcessWeatherd {
    /// Serves `handler` over HTTP on 127.0.0.1 (a port the system chooses) while `body` runs with the service and
    /// its port, then stops it by cancellation, as the daemon does. Returns the stopped service, for a test that
    /// counts what is left open.
    @discardableResult
    package func servingHTTP(
        _ handler: @escaping HTTPHandler, settings: HTTPService.Settings = HTTPService.Settings(),
        _ body: (HTTPService, Int) async throws -> Void
    ) async throws -> HTTPService {
        engine.ready.open()
        let listener = try TCPListener(MetricsEndpoint(host: "127.0.0.1", port: 0))
        let http = HTTPService(engine: engine, listener: listener, settings: settings, handler: handler)
        let running = Task { await http.run() }
        do {
            // Served once the service says where (`service/status`, `http/open`).
            let served = await eventually { engine.httpURL != nil }
            guard served else { throw RunningWeatherdError("the HTTP service never said where it listens") }
            try await body(http, listener.endpoint.port)
        } catch {
            running.cancel()
            await running.value
            throw error
        }
        running.cancel()
        await running.value
        return http
    }
}
