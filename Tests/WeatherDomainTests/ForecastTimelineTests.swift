import Testing
import WeatherDomain

@Suite("Forecast time: what is past, day and night halves, days from every step")
struct ForecastTimelineTests {
    static let berlinOffset: Int64 = 3600
    /// 2026-11-22T00:00 in Berlin (+01:00).
    static let berlinMidnight = Timestamp(milliseconds: 1_795_302_000_000)

    /// `count` hourly steps from `start`, the n-th at n °C with 0.5 mm, n % chance (0…1) and code 3.
    static func hours(from start: Timestamp, count: Int) -> [ForecastEntry] {
        (0..<count).map { (n: Int) -> ForecastEntry in
            let time = Timestamp(milliseconds: start.milliseconds + Int64(n) * 3_600_000)
            let code: Int64 = n % 5 == 0 ? 61 : 3
            return ForecastEntry(
                time: time, temperature: Double(n), precipitation: 0.5, pop: Double(n % 100) / 100,
                condition: .wmo(code))
        }
    }

    @Test("one rule for what is past: a period is past once it ended at or before now")
    func pastRule() {
        let now = Timestamp(milliseconds: 1_000_000)
        #expect(ForecastTimeline.isPast(end: Timestamp(milliseconds: 999_999), now: now))
        #expect(ForecastTimeline.isPast(end: now, now: now), "ending exactly now is over")
        #expect(!ForecastTimeline.isPast(end: Timestamp(milliseconds: 1_000_001), now: now), "running now is kept")
    }

    @Test("local days begin and end at the place's midnight")
    func localDays() {
        #expect(LocalDate.start(of: "2026-11-22", zone: .fixed(3600))?.description == "2026-11-21T23:00:00.000Z")
        #expect(LocalDate.end(of: "2026-11-22", zone: .fixed(-18_000))?.description == "2026-11-23T05:00:00.000Z")
        #expect(LocalDate.end(of: "2026-11-22", zone: .fixed(46_800))?.description == "2026-11-22T11:00:00.000Z")
        #expect(LocalDate.adding(1, to: "2026-12-31") == "2027-01-01")
        #expect(LocalDate.start(of: "2026-13-01", zone: .fixed(0)) == nil)
    }

    @Test("twice daily: halves from sunrise to sunset and sunset to sunrise, each step in the half it starts in")
    func twiceDailyAroundSunriseAndSunset() throws {
        let hours = Self.hours(from: Self.berlinMidnight, count: 72)
        let steps = hours.map { TimedStep($0, milliseconds: ForecastTimeline.hour) }
        let halves = ForecastHalf.halves(of: steps, lat: 52.52, lon: 13.41, zone: .fixed(Self.berlinOffset))
        var sun: [String: SolarDay] = [:]
        for date in ["2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25"] {
            let day = try #require(
                SolarDay.compute(lat: 52.52, lon: 13.41, localDate: date, zone: .fixed(Self.berlinOffset)))
            sun[date] = day
        }
        func time(_ date: String, _ event: KeyPath<SolarDay, Timestamp?>) throws -> Timestamp {
            try #require(sun[date]?[keyPath: event])
        }
        // The night before the first morning began before the steps; the last night runs past them.
        #expect(
            halves.map(\.date) == ["2026-11-21", "2026-11-22", "2026-11-22", "2026-11-23", "2026-11-23", "2026-11-24"])
        #expect(halves.map(\.isDay) == [false, true, false, true, false, true])
        #expect(halves[0].start == (try time("2026-11-21", \.sunset)))
        #expect(halves[0].end == (try time("2026-11-22", \.sunrise)))
        #expect(halves[1].start == (try time("2026-11-22", \.sunrise)))
        #expect(halves[1].end == (try time("2026-11-22", \.sunset)))
        #expect(halves[2].end == (try time("2026-11-23", \.sunrise)))
        #expect(halves[5].end == (try time("2026-11-24", \.sunset)))

        for half in halves {
            let inside = hours.filter { $0.time >= half.start && $0.time < half.end }
            #expect(half.summary.min == inside.map(\.temperature).min(), "\(half.date) \(half.isDay)")
            #expect(half.summary.max == inside.map(\.temperature).max(), "\(half.date) \(half.isDay)")
            #expect(half.summary.precipitation == Double(inside.count) * 0.5)
            #expect(half.summary.pop == inside.compactMap(\.pop).max())
        }
        // Around the first sunrise (about 07:40 local): the 07:00 step is night, 08:00 is day.
        let sunrise = try time("2026-11-22", \.sunrise)
        let lastNight = try #require(hours.last { $0.time < sunrise })
        let firstDay = try #require(hours.first { $0.time >= sunrise })
        #expect(halves[0].summary.max == lastNight.temperature)
        #expect(halves[1].summary.min == firstDay.temperature)
        #expect(firstDay.time.milliseconds - lastNight.time.milliseconds == 3_600_000)
        // Around the first sunset (about 16:00 local): the day ends with the step before it.
        let sunset = try time("2026-11-22", \.sunset)
        let lastDay = try #require(hours.last { $0.time < sunset })
        #expect(halves[1].summary.max == lastDay.temperature)
        #expect(halves[2].summary.min == lastDay.temperature + 1)
    }

    @Test("twice daily in a polar night: each local day is one night, midnight to midnight")
    func twiceDailyPolarNight() throws {
        // Longyearbyen, 21 December: the Sun stays below the horizon all day.
        let midnight = try #require(LocalDate.start(of: "2026-12-21", zone: .fixed(3600)))
        let steps = Self.hours(from: midnight, count: 48).map { TimedStep($0, milliseconds: ForecastTimeline.hour) }
        let halves = ForecastHalf.halves(of: steps, lat: 78.22, lon: 15.63, zone: .fixed(3600))
        #expect(halves.map(\.date) == ["2026-12-21", "2026-12-22"])
        #expect(halves.map(\.isDay) == [false, false])
        #expect(halves.first?.start == midnight)
        #expect(halves.first?.end == LocalDate.end(of: "2026-12-21", zone: .fixed(3600)))
        #expect(halves.first?.summary.max == 23)
    }

    @Test("the finest timeline: the hours, then the 3-hourly steps after them, each with its length")
    func finest() {
        let hours = Self.hours(from: Self.berlinMidnight, count: 6)
        let entries = stride(from: 0, to: 12, by: 3).map {
            ForecastEntry(
                time: Timestamp(milliseconds: Self.berlinMidnight.milliseconds + Int64($0) * 3_600_000),
                temperature: 100 + Double($0), condition: .wmo(0))
        }
        let report = ForecastReport(
            place: Place(name: nil, country: nil, state: nil, lat: 52.52, lon: 13.41), timezone: nil,
            utcOffsetSeconds: 3600, entries: entries, hourly: hours, daily: [])
        let steps = ForecastTimeline.finest(report)
        #expect(steps.map(\.entry.temperature) == [0, 1, 2, 3, 4, 5, 106, 109])
        #expect(steps.map(\.milliseconds) == [Int64](repeating: 3_600_000, count: 6) + [10_800_000, 10_800_000])
        #expect(steps.last?.end.milliseconds == Self.berlinMidnight.milliseconds + 12 * 3_600_000)
        let threeHourlyOnly = ForecastReport(
            place: report.place, timezone: nil, utcOffsetSeconds: 3600, entries: entries, daily: [])
        #expect(ForecastTimeline.finest(threeHourlyOnly).count == 4)
    }

    @Test("daylight computed locally: day after sunrise, night after sunset, polar day and night all day")
    func daylight() throws {
        let noon = Timestamp(milliseconds: Self.berlinMidnight.milliseconds + 12 * 3_600_000)
        #expect(ForecastTimeline.isDaylight(at: noon, lat: 52.52, lon: 13.41, zone: .fixed(3600)))
        #expect(!ForecastTimeline.isDaylight(at: Self.berlinMidnight, lat: 52.52, lon: 13.41, zone: .fixed(3600)))
        let polarNoon = try #require(Timestamp(rfc3339: "2026-12-21T11:00:00Z"))
        #expect(!ForecastTimeline.isDaylight(at: polarNoon, lat: 78.22, lon: 15.63, zone: .fixed(3600)))
        let midnightSun = try #require(Timestamp(rfc3339: "2026-06-21T23:00:00Z"))
        #expect(ForecastTimeline.isDaylight(at: midnightSun, lat: 78.22, lon: 15.63, zone: .fixed(3600)))
    }

    @Test("days from steps: every step of each local date, totals and highest chances; unknown stays unknown")
    func daysFromEveryStep() {
        let steps = Self.hours(from: Self.berlinMidnight, count: 60)
        let days = DailySummary.days(of: steps, zone: .fixed(3600))
        #expect(days.map(\.date) == ["2026-11-22", "2026-11-23", "2026-11-24"])
        #expect(days.map(\.min) == [0, 24, 48])
        #expect(days.map(\.max) == [23, 47, 59])
        #expect(days.map(\.precipitation) == [12, 12, 6])
        #expect(days.map(\.pop) == [0.23, 0.47, 0.59])
        #expect(days.first?.condition == .wmo(3), "the most frequent code")
        let dry = steps.map { step in
            var step = step
            step.precipitation = nil
            step.pop = nil
            return step
        }
        #expect(
            DailySummary.days(of: dry, zone: .fixed(3600)).allSatisfy { $0.precipitation == nil && $0.pop == nil })
        #expect(DailySummary.days(of: steps, zone: .fixed(3600), limit: 2).count == 2)
    }
}
