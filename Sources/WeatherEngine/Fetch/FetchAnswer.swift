import WeatherDomain

/// A weather or geocoding answer and where it came from.
package struct FetchAnswer<Value: Sendable & Equatable>: Sendable {
    package var value: Value
    /// When the data was fetched from the provider.
    package var fetchedAt: Timestamp
    package var provider: String
    /// `network` for a fresh call, `cache` otherwise.
    package var source: String
    /// True when the provider could not be reached and older data is served.
    package var stale: Bool

    init(_ cached: Cached<Value>, source: String, stale: Bool) {
        value = cached.value
        fetchedAt = cached.fetchedAt
        provider = cached.provider
        self.source = source
        self.stale = stale
    }
}

/// Counts of upstream work, for `service/status`.
package struct UpstreamCounts: Sendable, Equatable {
    /// Calls made (attempts, retries included).
    package var calls = 0
    package var failures = 0
    /// Answers served from the cache because the data was fresh (a call saved).
    package var cacheHits = 0
    /// Requests that joined a call already in flight (a call saved).
    package var sharedCalls = 0
    /// Requests answered from a remembered `not_found` (a call saved).
    package var notFoundHits = 0
    /// Answers served stale because the provider could not be reached.
    package var staleAnswers = 0
}
