/// Calendar arithmetic in a place's own time, by its clocks' offsets from UTC (`ZoneOffsets`).
package enum LocalDate {
    /// `YYYY-MM-DD` of `time` on the place's clocks.
    package static func string(_ time: Timestamp, zone: ZoneOffsets) -> String {
        String(zone.wallClock(at: time).description.prefix(10))
    }

    /// The minute of the local day at `time` (0 at midnight, up to 1439).
    /// `HH:MM`: the wall-clock time of `time` in `zone`.
    package static func clockText(_ time: Timestamp, zone: ZoneOffsets) -> String {
        let minute = minuteOfDay(time, zone: zone)
        let (hours, minutes) = (minute / 60, minute % 60)
        return "\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
    }

    package static func minuteOfDay(_ time: Timestamp, zone: ZoneOffsets) -> Int64 {
        Int64.floorMod(Int64.floorDiv(zone.wallClock(at: time).milliseconds, 60_000), 24 * 60)
    }

    /// The instant the local day `date` (`YYYY-MM-DD`) begins: its midnight at the offset valid then (the
    /// first instant of the day when the clocks skip midnight); nil when `date` is not a valid date.
    package static func start(of date: String, zone: ZoneOffsets) -> Timestamp? {
        guard let midnight = midnightUTC(date) else { return nil }
        return zone.instant(ofWallClock: midnight)
    }

    /// The instant the local day `date` ends (the next local midnight); nil when `date` is not a valid date.
    ///
    /// A day is 23 or 25 hours long when the clocks change in it.
    package static func end(of date: String, zone: ZoneOffsets) -> Timestamp? {
        adding(1, to: date).flatMap { start(of: $0, zone: zone) }
    }

    /// The instant the clocks read `clock` (milliseconds after midnight) on the local day `date`; nil when
    /// `date` is not a valid date.
    package static func instant(on date: String, at clock: Int64, zone: ZoneOffsets) -> Timestamp? {
        guard let midnight = midnightUTC(date) else { return nil }
        return zone.instant(ofWallClock: Timestamp(milliseconds: midnight.milliseconds + clock))
    }

    /// The local date `days` days after `date`; nil when `date` is not a valid date.
    package static func adding(_ days: Int64, to date: String) -> String? {
        guard let midnight = midnightUTC(date) else { return nil }
        return String(Timestamp(milliseconds: midnight.milliseconds + days * 86_400_000).description.prefix(10))
    }

    /// The count of days since 1970-01-01 of the date `date` (`YYYY-MM-DD`); nil when it is not a valid date.
    package static func dayNumber(of date: String) -> Int64? {
        midnightUTC(date).map { Int64.floorDiv($0.milliseconds, 86_400_000) }
    }

    /// Midnight UTC of `date` (`YYYY-MM-DD`), the wall clock every local calculation starts from; nil when
    /// `date` is not a valid date.
    private static func midnightUTC(_ date: String) -> Timestamp? {
        date.utf8.count == 10 ? Timestamp(rfc3339: date + "T00:00:00Z") : nil
    }
}
