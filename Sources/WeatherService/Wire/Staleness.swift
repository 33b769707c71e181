import WeatherDomain

/// The one rule by which every face says an answer is stale, and how old it is: `stale, 12 min old`.
///
/// An answer is stale when it says so (`stale: true`: the source could not be reached, and older data was
/// served); its age runs from its `fetchedAt`. `weatherd now`, `forecast`, `warnings`, `air` and `nowcast`, the
/// bars and the MCP texts all mark it through here, so the same answer reads the same in each.
package enum Staleness {
    /// `stale, 12 min old` when `answer` is stale (`stale, weatherd unreachable`… are the callers' own), `stale`
    /// when it has no `fetchedAt`; nil when it is fresh or absent.
    package static func mark(_ answer: JSONValue?, now: Timestamp) -> String? {
        mark(
            stale: answer?["stale"]?.boolValue == true,
            fetchedAt: answer?["fetchedAt"]?.stringValue.flatMap { Timestamp(rfc3339: $0) }, now: now)
    }

    /// The same rule for a typed answer: `stale, 12 min old`, `stale` without a fetch time, nil when fresh.
    package static func mark(stale: Bool, fetchedAt: Timestamp?, now: Timestamp) -> String? {
        guard stale else { return nil }
        guard let fetchedAt else { return "stale" }
        return "stale, \(age(since: fetchedAt, now: now)) old"
    }

    /// How long ago `time` was at `now`, as `age(seconds:)` writes it.
    package static func age(since time: Timestamp, now: Timestamp) -> String {
        age(seconds: Double(now.milliseconds - time.milliseconds) / 1000)
    }

    /// `45 s`, `12 min`, `2 h 5 min`, `3 d 4 h`: a length of time, cut (never rounded up) to its two largest units;
    /// less than 0 reads as `0 s`.
    package static func age(seconds: Double) -> String {
        let total = max(0, Int(seconds.rounded(.down)))
        if total < 60 { return "\(total) s" }
        if total < 3600 { return "\(total / 60) min" }
        if total < 86_400 { return "\(total / 3600) h \(total % 3600 / 60) min" }
        return "\(total / 86_400) d \(total % 86_400 / 3600) h"
    }
}
