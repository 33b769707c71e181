import Providers
import WeatherDomain

extension ZoneOffsets {
    /// The clocks of an answer's `location` around `time`: the rules of its `timezone` when the time zone
    /// database knows it, else its one `utcOffsetSeconds` (UTC when it has neither).
    package static func of(location: JSONValue?, around time: Timestamp) -> ZoneOffsets {
        let offset = min(max(location?["utcOffsetSeconds"]?.intValue ?? 0, -64_800), 64_800)
        return .place(timezone: location?["timezone"]?.stringValue, utcOffsetSeconds: offset, around: time)
    }
}
