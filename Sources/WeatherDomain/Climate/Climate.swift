/// A day of the past at a place, by its local date, in canonical units (°C, mm, m/s); nil where the source
/// has no value.
package struct PastDay: Sendable, Equatable {
    /// `YYYY-MM-DD` in the place's time zone.
    package var date: String
    package var low: Double?
    package var high: Double?
    /// The mean of the day's hours.
    package var mean: Double?
    package var precipitation: Double?
    /// The day's highest wind speed (10 m), m/s.
    package var windMax: Double?
    /// The day's WMO weather code, where the source has one.
    package var condition: Condition?

    package init(
        date: String, low: Double?, high: Double?, precipitation: Double? = nil, mean: Double? = nil,
        windMax: Double? = nil, condition: Condition? = nil
    ) {
        self.date = date
        self.low = low
        self.high = high
        self.mean = mean
        self.precipitation = precipitation
        self.windMax = windMax
        self.condition = condition
    }

    /// Whether the source had no value at all for the day (ERA5's days past its horizon).
    package var isEmpty: Bool {
        low == nil && high == nil && mean == nil && precipitation == nil && windMax == nil && condition == nil
    }
}

/// What is normal for a calendar day at a place, and its records, from the place's past days.
///
/// The normal is the WMO's current reference period, 1991–2020: the mean of every low (and every high) of
/// the 15 days centred on the calendar day in each of those 30 years (±`windowDays`), which smooths one
/// odd day without blurring the season. 29 February is centred on 28 February in common years. The records
/// are the highest high and the lowest low on that very calendar day in every year the days cover; a tie
/// keeps the earlier year (a record equalled is not broken).
package struct Climate: Sendable, Equatable {
    /// A record and the year it was set.
    package struct Record: Sendable, Equatable {
        package var value: Double
        package var year: Int

        package init(value: Double, year: Int) {
            self.value = value
            self.year = year
        }
    }

    package static let normalPeriod = 1991...2020
    package static let windowDays: Int64 = 7

    package var month: Int
    package var day: Int
    package var normalLow: Double?
    package var normalHigh: Double?
    /// How many years of the period had a value in the window: 30 when the past is complete.
    package var normalYears: Int
    package var recordLow: Record?
    package var recordHigh: Record?
    /// The first year the past days cover (records are "since" then); nil with none.
    package var since: Int?

    /// The past days indexed by day number, to compute the climate of many calendar days from one page.
    package struct Past: Sendable {
        var byDay: [Int64: PastDay] = [:]
        /// The first and last years the days cover; nil with none.
        var years: ClosedRange<Int>?

        /// Indexes `days` (any order; a date that is not `YYYY-MM-DD` is skipped).
        package init(_ days: [PastDay]) {
            var (first, last): (Int?, Int?) = (nil, nil)
            for past in days {
                guard let number = LocalDate.dayNumber(of: past.date) else { continue }
                let year = Int(CivilDate.fromDays(number).0)
                byDay[number] = past
                (first, last) = (min(first ?? year, year), max(last ?? year, year))
            }
            if let first, let last { years = first...last }
        }
    }

    /// A climate as it was computed (read back from a snapshot).
    init(
        month: Int, day: Int, normalLow: Double?, normalHigh: Double?, normalYears: Int, recordLow: Record?,
        recordHigh: Record?, since: Int?
    ) {
        self.month = month
        self.day = day
        self.normalLow = normalLow
        self.normalHigh = normalHigh
        self.normalYears = normalYears
        self.recordLow = recordLow
        self.recordHigh = recordHigh
        self.since = since
    }

    /// Computes the normal and records of `month`/`day` (1-based) from `days` (any order; a date that is not
    /// `YYYY-MM-DD` is skipped).
    package init(_ days: [PastDay], month: Int, day: Int) {
        self.init(Past(days), month: month, day: day)
    }

    /// Computes the normal and records of `month`/`day` (1-based) from indexed past days.
    package init(_ past: Past, month: Int, day: Int) {
        self.month = month
        self.day = day
        let byDay = past.byDay
        var (recordLow, recordHigh): (Record?, Record?) = (nil, nil)
        for year in past.years.map(Array.init) ?? [] {
            guard (1...12).contains(month), day >= 1,
                Int64(day) <= CivilDate.daysIn(month: Int64(month), year: Int64(year)),
                let found = byDay[CivilDate.toDays(year: Int64(year), month: Int64(month), day: Int64(day))]
            else { continue }
            // Years ascend: a record only equalled keeps the earlier year.
            if let low = found.low, low < recordLow?.value ?? .infinity {
                recordLow = Record(value: low, year: year)
            }
            if let high = found.high, high > recordHigh?.value ?? -.infinity {
                recordHigh = Record(value: high, year: year)
            }
        }
        (self.recordLow, self.recordHigh, self.since) = (recordLow, recordHigh, past.years?.lowerBound)
        var (lows, highs, years) = ([Double](), [Double](), 0)
        // A window reaches a week into the years beside the period; days wholly outside it have no say.
        let reach = (Self.normalPeriod.lowerBound - 1)...(Self.normalPeriod.upperBound + 1)
        let period = past.years?.overlaps(reach) == true ? Self.normalPeriod.map(Int64.init) : []
        for year in period {
            let centre = CivilDate.toDays(
                year: year, month: Int64(month), day: min(Int64(day), CivilDate.daysIn(month: Int64(month), year: year))
            )
            let window = (centre - Self.windowDays...centre + Self.windowDays).compactMap { byDay[$0] }
            lows += window.compactMap(\.low)
            highs += window.compactMap(\.high)
            if window.contains(where: { $0.low != nil || $0.high != nil }) { years += 1 }
        }
        normalLow = lows.isEmpty ? nil : lows.reduce(0, +) / Double(lows.count)
        normalHigh = highs.isEmpty ? nil : highs.reduce(0, +) / Double(highs.count)
        normalYears = years
    }
}
