import WeatherDomain
import WeatherRuntime

extension RuntimeClock {
    /// What time it is on the wall clock, to the millisecond, as events and answers record it.
    package func timestamp() -> Timestamp { Timestamp(milliseconds: wallNow.millisecondsSinceEpoch) }
}
