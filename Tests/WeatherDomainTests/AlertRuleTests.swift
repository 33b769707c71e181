import Testing
import WeatherDomain

@Suite("Alert rules")
struct AlertRuleTests {
    static let noon = Timestamp(milliseconds: 1_795_348_800_000)
    static let place = Place(name: "Test", country: nil, state: nil, lat: 27.7, lon: 85.3)
    static let target = AlertTarget(place: place, favoriteId: "fav-1")

    static func current(_ temperature: Double, code: Int64 = 3, scheme: String = "wmo", offset: Int64 = 0)
        -> CurrentReport
    {
        CurrentReport(
            place: place, timezone: nil, utcOffsetSeconds: offset,
            current: CurrentConditions(
                observedAt: noon, temperature: temperature,
                condition: Condition(scheme: scheme, code: code, text: "c\(code)")))
    }

    static func rules(_ events: [DomainEvent]) -> [AlertRule] {
        events.compactMap { if case .alertRaised(let alert) = $0 { alert.rule } else { nil } }
    }

    static let drops: [(Double, Double, Int64, Bool)] = [
        (20.0, 9.9, 0, true), (20.0, 10.0, 0, false), (20.0, 9.0, 24, true), (20.0, 9.0, 25, false),
    ]

    @Test("a drop of more than 10 °C below the previous fetch within 24 h", arguments: drops)
    func tempDrop(before: Double, after: Double, hoursAgo: Int64, raised: Bool) {
        let previous = (before, Timestamp(milliseconds: Self.noon.milliseconds - hoursAgo * 3_600_000))
        let events = AlertRules.afterCurrent(
            AlertState(), target: Self.target, report: Self.current(after), previous: previous, zone: .fixed(0),
            now: Self.noon)
        #expect(Self.rules(events) == (raised ? [.tempDrop] : []))
    }

    @Test("the next 24 h forecast low more than 10 °C below the current temperature; later lows do not count")
    func forecastDrop() {
        func forecast(_ low: Double, atHour hour: Int64) -> ForecastReport {
            let entries = [
                ForecastEntry(time: Self.noon, temperature: 15, condition: .wmo(3)),
                ForecastEntry(
                    time: Timestamp(milliseconds: Self.noon.milliseconds + hour * 3_600_000), temperature: low,
                    condition: .wmo(3)),
            ]
            return ForecastReport(place: Self.place, timezone: nil, utcOffsetSeconds: 0, entries: entries, daily: [])
        }
        let state = AlertState()
        #expect(
            Self.rules(
                AlertRules.afterForecast(
                    state, target: Self.target, report: forecast(4.9, atHour: 12), currentTemperature: 15,
                    zone: .fixed(0), now: Self.noon)) == [.tempDrop])
        #expect(
            Self.rules(
                AlertRules.afterForecast(
                    state, target: Self.target, report: forecast(5.0, atHour: 12), currentTemperature: 15,
                    zone: .fixed(0), now: Self.noon)
            ).isEmpty)
        #expect(
            Self.rules(
                AlertRules.afterForecast(
                    state, target: Self.target, report: forecast(0, atHour: 27), currentTemperature: 15,
                    zone: .fixed(0), now: Self.noon)
            ).isEmpty)
    }

    static let codes: [(String, Int64, Bool)] = [
        ("wmo", 95, true), ("wmo", 65, true), ("wmo", 63, false), ("wmo", 82, true), ("owm", 202, true),
        ("owm", 502, true), ("owm", 501, false), ("owm", 781, true), ("owm", 800, false),
    ]

    @Test("severe weather by WMO and OWM codes", arguments: codes)
    func severe(scheme: String, code: Int64, raised: Bool) {
        let events = AlertRules.afterCurrent(
            AlertState(), target: Self.target, report: Self.current(10, code: code, scheme: scheme), previous: nil,
            zone: .fixed(0), now: Self.noon)
        #expect(Self.rules(events) == (raised ? [.severe] : []))
    }

    @Test("the same (place, rule, local date) is raised once, also after a replay of the log")
    func dedup() {
        var state = AlertState()
        let first = AlertRules.afterCurrent(
            state, target: Self.target, report: Self.current(10, code: 95), previous: nil, zone: .fixed(0),
            now: Self.noon)
        #expect(first.count == 1)
        for event in first { state.apply(event) }
        var replayed = WeatherState()
        for (index, event) in first.enumerated() { replayed.apply(event, seq: Int64(index + 1), corr: nil) }
        for candidate in [state, replayed.alerts] {
            let later = Timestamp(milliseconds: Self.noon.milliseconds + 3_600_000)
            #expect(
                AlertRules.afterCurrent(
                    candidate, target: Self.target, report: Self.current(9, code: 99), previous: nil, zone: .fixed(0),
                    now: later
                ).isEmpty)
        }
        let nextDay = Timestamp(milliseconds: Self.noon.milliseconds + 86_400_000)
        let again = AlertRules.afterCurrent(
            state, target: Self.target, report: Self.current(9, code: 99), previous: nil, zone: .fixed(0), now: nextDay)
        #expect(Self.rules(again) == [.severe])
        if case .alertRaised(let alert)? = again.first { #expect(alert.id == "alert-2") }
    }

    static func day(offset: Int64) -> ForecastReport {
        let entries = (0..<16).map { step in
            ForecastEntry(
                time: Timestamp(milliseconds: noon.milliseconds - 12 * 3_600_000 + Int64(step) * 3 * 3_600_000),
                temperature: Double(step), condition: .wmo(step < 8 ? 61 : 0))
        }
        return ForecastReport(place: place, timezone: nil, utcOffsetSeconds: offset, entries: entries, daily: [])
    }

    static let summaryTimes: [(Int64, Int64, Bool)] = [
        (20_700, 2 * 60 + 14, false), (20_700, 2 * 60 + 15, true), (-34_200, 17 * 60 + 29, false),
        (-34_200, 17 * 60 + 30, true),
    ]

    @Test("the daily summary comes at 08:00 in the place's own zone, odd offsets included", arguments: summaryTimes)
    func dailySummaryTime(offset: Int64, utcMinutes: Int64, raised: Bool) {
        let midnight = Self.noon.milliseconds - 12 * 3_600_000
        let now = Timestamp(milliseconds: midnight + utcMinutes * 60_000)
        let events = AlertRules.dailySummary(
            AlertState(), target: Self.target, forecast: Self.day(offset: offset), zone: .fixed(offset), now: now)
        #expect(Self.rules(events) == (raised ? [.dailySummary] : []))
        if case .alertRaised(let alert)? = events.first {
            #expect(alert.localDate == LocalDate.string(now, zone: .fixed(offset)))
            #expect(alert.details["low"] != nil && alert.details["high"] != nil)
        }
    }

    @Test("the daily summary gives the provider's own low and high for the day, not the extremes of its steps")
    func dailySummaryFromTheDay() throws {
        var forecast = Self.day(offset: 0)
        let today = LocalDate.string(Self.noon, zone: .fixed(0))
        // The steps (every third hour) miss the day's true extremes, which the provider's daily aggregate has.
        forecast.daily = [DailySummary(date: today, min: -17.7, max: -5.3, condition: .wmo(71))]
        let events = AlertRules.dailySummary(
            AlertState(), target: Self.target, forecast: forecast, zone: .fixed(0), now: Self.noon)
        guard case .alertRaised(let alert)? = events.first else {
            Issue.record("no summary raised")
            return
        }
        #expect(alert.details["low"] == .double(-17.7))
        #expect(alert.details["high"] == .double(-5.3))
        #expect(alert.message.contains("-17.7 to -5.3"))
        // Without the provider's day, the steps of the local date give it.
        let fromSteps = AlertRules.dailySummary(
            AlertState(), target: Self.target, forecast: Self.day(offset: 0), zone: .fixed(0), now: Self.noon)
        guard case .alertRaised(let stepped)? = fromSteps.first else {
            Issue.record("no summary raised from the steps")
            return
        }
        #expect(stepped.details["low"] == .double(0))
        #expect(stepped.details["high"] == .double(7))
    }

    @Test("a change of offset (DST) moves the local time and date the rules use")
    func offsetChange() {
        let now = Timestamp(milliseconds: Self.noon.milliseconds - 12 * 3_600_000 + (12 * 60 + 30) * 60_000)
        let winter = AlertRules.dailySummary(
            AlertState(), target: Self.target, forecast: Self.day(offset: -18_000), zone: .fixed(-18_000), now: now)
        let summer = AlertRules.dailySummary(
            AlertState(), target: Self.target, forecast: Self.day(offset: -14_400), zone: .fixed(-14_400), now: now)
        #expect(winter.isEmpty, "12:30Z is 07:30 at UTC−5")
        #expect(Self.rules(summer) == [.dailySummary], "12:30Z is 08:30 at UTC−4")
    }

    @Test("configure writes only a change")
    func configure() {
        let state = AlertState()
        #expect(
            AlertDecisions.configure(
                state, dailySummaryEnabled: true, dailySummaryMinutes: 480, tempDropC: 10, severe: true
            ).isEmpty)
        let events = AlertDecisions.configure(
            state, dailySummaryEnabled: nil, dailySummaryMinutes: 7 * 60 + 30, tempDropC: 5, severe: nil)
        guard case .alertsConfigured(let settings)? = events.first else {
            Issue.record("no event")
            return
        }
        #expect(settings.dailySummaryTime == "07:30")
        #expect(settings.tempDropC == 5)
        #expect(AlertSettings.minutes(of: "24:00") == nil)
        #expect(AlertSettings.minutes(of: "8:00") == nil)
    }
}
