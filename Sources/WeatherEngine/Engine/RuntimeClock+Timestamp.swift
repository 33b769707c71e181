import WeatherDomain
import WeatherRuntime

extension RuntimeClock {
    /// What time it is, to the millisecond, as events record it.
    package func timestamp() -> Timestamp { Timestamp(milliseconds: now.millisecondsSinceEpoch) }
}

extension Timestamp {
    /// The same moment on the runtime's clock.
    package var instant: WallInstant { WallInstant(millisecondsSinceEpoch: milliseconds) }
}
