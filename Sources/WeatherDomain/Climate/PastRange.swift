/// The rules of asking for the past: which dates may be asked, how a range is paged, and which days are final.
package enum PastRange {
    /// The first day of ERA5.
    package static let earliest = "1940-01-01"
    /// The longest range one `weather/history` call may ask for, in years.
    package static let maxYears = 10
    /// How many days old a day must be before ERA5 has it final: the archive reaches about five days back with
    /// its preliminary ERA5T, which can still change for a few days after.
    package static let finalAfterDays: Int64 = 7

    /// Checks a range of local dates against `today` at the place.
    ///
    /// - Throws: `FieldError` on `params.from` or `params.to` for a malformed date, one before 1940-01-01 or
    ///   after today, `from` after `to`, or a range longer than `maxYears`.
    package static func validate(from: String, to: String, today: String) throws(FieldError) {
        let first = try day(from, "params.from", today: today)
        let last = try day(to, "params.to", today: today)
        guard first <= last else { throw FieldError(path: "params.from", problem: "(\(from)) is after to (\(to))") }
        guard last - first < Int64(maxYears) * 366 else {
            throw FieldError(
                path: "params.to",
                problem: "makes a range longer than \(maxYears) years; ask for at most \(maxYears) years at a time")
        }
    }

    /// The day number of a valid date from 1940-01-01 to `today`.
    ///
    /// - Throws: `FieldError` on `path` otherwise.
    package static func day(_ date: String, _ path: String, today: String) throws(FieldError) -> Int64 {
        guard let number = dayNumber(date) else {
            throw FieldError(path: path, problem: "must be a date such as 2025-11-26 (YYYY-MM-DD)")
        }
        guard date >= earliest else {
            throw FieldError(path: path, problem: "(\(date)) is before \(earliest), where the archive begins")
        }
        guard date <= today else { throw FieldError(path: path, problem: "(\(date)) is after today (\(today))") }
        return number
    }

    /// The day number of a real `YYYY-MM-DD` date; nil for anything else (2025-02-30 included).
    package static func dayNumber(_ date: String) -> Int64? {
        guard let number = LocalDate.dayNumber(of: date) else { return nil }
        let (year, month, day) = CivilDate.fromDays(number)
        return PastFetched.dateText(year, month, day) == date ? number : nil
    }

    /// `from`…`to` cut at the ends of calendar years: one archive call each, at most a year.
    package static func pages(from: String, to: String) -> [(from: String, to: String)] {
        var pages: [(from: String, to: String)] = []
        var start = from
        while start <= to {
            let endOfYear = "\(start.prefix(4))-12-31"
            let end = min(endOfYear, to)
            pages.append((start, end))
            guard let next = LocalDate.adding(1, to: end) else { break }
            start = next
        }
        return pages
    }

    /// The last day ERA5 has final on `today`.
    package static func lastFinal(today: String) -> String {
        LocalDate.adding(-finalAfterDays, to: today) ?? today
    }
}
