#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A moment on the runtime's monotonic clock: the time since an arbitrary origin (the system's boot for
/// `SystemClock`), which setting the wall clock never moves.
package struct RuntimeInstant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
    /// The time since the clock's origin.
    package var sinceOrigin: Duration

    package init(sinceOrigin: Duration) { self.sinceOrigin = sinceOrigin }

    package func advanced(by duration: Duration) -> RuntimeInstant {
        RuntimeInstant(sinceOrigin: sinceOrigin + duration)
    }
    package func duration(to other: RuntimeInstant) -> Duration { other.sinceOrigin - sinceOrigin }
    package static func < (lhs: RuntimeInstant, rhs: RuntimeInstant) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }
    package var description: String { "\(sinceOrigin) on the monotonic clock" }
}

/// A moment on the wall clock: the time since the Unix epoch. Read only to stamp events and answers; nothing
/// waits on it.
package struct WallInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
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
    package static func < (lhs: WallInstant, rhs: WallInstant) -> Bool { lhs.sinceEpoch < rhs.sinceEpoch }
    package var description: String { "\(millisecondsSinceEpoch) ms since the epoch" }
}

/// The one clock of weatherd: every wait, and what time it is.
///
/// Everything that waits (fetch deadlines, retries and backoff, `Retry-After`, the rate limit, the warnings'
/// and alerts' intervals, the scheduler, grace periods, idle exit, the log writer's batching, the relay's and
/// the launcher's deadlines, D-Bus timeouts) waits on the clock it was given: `now` and `sleep` are monotonic.
/// The wall clock (`wallNow`) is read only to stamp events and answers. weatherd runs on `SystemClock`; tests run
/// on a manual clock that moves only when the test advances it, so no test's verdict depends on how fast the
/// machine is.
package protocol RuntimeClock: Clock, Sendable where Instant == RuntimeInstant, Duration == Swift.Duration {
    /// The wall clock's time, for stamping events and answers.
    var wallNow: WallInstant { get }

    /// Calls `action` on `loop`'s thread once `deadline` has passed on this clock (at once when it has), unless
    /// the returned timer is cancelled first: the waits of code that runs on the event loop rather than in a
    /// task.
    func schedule(at deadline: RuntimeInstant, on loop: EventLoop, _ action: @escaping @Sendable () -> Void)
        -> LoopTimer
}

extension RuntimeClock {
    /// The moment `duration` from now: the deadline of a wait that starts now.
    package func deadline(after duration: Duration) -> RuntimeInstant { now.advanced(by: duration) }
}

/// The system's clocks: `CLOCK_MONOTONIC` for `now` and every wait, `CLOCK_REALTIME` for `wallNow`.
package struct SystemClock: RuntimeClock {
    package init() {}

    package var now: RuntimeInstant { RuntimeInstant(sinceOrigin: .nanoseconds(Int64(monotonicNanoseconds()))) }

    package var wallNow: WallInstant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallInstant(sinceEpoch: .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec)))
    }

    package var minimumResolution: Duration { .nanoseconds(1) }

    package func sleep(until deadline: RuntimeInstant, tolerance: Duration?) async throws {
        try await ContinuousClock().sleep(for: now.duration(to: deadline), tolerance: tolerance)
    }

    package func schedule(at deadline: RuntimeInstant, on loop: EventLoop, _ action: @escaping @Sendable () -> Void)
        -> LoopTimer
    {
        loop.scheduleTimer(atNanoseconds: deadline.nanoseconds, action)
    }
}

extension RuntimeInstant {
    /// Whole nanoseconds since the origin (0 for a moment before it).
    package var nanoseconds: UInt64 {
        let (seconds, attoseconds) = sinceOrigin.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}

/// Nanoseconds on the monotonic clock.
package func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
