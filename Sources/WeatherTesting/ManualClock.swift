import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherService

/// A wall clock that moves only when a test moves it.
public final class ManualClock: Sendable {
    private let current: Mutex<Timestamp>

    /// Starts at `start` (2026-11-22T12:00:00Z by default).
    public init(start: Timestamp = Timestamp(milliseconds: 1_795_348_800_000)) { current = Mutex(start) }

    public var now: Timestamp { current.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(milliseconds: Int64) { current.withLock { $0.milliseconds += milliseconds } }

    /// The clock as the service takes it.
    public var wallClock: WallClock { WallClock { [self] in now } }
}
