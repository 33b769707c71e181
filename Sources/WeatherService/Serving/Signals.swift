import WeatherEngine
import WeatherRuntime

extension ServiceGroup {
    /// Runs the engine's log, `front`, `others` (the metrics endpoint) and the engine's workers as one group
    /// until it shuts down: when the front returns, or at SIGTERM/SIGINT (recorded as `signal`), read on the
    /// engine's event loop. A second signal escalates the graceful shutdown to cancellation.
    static func serve(_ engine: Engine, front: any Service, also others: [any Service] = []) async {
        let group = weatherd(engine, front: front, also: others)
        let signals: SignalWatch?
        do {
            signals = try SignalWatch(on: engine.runtime.loop) { _ in
                engine.setStopReason("signal")
                group.triggerGracefulShutdown()
            }
        } catch {
            engine.logger.error("signals cannot be watched (\(error)); stop weatherd by ending its input")
            signals = nil
        }
        await group.run()
        signals?.cancel()
    }

    /// weatherd's one service group: the engine's log first (so it stops last and records `service.stopped`
    /// after everything else), then `front` (what serves clients) and `others`, then the engine's workers
    /// (alerts, compaction, the official checks, nowcast watches, scheduled refreshes), which stop first.
    /// Every way of running weatherd runs this group, and so does the in-process test harness.
    package static func weatherd(_ engine: Engine, front: any Service, also others: [any Service] = []) -> ServiceGroup
    {
        ServiceGroup(services: [engine.logService, front] + others + engine.workerServices(), clock: engine.clock) {
            error in
            engine.logger.error("a service stopped: \(error)")
        }
    }
}
