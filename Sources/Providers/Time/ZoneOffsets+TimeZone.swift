import Foundation
import WeatherDomain

extension ZoneOffsets {
    /// How far either side of the moment asked about a zone's transitions are looked up: far enough for
    /// a 16-day forecast seen from any moment of it, and for a cache a month old.
    package static let reachMilliseconds: Int64 = 32 * 86_400_000

    /// The offsets the IANA zone `identifier` keeps from `start` through `end`, from the system's time
    /// zone database; nil when the database does not know the zone.
    package init?(identifier: String, from start: Timestamp, through end: Timestamp) {
        guard !identifier.isEmpty, let zone = TimeZone(identifier: identifier) else { return nil }
        func date(_ time: Timestamp) -> Date { Date(timeIntervalSince1970: Double(time.milliseconds) / 1000) }
        let last = date(end)
        var cursor = date(start)
        let initial = Int64(zone.secondsFromGMT(for: cursor))
        var offset = initial
        var transitions: [Transition] = []
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next > cursor, next <= last {
            let after = Int64(zone.secondsFromGMT(for: next))
            if after != offset {
                let at = Timestamp(milliseconds: Int64((next.timeIntervalSince1970 * 1000).rounded()))
                transitions.append(Transition(at: at, offsetSeconds: after))
                offset = after
            }
            cursor = next
        }
        self.init(initialOffsetSeconds: initial, transitions: transitions)
    }

    /// A place's clocks around `time`: the rules of its IANA zone `timezone` when the time zone database
    /// knows it, else the one offset the provider gave (`utcOffsetSeconds`, valid when it was fetched).
    package static func place(timezone: String?, utcOffsetSeconds: Int64, around time: Timestamp) -> ZoneOffsets {
        let start = Timestamp(milliseconds: time.milliseconds - reachMilliseconds)
        let end = Timestamp(milliseconds: time.milliseconds + reachMilliseconds)
        guard let timezone, let zone = ZoneOffsets(identifier: timezone, from: start, through: end) else {
            return .fixed(utcOffsetSeconds)
        }
        return zone
    }
}

extension CurrentReport {
    /// The place's clocks around `time` (`ZoneOffsets.place`).
    package func zone(around time: Timestamp) -> ZoneOffsets {
        .place(timezone: timezone, utcOffsetSeconds: utcOffsetSeconds, around: time)
    }
}

extension ForecastReport {
    /// The place's clocks around `time` (`ZoneOffsets.place`).
    package func zone(around time: Timestamp) -> ZoneOffsets {
        .place(timezone: timezone, utcOffsetSeconds: utcOffsetSeconds, around: time)
    }
}
