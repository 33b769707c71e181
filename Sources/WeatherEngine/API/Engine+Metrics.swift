import EventLog
import Foundation
import WeatherDomain

/// What `/metrics` shows, read from the engine's state alone: no upstream call, nothing written to the log.
package struct MetricsReading: Sendable {
    /// The label the current location's series carry (a favorite's carry its name).
    package static let currentLocation = "current location"

    /// One place weatherd keeps: the current location or a favorite.
    package struct PlaceReading: Sendable {
        /// The favorite's name, or `currentLocation`; unique within a reading.
        package var place: String
        /// The cached current conditions and who gave them; nil before the first fetch.
        package var current: Cached<CurrentConditions>?
        /// How old the cached observation is, in seconds (from the provider's observation time to now).
        package var observationAgeSeconds: Double?
        /// The highest chance of precipitation in the next 6 hours of the cached forecast, 0…1, and its provider.
        package var precipitationChance: (provider: String, ratio: Double)?
        /// The official warnings in force by severity; nil when the place has alerts off.
        package var warnings: [WarningSeverity: Int]?
    }

    package var version: String
    package var places: [PlaceReading]
    /// The counters folded from the events committed since the daemon started.
    package var counters: MetricCounters
    /// The log's bytes, sealed segments included.
    package var logBytes: Int64
    /// The seq of the last event: how many events were ever appended to the log.
    package var logEvents: Int64
    /// The clients connected to the daemon's socket (0 without one).
    package var connections: Int
    /// How far the log is shipped (`--nats`); nil when it is not.
    package var shipping: ShipStatus?
}

extension Engine {
    /// The numbers `/metrics` and `weatherd metrics` show: the cached weather of the current location and of
    /// every favorite, the warnings in force, the counters, the log's size and the connections.
    package func metrics() async -> MetricsReading {
        let now = clock.timestamp()
        let here = await location.read { $0.current }
        await favorites.barrier()?.settled()
        let items = await favorites.read { $0.items }
        let (current, forecast) = await cache.read { ($0.current, $0.forecast) }
        var inForce: [String?: [WarningSeverity: Int]] = [:]
        for place in await warningsInForce().places {
            var counts = Dictionary(uniqueKeysWithValues: WarningSeverity.allCases.map { ($0, 0) })
            for warning in place.answer.warnings { counts[warning.severity, default: 0] += 1 }
            inForce[place.favoriteId] = counts
        }
        var targets: [(label: String, key: String, favoriteId: String?)] = []
        if let here { targets.append((MetricsReading.currentLocation, Place.key(lat: here.lat, lon: here.lon), nil)) }
        targets += items.map { ($0.name, Place.key(lat: $0.lat, lon: $0.lon), $0.id) }
        var labels: Set<String> = []
        let places = targets.map { target in
            let label =
                labels.insert(target.label).inserted ? target.label : "\(target.label) (\(target.favoriteId ?? "here"))"
            labels.insert(label)
            let cached = current[target.key].map {
                Cached(value: $0.value.current, fetchedAt: $0.fetchedAt, provider: $0.provider)
            }
            return MetricsReading.PlaceReading(
                place: label, current: cached,
                observationAgeSeconds: cached.map {
                    Double(max(0, now.milliseconds - $0.value.observedAt.milliseconds)) / 1000
                },
                precipitationChance: forecast[target.key].flatMap { entry in
                    Self.precipitationChance(entry.value, now: now).map { (entry.provider, $0) }
                },
                warnings: inForce[target.favoriteId])
        }
        let writerStatus = writer.status
        let logBytes: Int64
        do {
            logBytes = try LogFiles.list(directory: dataDirectory.path).bytes
        } catch {
            // The folder could not be listed (a segment compacted away meanwhile): the active file's length, as
            // `service/status` falls back to.
            logBytes = writerStatus.length
        }
        return MetricsReading(
            version: Self.version, places: places, counters: metricsRecorder.current, logBytes: logBytes,
            logEvents: writerStatus.lastSeq, connections: frontStatus?.connections ?? 0,
            shipping: shipStatus)
    }

    /// The highest chance of precipitation among the forecast's steps that overlap the next 6 hours (hourly
    /// steps where the provider has them, else the 3-hourly ones); nil when none has one.
    static func precipitationChance(_ report: ForecastReport, now: Timestamp) -> Double? {
        let (steps, stepMs): ([ForecastEntry], Int64) =
            report.hourly.isEmpty ? (report.entries, 3 * 3_600_000) : (report.hourly, 3_600_000)
        let end = now.milliseconds + 6 * 3_600_000
        return
            steps
            .filter { $0.time.milliseconds + stepMs > now.milliseconds && $0.time.milliseconds < end }
            .compactMap(\.pop).max()
    }
}
