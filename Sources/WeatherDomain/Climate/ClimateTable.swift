/// What `weather/climate` answers from at a place: the normal and records of each of the 366 calendar days,
/// computed once from a climate page when it is fetched (and again, the same, when the log is replayed).
///
/// The page's ~31,000 days (1940 on) are not kept: they took about 5 MB a place, the table about 45 KB.
/// `weather/history` never reads them (it has its own `history` pages).
package struct ClimateTable: Sendable, Equatable {
    /// The last day the page held: the records are up to it.
    package var through: String
    /// The first year the page's days cover (records are "since" then); nil with none.
    package var since: Int?
    /// Each calendar day's climate, 1 January first, 29 February included (366).
    package private(set) var days: [Climate]

    /// The day of a leap year each month begins on, 0 for 1 January.
    private static let monthStarts = [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335]

    /// Computes every calendar day's climate from `page`'s days.
    package init(_ page: PastPage) {
        let past = Climate.Past(page.days)
        through = page.to
        since = past.years?.lowerBound
        days = Self.calendar.map { Climate(past, month: $0.month, day: $0.day) }
    }

    /// The climate of `month`/`day` (1-based); nil for a day no calendar has.
    package func climate(month: Int, day: Int) -> Climate? {
        guard let index = Self.index(month: month, day: day) else { return nil }
        return days[index]
    }

    /// The 366 calendar days in order.
    static let calendar: [(month: Int, day: Int)] = (1...12).flatMap { month in
        (1...Int(CivilDate.daysIn(month: Int64(month), year: 2000))).map { (month, $0) }
    }

    private static func index(month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, Int64(day) <= CivilDate.daysIn(month: Int64(month), year: 2000)
        else { return nil }
        return monthStarts[month - 1] + day - 1
    }
}

extension ClimateTable {
    /// `{through, since?, days: [{date: "MM-DD", normalLow?, normalHigh?, normalYears, recordLow?, recordHigh?}]}`,
    /// the canonical form kept in snapshots; a day with nothing known is left out.
    package var json: JSONValue {
        var object: [String: JSONValue] = ["through": .string(through)]
        if let since { object["since"] = .int(Int64(since)) }
        object["days"] = .array(
            days.compactMap { climate in
                guard
                    climate.normalYears > 0 || climate.normalLow != nil || climate.normalHigh != nil
                        || climate.recordLow != nil || climate.recordHigh != nil
                else { return nil }
                var day: [String: JSONValue] = [
                    "date": .string(
                        String(PastFetched.dateText(0, Int64(climate.month), Int64(climate.day)).dropFirst(5))),
                    "normalYears": .int(Int64(climate.normalYears)),
                ]
                if let low = climate.normalLow { day["normalLow"] = .double(low) }
                if let high = climate.normalHigh { day["normalHigh"] = .double(high) }
                if let record = climate.recordLow { day["recordLow"] = record.json }
                if let record = climate.recordHigh { day["recordHigh"] = record.json }
                return .object(day)
            })
        return .object(object)
    }

    /// Reads the canonical form.
    ///
    /// - Throws: `FieldError` naming the member that does not match it.
    package init(json: JSONValue?, path: String) throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        through = try reader.string("through")
        since = try reader.optionalInt("since").map { Int($0) }
        let since = self.since
        days = Self.calendar.map { month, day in
            Climate(
                month: month, day: day, normalLow: nil, normalHigh: nil, normalYears: 0, recordLow: nil,
                recordHigh: nil, since: since)
        }
        let known = try reader.elements("days") { item, itemPath throws(FieldError) -> Climate in
            let day = try FieldReader(item, path: itemPath)
            let date = try day.string("date")
            let parts = date.split(separator: "-")
            guard parts.count == 2, let month = Int(parts[0]), let number = Int(parts[1]),
                Self.index(month: month, day: number) != nil
            else { throw FieldError(path: "\(itemPath).date", problem: "must be a calendar day such as 02-29") }
            return Climate(
                month: month, day: number, normalLow: try day.optionalDouble("normalLow"),
                normalHigh: try day.optionalDouble("normalHigh"), normalYears: Int(try day.int("normalYears")),
                recordLow: try day.members["recordLow"].map { value throws(FieldError) in
                    try Climate.Record(json: value, path: "\(itemPath).recordLow")
                },
                recordHigh: try day.members["recordHigh"].map { value throws(FieldError) in
                    try Climate.Record(json: value, path: "\(itemPath).recordHigh")
                }, since: since)
        }
        for climate in known {
            guard let index = Self.index(month: climate.month, day: climate.day) else { continue }
            days[index] = climate
        }
    }
}

extension Climate.Record {
    /// `{value, year}`.
    var json: JSONValue { ["value": .double(value), "year": .int(Int64(year))] }

    init(json: JSONValue, path: String) throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init(value: try reader.double("value"), year: Int(try reader.int("year")))
    }
}
