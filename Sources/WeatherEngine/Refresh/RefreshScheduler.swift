import WeatherRuntime

/// Refreshes every favorite every `interval`, on the injected clock; failed places are retried with
/// doubling backoff within the interval. Its fetches carry `cause: "timer:refresh"`.
///
/// A `run()` service: `main` starts it, shutdown cancels it. Replay never runs it.
package struct RefreshScheduler: Sendable {
    /// Time between refreshes (`--refresh-interval`).
    package var interval: Duration
    /// The first retry's delay; each later one doubles.
    package var retryBackoff: Duration = .seconds(60)
    /// Retries of the places that failed, per round.
    package var maxRetries = 3
    private let clock: any RuntimeClock
    /// Refreshes the favorites with these ids (all when nil) and returns the ids that failed.
    private let refresh: @Sendable (_ only: Set<String>?) async -> Set<String>

    package init(
        interval: Duration, clock: any RuntimeClock, refresh: @escaping @Sendable (Set<String>?) async -> Set<String>
    ) {
        self.interval = interval
        self.clock = clock
        self.refresh = refresh
    }

    /// Runs until cancelled.
    package func run() async throws {
        while true {
            try await clock.sleep(for: interval)
            var failed = await refresh(nil)
            var delay = retryBackoff
            var retries = 0
            while !failed.isEmpty, retries < maxRetries, delay < interval {
                try await clock.sleep(for: delay)
                failed = await refresh(failed)
                delay *= 2
                retries += 1
            }
        }
    }
}
