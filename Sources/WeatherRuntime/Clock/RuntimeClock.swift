#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A moment on the wall clock: the time since the Unix epoch.
package struct WallInstant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
    /// The time since 1970-01-01T00:00:00Z.
    package var sinceEpoch: Duration

    package init(sinceEpoch: Duration) { self.sinceEpoch = sinceEpoch }

    /// The moment `milliseconds` after the epoch.
    package init(millisecondsSinceEpoch milliseconds: Int64) { sinceEpoch = .milliseconds(milliseconds) }

    /// Whole milliseconds since the epoch (rounded towards the epoch).
    package var millisecondsSinceEpoch: Int64 {
        let (seconds, attoseconds) = sinceEpoch.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    package func advanced(by duration: Duration) -> WallInstant { WallInstant(sinceEpoch: sinceEpoch + duration) }
    package func duration(to other: WallInstant) -> Duration { other.sinceEpoch - sinceEpoch }
    package static func < (lhs: WallInstant, rhs: WallInstant) -> Bool { lhs.sinceEpoch < rhs.sinceEpoch }
    package var description: String { "\(millisecondsSinceEpoch) ms since the epoch" }
}

/// The one clock of weatherd: what time it is, and every wait.
///
/// Everything that waits (fetch deadlines, retries and backoff, `Retry-After`, the rate limit, the
/// warnings' and alerts' intervals, the scheduler, grace periods, idle exit) sleeps on the clock it was
/// given, and everything that stamps a time reads it there. weatherd runs on `SystemClock`; tests run on
/// a manual clock that moves only when the test advances it, so no test's verdict depends on how fast
/// the machine is.
package protocol RuntimeClock: Clock, Sendable where Instant == WallInstant, Duration == Swift.Duration {}

extension RuntimeClock {
    /// The moment `duration` from now: the deadline of a wait that starts now.
    package func deadline(after duration: Duration) -> WallInstant { now.advanced(by: duration) }
}

/// The system's clocks: the wall clock for `now`, and a monotonic clock for sleeping, so a wait is not
/// stretched or cut by the wall clock being set.
package struct SystemClock: RuntimeClock {
    package init() {}

    package var now: WallInstant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallInstant(sinceEpoch: .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec)))
    }

    package var minimumResolution: Duration { .nanoseconds(1) }

    package func sleep(until deadline: WallInstant, tolerance: Duration?) async throws {
        try await ContinuousClock().sleep(for: now.duration(to: deadline), tolerance: tolerance)
    }
}

/// Nanoseconds on the monotonic clock: for the log writer's own thread, which measures its batch window and
/// spin in nanoseconds between system calls and never sleeps on an async clock.
package func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
