import WeatherDomain
import WeatherService

/// Small text helpers the commands share.
enum Text {
    /// `text` with its first letter capitalized (a condition as a sentence begins: "Partly cloudy").
    static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// Rows with their columns aligned (two spaces between columns; the last column is not padded), leaving
    /// out a column that is empty in every row.
    static func table(_ allRows: [[String]]) -> String {
        let allColumns = allRows.map(\.count).max() ?? 0
        let kept = (0..<allColumns).filter { column in
            allRows.contains { column < $0.count && !$0[column].isEmpty }
        }
        let rows = allRows.map { row in kept.map { $0 < row.count ? row[$0] : "" } }
        let columns = kept.count
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() where index < columns - 1 {
                widths[index] = max(widths[index], width(cell))
            }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index < row.count - 1 ? cell + String(repeating: " ", count: widths[index] - width(cell)) : cell
            }.joined(separator: "  ").trimmingTrailingSpaces
        }.joined(separator: "\n")
    }

    /// The columns `text` takes on a terminal: two for an emoji, one for any other character.
    static func width(_ text: String) -> Int {
        text.reduce(0) { total, character in
            let scalars = character.unicodeScalars
            let emoji =
                scalars.contains { $0.properties.isEmojiPresentation }
                || scalars.contains { $0.value == 0xFE0F }
            return total + (emoji ? 2 : 1)
        }
    }

    /// A byte count for people: `512 B`, `12.3 KB`, `4.5 MB`, `1.2 GB`.
    static func bytes(_ count: Int64) -> String {
        if count < 1000 { return "\(count) B" }
        var value = Double(count)
        for unit in ["KB", "MB", "GB", "TB"] {
            value /= 1000
            if value < 1000 || unit == "TB" { return "\(Rounding.round(value, decimals: 1)) \(unit)" }
        }
        return "\(count) B"
    }

    /// A duration for people: `45 s`, `12 min`, `3 h 20 min`, `2 d 4 h`.
    static func duration(seconds: Double) -> String { Staleness.age(seconds: seconds) }

    /// A number without a needless `.0`.
    static func number(_ value: Double, decimals: Int = 1) -> String {
        let rounded = Rounding.round(value, decimals: decimals)
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}

extension String {
    /// The string without the spaces at its end.
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// Quantities in an answer's units (its `units` member), as people read them: whole numbers with their unit.
struct Quantities {
    /// The answer's `units`, e.g. `{"system": "metric", "temperature": "°C", "windSpeed": "m/s", …}`.
    let units: JSONValue

    init(_ units: JSONValue?) { self.units = units ?? .null }

    /// `+12°C`, `-3°F`, `0°C` (with `signed`), or `12°C`; `?` when there is no value.
    func temperature(_ value: JSONValue?, signed: Bool = true) -> String {
        guard let degrees = value?.doubleValue else { return "?" }
        let rounded = degrees.rounded() == 0 ? 0 : degrees.rounded()
        let sign = signed && rounded > 0 ? "+" : ""
        return "\(sign)\(Text.number(rounded, decimals: 0))\(units["temperature"]?.stringValue ?? "°C")"
    }

    /// The wind as wttr.in prints it: an arrow for where the wind goes, the speed and the unit the answer
    /// names (`km/h`, `mph`, `kn`, `m/s`, or `Bft` for a Beaufort force). `?` when there is no speed.
    func wind(speed: JSONValue?, direction: JSONValue?) -> String {
        guard let speed = speed?.doubleValue else { return "?" }
        let arrow = direction?.doubleValue.map(Symbols.windArrow) ?? ""
        return "\(arrow)\(Text.number(speed, decimals: 0))\(units["windSpeed"]?.stringValue ?? "m/s")"
    }

    /// `1013hPa`, `29.92inHg`, `760mmHg`: whole numbers but for inches of mercury (two decimals); `?` when
    /// there is no value.
    func pressure(_ value: JSONValue?) -> String {
        guard let pressure = value?.doubleValue else { return "?" }
        let unit = units["pressure"]?.stringValue ?? "hPa"
        return "\(Text.number(pressure, decimals: unit == "inHg" ? 2 : 0))\(unit)"
    }

    /// `1.2mm`, `0.05in`: one decimal in millimetres, two in inches; `?` when there is no value.
    func precipitation(_ value: JSONValue?) -> String {
        guard let depth = value?.doubleValue else { return "?" }
        let unit = units["precipitation"]?.stringValue ?? "mm"
        return "\(Text.number(depth, decimals: unit == "in" ? 2 : 1))\(unit)"
    }

    /// A chance from 0…1 as `40%`; `?` when there is none.
    static func percent(_ value: Double?) -> String {
        value.map { "\(Text.number($0 * 100, decimals: 0))%" } ?? "?"
    }
}

/// Times at a place: UTC timestamps read on its clocks (`ZoneOffsets.of(location:around:)`: its zone's
/// rules, so each time at the offset valid then).
enum LocalTime {
    /// `HH:MM:SS` of `time` on clocks that keep `zone`.
    static func clock(_ time: Timestamp, zone: ZoneOffsets) -> String {
        String(local(time, zone: zone).dropFirst(11).prefix(8))
    }

    /// `YYYY-MM-DD`: the place's local date at `time`.
    static func date(_ time: Timestamp, zone: ZoneOffsets) -> String { String(local(time, zone: zone).prefix(10)) }

    /// `2026-11-27 14:05 UTC+01:00`: `time` on the clocks of `zone`, to the minute, with the offset they keep
    /// then, so that a time printed is never read in the wrong zone.
    static func stamp(_ time: Timestamp, zone: ZoneOffsets) -> String {
        date(time, zone: zone) + " " + clock(time, zone: zone).prefix(5) + " UTC"
            + offsetText(zone.offsetSeconds(at: time), colon: true)
    }

    /// `+0100` (or `+01:00` with `colon`).
    static func offsetText(_ offset: Int64, colon: Bool) -> String {
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return sign + twoDigits(minutes / 60) + (colon ? ":" : "") + twoDigits(minutes % 60)
    }

    /// `Fri 26 May` for the date `2023-05-26`; the text as it is when it is no such date.
    static func dayLabel(_ date: String) -> String { days(date).map(dayLabel(days:)) ?? date }

    /// `Fri 26 May` for a day count (days since 1970-01-01).
    static func dayLabel(days: Int64) -> String {
        let (_, month, day) = CivilDate.fromDays(days)
        return "\(weekday(days)) \(day) \(months[Int(month) - 1])"
    }

    /// The weekday of a day count, `Mon`…`Sun`.
    static func weekday(_ days: Int64) -> String { CivilDate.weekdayAbbreviation(ofDay: days) }

    /// The day count of a `YYYY-MM-DD` date; nil when it is no such date.
    static func days(_ date: String) -> Int64? {
        let parts = date.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]),
            (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return CivilDate.toDays(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD` of a day count.
    static func date(days: Int64) -> String {
        let (year, month, day) = CivilDate.fromDays(days)
        return "\(year)-\(twoDigits(month))-\(twoDigits(day))"
    }

    /// A number from 0 to 99 with two digits.
    static func twoDigits(_ value: Int64) -> String { (0..<10).contains(value) ? "0\(value)" : "\(value)" }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `time` on the clocks of `zone`, as `YYYY-MM-DDTHH:MM:SS.mmmZ` (the `Z` then means nothing).
    private static func local(_ time: Timestamp, zone: ZoneOffsets) -> String {
        zone.wallClock(at: time).description
    }
}
