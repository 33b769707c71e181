import Testing
import WeatherDomain

@Suite("Zone offsets: local times and dates across a change of daylight saving time")
struct ZoneOffsetsTests {
    /// Berlin's clocks in 2027 as the time zone database has them: CET (+01:00) until 28 March 01:00 UTC,
    /// CEST (+02:00) until 31 October 01:00 UTC, CET again after.
    static let berlin = ZoneOffsets(
        initialOffsetSeconds: 3600,
        transitions: [
            .init(at: time("2027-03-28T01:00:00Z"), offsetSeconds: 7200),
            .init(at: time("2027-10-31T01:00:00Z"), offsetSeconds: 3600),
        ])

    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text) ?? Timestamp(milliseconds: .min) }

    /// `HH:MM` of `time` on the clocks of `zone`.
    static func clock(_ time: Timestamp, _ zone: ZoneOffsets) -> String {
        String(zone.wallClock(at: time).description.dropFirst(11).prefix(5))
    }

    @Test("the offset changes at the transition instant, not before")
    func offsetAtTransitions() {
        #expect(Self.berlin.offsetSeconds(at: Self.time("2027-03-28T00:59:59Z")) == 3600)
        #expect(Self.berlin.offsetSeconds(at: Self.time("2027-03-28T01:00:00Z")) == 7200)
        #expect(Self.berlin.offsetSeconds(at: Self.time("2027-07-01T12:00:00Z")) == 7200)
        #expect(Self.berlin.offsetSeconds(at: Self.time("2027-10-31T00:59:59Z")) == 7200)
        #expect(Self.berlin.offsetSeconds(at: Self.time("2027-10-31T01:00:00Z")) == 3600)
        #expect(ZoneOffsets.fixed(32_400).offsetSeconds(at: Self.time("2027-03-28T01:00:00Z")) == 32_400)
    }

    @Test("spring forward: the day is 23 hours, 02:30 does not happen and reads as 03:30")
    func springForward() throws {
        let zone = Self.berlin
        #expect(LocalDate.start(of: "2027-03-28", zone: zone) == Self.time("2027-03-27T23:00:00Z"))
        #expect(LocalDate.end(of: "2027-03-28", zone: zone) == Self.time("2027-03-28T22:00:00Z"))
        #expect(LocalDate.start(of: "2027-03-29", zone: zone) == Self.time("2027-03-28T22:00:00Z"))
        let skipped = try #require(LocalDate.instant(on: "2027-03-28", at: 9_000_000, zone: zone))
        #expect(skipped == Self.time("2027-03-28T01:30:00Z"))
        #expect(Self.clock(skipped, zone) == "03:30")
        #expect(LocalDate.string(Self.time("2027-03-28T21:59:00Z"), zone: zone) == "2027-03-28")
        #expect(LocalDate.string(Self.time("2027-03-28T22:00:00Z"), zone: zone) == "2027-03-29")
    }

    @Test("fall back: the day is 25 hours, and 02:30, which happens twice, is its first instant")
    func fallBack() throws {
        let zone = Self.berlin
        #expect(LocalDate.start(of: "2027-10-31", zone: zone) == Self.time("2027-10-30T22:00:00Z"))
        #expect(LocalDate.end(of: "2027-10-31", zone: zone) == Self.time("2027-10-31T23:00:00Z"))
        let twice = try #require(LocalDate.instant(on: "2027-10-31", at: 9_000_000, zone: zone))
        #expect(twice == Self.time("2027-10-31T00:30:00Z"))
        #expect(Self.clock(Self.time("2027-10-31T01:30:00Z"), zone) == "02:30", "the second 02:30")
        #expect(LocalDate.minuteOfDay(Self.time("2027-10-31T08:00:00Z"), zone: zone) == 9 * 60)
        #expect(LocalDate.minuteOfDay(Self.time("2027-10-30T08:00:00Z"), zone: zone) == 10 * 60)
    }

    @Test("a fixed offset is one offset for every day: a day of 24 hours")
    func fixedOffset() {
        let tokyo = ZoneOffsets.fixed(32_400)
        #expect(LocalDate.start(of: "2027-03-28", zone: tokyo) == Self.time("2027-03-27T15:00:00Z"))
        #expect(LocalDate.end(of: "2027-03-28", zone: tokyo) == Self.time("2027-03-28T15:00:00Z"))
        #expect(LocalDate.string(Self.time("2027-03-28T14:59:00Z"), zone: tokyo) == "2027-03-28")
        #expect(LocalDate.string(Self.time("2027-03-28T15:00:00Z"), zone: tokyo) == "2027-03-29")
    }

    /// Hourly steps from `first`, `count` of them, each one 0.5 °C warmer than the one before.
    static func hours(from first: Timestamp, count: Int) -> [ForecastEntry] {
        (0..<count).map { index in
            ForecastEntry(
                time: Timestamp(milliseconds: first.milliseconds + Int64(index) * 3_600_000),
                temperature: Double(index) * 0.5, condition: .wmo(3))
        }
    }

    @Test("daily highs are grouped by the local date: 23 hours on the spring day, 25 on the autumn one")
    func dailyGroupingAcrossChanges() throws {
        // From local midnight of 27 March (CET) for three days.
        let spring = Self.hours(from: Self.time("2027-03-26T23:00:00Z"), count: 71)
        let springDays = DailySummary.days(of: spring, zone: Self.berlin)
        #expect(springDays.map(\.date) == ["2027-03-27", "2027-03-28", "2027-03-29"])
        // 27 March: hours 0…23 (the 24th is 00:00 on 28 March); 28 March: 23 hours, 24…46; 29 March: 47…70.
        #expect(springDays.map(\.max) == [11.5, 23, 35])
        #expect(springDays.map(\.min) == [0, 12, 23.5])
        // With the offset of 26 March kept, 28 March would wrongly run to 23:00 UTC (01:00 on the 29th).
        let fixed = DailySummary.days(of: spring, zone: .fixed(3600))
        #expect(fixed.map(\.max) == [11.5, 23.5, 35])

        // From local midnight of 30 October (CEST).
        let autumn = Self.hours(from: Self.time("2027-10-29T22:00:00Z"), count: 73)
        let autumnDays = DailySummary.days(of: autumn, zone: Self.berlin)
        #expect(autumnDays.map(\.date) == ["2027-10-30", "2027-10-31", "2027-11-01"])
        #expect(autumnDays.map(\.max) == [11.5, 24, 36], "31 October holds 25 hours: 24…48")
        #expect(autumnDays.map(\.min) == [0, 12, 24.5])
    }

    @Test(
        "Berlin's sunrise on 28 March 2027 is about 04:51 UTC (USNO almanac algorithm), 06:51 on its clocks",
        arguments: [
            // Independent reference: the U.S. Naval Observatory's "Almanac for Computers" sunrise algorithm
            // for 52.52° N 13.41° E gives 04:51 UT on 28 March and 05:59 UT on 31 October 2027.
            ("2027-03-28", "04:51", "06:51"), ("2027-10-31", "05:59", "06:59"),
        ])
    func sunriseOnChangeDays(date: String, utc: String, local: String) throws {
        let sun = try #require(SolarDay.compute(lat: 52.52, lon: 13.41, localDate: date, zone: Self.berlin))
        let sunrise = try #require(sun.sunrise)
        let published = try #require(Timestamp(rfc3339: "\(date)T\(utc):00Z"))
        #expect(abs(sunrise.milliseconds - published.milliseconds) <= 120_000)
        let shown = Self.clock(sunrise, Self.berlin)
        let expected = try #require(Timestamp(rfc3339: "\(date)T\(local):00Z"))
        let shownTime = try #require(Timestamp(rfc3339: "\(date)T\(shown):00Z"))
        #expect(abs(shownTime.milliseconds - expected.milliseconds) <= 120_000, "shown \(shown)")
    }

    @Test("the Moon of a local date is taken at its noon on the clocks of that day")
    func moonAtLocalNoon() throws {
        let noon = try #require(LocalDate.instant(on: "2027-03-29", at: 43_200_000, zone: Self.berlin))
        #expect(noon == Self.time("2027-03-29T10:00:00Z"))
        let moon = try #require(MoonPhase.onLocalDate("2027-03-29", zone: Self.berlin))
        #expect(moon.phase == MoonPhase.at(noon).phase)
    }

    @Test(
        "the daily summary comes at 08:00 on the clocks of the day: 06:00 UTC after spring forward",
        arguments: [("2027-03-29T05:59:00Z", false), ("2027-03-29T06:00:00Z", true), ("2027-03-26T06:59:00Z", false)])
    func dailySummaryAfterSpringForward(now text: String, raised: Bool) throws {
        let now = Self.time(text)
        let place = Place(name: "Berlin", country: "DE", state: nil, lat: 52.52, lon: 13.41)
        let hours = Self.hours(from: Self.time("2027-03-25T23:00:00Z"), count: 120)
        let forecast = ForecastReport(
            place: place, timezone: "Europe/Berlin", utcOffsetSeconds: 3600, entries: hours, daily: [])
        let events = AlertRules.dailySummary(
            AlertState(), target: AlertTarget(place: place, favoriteId: nil), forecast: forecast, zone: Self.berlin,
            now: now)
        #expect(events.count == (raised ? 1 : 0))
        if case .alertRaised(let alert)? = events.first {
            #expect(alert.localDate == "2027-03-29")
            // 29 March's hours are 71…94 (28 March has 23): its low is hour 71's.
            #expect(alert.details["low"] == .double(35.5))
        }
    }
}
