/// The offsets from UTC a place's clocks keep over a stretch of time: its time zone's rules (daylight
/// saving time and any other change) as a list of transitions, or one fixed offset.
///
/// The domain reads no time zone database: the transitions are looked up outside it (`ZoneOffsets.place`
/// in Providers, from the IANA zone name a report carries) and handed in. A zone that is unknown, or a
/// report without a zone name, gives `fixed` with the provider's offset at fetch time. Outside the stretch
/// looked up, the offset before the first transition (earlier) or after the last one (later) holds.
package struct ZoneOffsets: Sendable, Equatable {
    /// A change of the offset: from `at` on, clocks are `offsetSeconds` east of UTC.
    package struct Transition: Sendable, Equatable {
        package var at: Timestamp
        package var offsetSeconds: Int64

        package init(at: Timestamp, offsetSeconds: Int64) {
            self.at = at
            self.offsetSeconds = offsetSeconds
        }
    }

    /// The offset before the first transition (the only one when there are none).
    package var initialOffsetSeconds: Int64
    /// The changes, in time order.
    package var transitions: [Transition]

    package init(initialOffsetSeconds: Int64, transitions: [Transition]) {
        self.initialOffsetSeconds = initialOffsetSeconds
        self.transitions = transitions.sorted { $0.at < $1.at }
    }

    /// Clocks that keep one offset, `seconds` east of UTC.
    package static func fixed(_ seconds: Int64) -> ZoneOffsets {
        ZoneOffsets(initialOffsetSeconds: seconds, transitions: [])
    }

    /// The offset east of UTC, in seconds, that clocks keep at `time`.
    package func offsetSeconds(at time: Timestamp) -> Int64 {
        // Binary search for the last transition at or before `time`.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle].at <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffsetSeconds : transitions[low - 1].offsetSeconds
    }

    /// The wall-clock reading at `time`, as a timestamp whose UTC fields are the local ones.
    package func wallClock(at time: Timestamp) -> Timestamp {
        Timestamp(milliseconds: time.milliseconds + offsetSeconds(at: time) * 1000)
    }

    /// The instant the clocks read `wallClock` (given as a timestamp whose UTC fields are the local ones).
    ///
    /// A reading that happens twice (clocks set back) is its first instant; one that never happens (clocks
    /// set forward past it) is the instant as long after the change as the reading is after the change's
    /// old reading, as clocks that were not set forward would show it (02:30 on a night that jumps from
    /// 02:00 to 03:00 is 03:30). Assumes the offset changes at most once within a day of `wallClock`.
    package func instant(ofWallClock wallClock: Timestamp) -> Timestamp {
        let day: Int64 = 86_400_000
        let before = offsetSeconds(at: Timestamp(milliseconds: wallClock.milliseconds - day))
        let after = offsetSeconds(at: Timestamp(milliseconds: wallClock.milliseconds + day))
        let fitting = [before, after].filter {
            offsetSeconds(at: Timestamp(milliseconds: wallClock.milliseconds - $0 * 1000)) == $0
        }
        // The largest offset that fits gives the earliest instant; with none, the reading is in a gap.
        let offset = fitting.max() ?? before
        return Timestamp(milliseconds: wallClock.milliseconds - offset * 1000)
    }
}
