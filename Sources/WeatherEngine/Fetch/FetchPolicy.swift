/// The limits the `FetchActor` works within.
package struct FetchPolicy: Sendable, Equatable {
    /// Current conditions (and geocoding results) younger than this are served from the cache without a call
    /// (`--cache-ttl`).
    package var ttl: Duration = .seconds(600)
    /// Forecasts younger than this are served from the cache without a call (`--forecast-ttl`): the models behind
    /// them run hourly at best, so a dashboard that asks every 10 minutes gets the same forecast without a call.
    package var forecastTTL: Duration = .seconds(3600)
    /// A `not_found` is remembered this long, so a misspelt place cannot cause a storm of calls.
    package var notFoundTTL: Duration = .seconds(3600)
    /// The overall deadline of one fetch, retries included (`--upstream-timeout`).
    package var deadline: Duration = .seconds(30)
    /// Attempts per fetch, the first included.
    package var maxAttempts = 3
    /// The first retry's backoff; each later one doubles, with ±50 % jitter.
    package var backoff: Duration = .milliseconds(500)
    /// Upstream calls allowed per minute (the token bucket).
    package var callsPerMinute = 60

    package init() {}

    /// The wait after `failures` failures in a row (one at least): `first`, doubled for each failure after
    /// the first, at most `cap`. The retries of a call wait so (with jitter), and so does the next call to a
    /// nowcast source that failed (from its cadence on).
    static func backoff(first: Duration, failures: Int, cap: Duration) -> Duration {
        min(first * (1 << min(max(failures, 1) - 1, 20)), cap)
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
