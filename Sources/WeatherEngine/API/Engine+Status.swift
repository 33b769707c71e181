import EventLog
import Foundation
import WeatherDomain

/// What the front serving the engine adds to `service/status`: the daemon's socket and connections.
package struct FrontStatus: Sendable, Equatable {
    /// The socket's path; nil when it is not listening.
    package var socket: String?
    package var connections: Int
    package var maxConnections: Int

    package init(socket: String?, connections: Int, maxConnections: Int) {
        self.socket = socket
        self.connections = connections
        self.maxConnections = maxConnections
    }
}

/// The service's facts, as `service/status` shows them.
package struct ServiceStatus: Sendable {
    package var info: ServiceInfo
    package var dataDir: String
    package var lastSeq: Int64
    /// The log's bytes, sealed segments included.
    package var logBytes: Int64
    package var segments: Int
    package var uptimeSeconds: Int64
    package var cacheTtlSeconds: Int64
    package var forecastTtlSeconds: Int64
    /// The provider, its base URLs, the fetch deadline and the cache ages this daemon was started with.
    package var upstream: UpstreamSettings
    /// Every option this daemon holds, as it was started with them (`Configuration.heldOptions`).
    package var options: [String: String]
    package var upstreamCalls: UpstreamCounts
    /// Why the log turned read-only; nil while it is writable.
    package var readOnlyReason: String?
    package var batches: Int
    package var syncs: Int
    package var pid: Int32
    /// The first damage found in the log while serving.
    package var logDamage: LogDamage?
    /// What the front adds; nil without one.
    package var front: FrontStatus?
    /// How far the log is shipped (`--nats`); nil when it is not.
    package var shipping: ShipStatus?
    /// Where the HTTP face listens; nil without one.
    package var httpURL: String?
}

extension Engine {
    /// The service's facts for `service/status`, with what the front added.
    package func status() async -> ServiceStatus {
        let writerStatus = writer.status
        let logFiles = try? LogFiles.list(directory: dataDirectory.path)
        return ServiceStatus(
            info: info, dataDir: dataDirectory.path, lastSeq: writerStatus.lastSeq,
            logBytes: logFiles?.bytes ?? writerStatus.length, segments: logFiles?.segments.count ?? 0,
            uptimeSeconds: max(0, clock.timestamp().milliseconds - info.startedAt.milliseconds) / 1000,
            cacheTtlSeconds: configuration.fetch.ttl.components.seconds,
            forecastTtlSeconds: configuration.fetch.forecastTTL.components.seconds,
            upstream: UpstreamSettings(configuration), options: configuration.heldOptions,
            upstreamCalls: await fetcher.upstreamCounts,
            readOnlyReason: writerStatus.failure?.message,
            batches: writerStatus.batches, syncs: writerStatus.syncs,
            pid: ProcessInfo.processInfo.processIdentifier, logDamage: logHealth.known, front: frontStatus,
            shipping: shipStatus, httpURL: httpURL)
    }
}
