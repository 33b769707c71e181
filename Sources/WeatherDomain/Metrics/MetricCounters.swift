/// The counters `/metrics` shows that the log is the source of: upstream calls by provider and outcome, with
/// their durations, and alerts raised by rule.
///
/// A pure fold over events, like a state slice: every upstream call is one event (`weather.fetched`,
/// `weather.fetch_failed`, `geocode.fetched`, `geocode.failed`, `warnings.fetched`, `air_quality.fetched`,
/// `point.fetched`, `nowcast.fetched`, and `upstream.not_modified` for a 304) and every alert is one `alert.raised`, so counting the events committed is counting what
/// happened, and nothing else has to remember it. It is not part of the snapshot: the daemon counts from its
/// start, as a Prometheus counter may (a restart is a counter reset, which `rate()` and `increase()` handle).
package struct MetricCounters: Sendable, Equatable {
    /// An upstream request's provider (`open-meteo`, `nws`, …) and outcome (`ok`, `not_modified` for a 304, or
    /// the error kind of the failure: `timeout`, `offline`, `not_found`, `rate_limited`, `upstream_error`, …).
    package struct Request: Sendable, Hashable {
        package var provider: String
        package var outcome: String

        package init(provider: String, outcome: String) {
            self.provider = provider
            self.outcome = outcome
        }
    }

    /// The upstream calls of one provider by duration.
    package struct Durations: Sendable, Equatable {
        /// Observations at or below each of `MetricCounters.durationBounds`, cumulative.
        package var buckets: [UInt64]
        /// The sum of the durations, in seconds.
        package var sum: Double
        package var count: UInt64

        init() {
            buckets = Array(repeating: 0, count: MetricCounters.durationBounds.count)
            sum = 0
            count = 0
        }

        mutating func observe(seconds: Double) {
            for (index, bound) in MetricCounters.durationBounds.enumerated() where seconds <= bound {
                buckets[index] += 1
            }
            sum += seconds
            count += 1
        }
    }

    /// The histogram's upper bounds, in seconds: from a fast cached-edge answer to the longest upstream deadline.
    package static let durationBounds: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    /// Upstream requests (attempts, retries included) by provider and outcome.
    package private(set) var requests: [Request: UInt64] = [:]
    /// The durations of the upstream requests, by provider.
    package private(set) var durations: [String: Durations] = [:]
    /// Alerts raised, by rule (`temp_drop`, `severe`, `daily_summary`, `official`, …).
    package private(set) var alerts: [String: UInt64] = [:]

    package init() {}

    /// Counts one committed event.
    package mutating func apply(_ event: DomainEvent) {
        switch event {
        case .weatherFetched(let fetched): request(fetched.call, outcome: "ok")
        case .geocodeFetched(let fetched): request(fetched.call, outcome: "ok")
        case .warningsFetched(let fetched): request(fetched.call, outcome: "ok")
        case .warningsListed(let listed): request(listed.call, outcome: "ok")
        case .airQualityFetched(let fetched): request(fetched.call, outcome: "ok")
        case .pointFetched(let fetched): request(fetched.call, outcome: "ok")
        case .nowcastFetched(let fetched): request(fetched.call, outcome: "ok")
        case .pastFetched(let fetched): request(fetched.call, outcome: "ok")
        case .ensembleFetched(let fetched): request(fetched.call, outcome: "ok")
        case .modelsFetched(let fetched): request(fetched.call, outcome: "ok")
        case .notModified(let confirmed): request(confirmed.call, outcome: "not_modified")
        case .weatherFetchFailed(let failed), .geocodeFailed(let failed): request(failed.call, outcome: failed.error)
        case .alertRaised(let alert): alerts[alert.rule.rawValue, default: 0] += 1
        default: break
        }
    }

    private mutating func request(_ call: UpstreamCall, outcome: String) {
        requests[Request(provider: call.provider, outcome: outcome), default: 0] += 1
        durations[call.provider, default: Durations()].observe(seconds: Double(max(0, call.latencyMs)) / 1000)
    }
}
