import EventLog
import Synchronization
import WeatherDomain

/// Folds every committed batch into the `MetricCounters`, on the writer's thread, and hands a copy to whoever
/// reads them (a scrape): the counters follow the log, and reading them writes nothing.
final class MetricsRecorder: Sendable {
    private let counters = Mutex(MetricCounters())

    /// Counts the events of a committed batch.
    func record(_ batch: [EventEnvelope]) {
        let events = batch.compactMap { $0.event ?? Self.decoded($0) }
        guard !events.isEmpty else { return }
        counters.withLock { counters in
            for event in events { counters.apply(event) }
        }
    }

    /// The event of an envelope the writer did not hand over decoded (it always does; this is the fallback).
    private static func decoded(_ envelope: EventEnvelope) -> DomainEvent? {
        do {
            if case .event(let event) = try envelope.decodedEvent() { return event }
        } catch {
            // This process encoded the event a moment ago, so it decodes; were it ever not to, the only loss is
            // one event not counted.
        }
        return nil
    }

    /// The counters so far.
    var current: MetricCounters { counters.withLock { $0 } }
}
