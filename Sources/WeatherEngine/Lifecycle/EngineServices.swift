import EventLog
import Foundation
import WeatherDomain
import WeatherRuntime

/// The log writer and the snapshotter: records the start-up events, and at shutdown `service.stopped` (unless
/// `Configuration.lifecycleEvents` is off), then stops the writer, writes the last snapshot and releases the data
/// dir's lock.
struct EngineLogService: Service {
    let engine: Engine

    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await engine.runLog() }
            let recording = engine.configuration.lifecycleEvents
            if recording {
                var startup: [DomainEvent] = []
                if let recovered = engine.openedDataDir.recovered { startup.append(.logRecovered(recovered)) }
                startup.append(
                    .serviceStarted(
                        ServiceStarted(
                            version: Engine.version, fsync: engine.info.fsync.rawValue,
                            pid: Int64(ProcessInfo.processInfo.processIdentifier), host: HostName.current)))
                await append(startup, cause: "startup", what: "the start-up events")
            }
            engine.ready.open()
            await gracefulShutdown()
            let reason = engine.stoppedReason
            if recording {
                let uptime = engine.clock.timestamp().milliseconds - engine.info.startedAt.milliseconds
                await append(
                    [.serviceStopped(ServiceStopped(reason: reason, uptimeMs: max(0, uptime)))], cause: "shutdown",
                    what: "service.stopped")
            }
            engine.logger.info("stopped (\(reason))")
            engine.finishLog()
        }
        engine.releaseLock()
    }

    /// Appends service events; a read-only log is reported on stderr, not fatal.
    private func append(_ events: [DomainEvent], cause: String, what: String) async {
        do {
            let ticket = try engine.writer.append(events.map { NewEvent($0, cause: cause, corr: nil) })
            _ = try await ticket.committed()
        } catch {
            engine.logger.error("could not record \(what): \(error)")
        }
    }
}

/// Decides alerts as weather is fetched and as the daily-summary time comes.
struct AlertService: Service {
    let actor: AlertActor
    let summaryCheckInterval: Duration?

    func run() async throws {
        try await cancelOnGracefulShutdown { [actor, summaryCheckInterval] in
            await actor.run(summaryCheckInterval: summaryCheckInterval)
        }
    }
}

/// Refreshes the watched places' nowcasts at their sources' cadence.
struct NowcastWatchService: Service {
    let engine: Engine
    let interval: Duration

    func run() async throws {
        try await cancelOnGracefulShutdown { [engine, interval] in await engine.runNowcastWatch(every: interval) }
    }
}

/// Refreshes the favorites on a schedule.
struct RefreshService: Service {
    let scheduler: RefreshScheduler

    func run() async throws { try await cancelOnGracefulShutdown { [scheduler] in try await scheduler.run() } }
}
