import Testing
import WeatherDomain

@Suite("Nowcast summary: the next hour in a word and a sentence")
struct NowcastSummaryTests {
    /// 2026-11-22T12:00:00Z.
    static let now = Timestamp(milliseconds: 1_795_348_800_000)

    /// Twelve 5-minute steps from now with these rates (mm/h).
    static func steps(_ rates: [Double]) -> [NowcastStep] {
        rates.enumerated().map { index, rate in
            NowcastStep(time: Timestamp(milliseconds: now.milliseconds + Int64(index) * 300_000), intensity: rate)
        }
    }

    static func at(minutes: Int64) -> Timestamp { Timestamp(milliseconds: now.milliseconds + minutes * 60_000) }

    /// `HH:MM` in UTC+1.
    static func clock(_ time: Timestamp) -> String {
        let minutes = (time.milliseconds / 60_000 + 60) % (24 * 60)
        let (hours, rest) = (minutes / 60, minutes % 60)
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    static func summary(_ rates: [Double]) -> NowcastSummary {
        NowcastSummary(steps(rates), resolutionMinutes: 5, now: now)
    }

    @Test("dry: nothing, or only traces below 0.1 mm/h; the peak is the steps' highest rate, the trace's too")
    func dry() {
        for (rates, peak) in [
            (Array(repeating: 0.0, count: 12), 0.0), ([0, 0.05, 0.09, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0.09),
            ([0.01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0.01),
        ] {
            let summary = Self.summary(rates)
            #expect(summary.state == .dry)
            #expect(summary.startsAt == nil && summary.endsAt == nil && summary.category == nil)
            #expect(summary.peak == peak, "the peak agrees with the steps")
            #expect(summary.horizonMinutes == 60)
            #expect(
                summary.sentence(kind: .rain, now: Self.now, localTime: Self.clock)
                    == "No precipitation expected in the next hour.")
        }
    }

    @Test("starting, then easing off within the hour")
    func starting() {
        let summary = Self.summary([0, 0, 0.4, 1.2, 2.0, 0.8, 0.3, 0, 0, 0, 0, 0])
        #expect(summary.state == .starting)
        #expect(summary.startsAt == Self.at(minutes: 10))
        #expect(summary.endsAt == Self.at(minutes: 35))
        #expect(summary.peak == 2.0)
        #expect(summary.category == .light)
        #expect(
            summary.sentence(kind: .rain, now: Self.now, localTime: Self.clock)
                == "Light rain starting in about 10 min, easing off around 13:35.")
        let lasting = Self.summary([0, 0, 0, 0, 0, 3, 4, 6, 12, 9, 8, 7])
        #expect(lasting.state == .starting)
        #expect(lasting.endsAt == nil, "still falling at the end of the window")
        #expect(lasting.category == .heavy)
        #expect(
            lasting.sentence(kind: nil, now: Self.now, localTime: Self.clock)
                == "Heavy precipitation starting in about 25 min.")
    }

    @Test("ongoing all hour; stopping within it")
    func ongoingAndStopping() {
        let ongoing = Self.summary(Array(repeating: 3.0, count: 12))
        #expect(ongoing.state == .ongoing)
        #expect(ongoing.startsAt == nil && ongoing.endsAt == nil)
        #expect(
            ongoing.sentence(kind: .snow, now: Self.now, localTime: Self.clock)
                == "Moderate snow continuing for the next hour.")
        let stopping = Self.summary([1, 1, 0.5, 0.2, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(stopping.state == .stopping)
        #expect(stopping.endsAt == Self.at(minutes: 20))
        #expect(
            stopping.sentence(kind: .rain, now: Self.now, localTime: Self.clock)
                == "Light rain stopping in about 20 min.")
    }

    @Test("intermittent: spells apart by 10 minutes or more; a shorter gap is bridged")
    func intermittent() {
        let apart = Self.summary([0, 0.5, 0, 0, 0, 0.6, 0.7, 0, 0, 0, 0, 0])
        #expect(apart.state == .intermittent)
        #expect(apart.startsAt == Self.at(minutes: 5))
        #expect(apart.endsAt == Self.at(minutes: 35))
        #expect(
            apart.sentence(kind: .rain, now: Self.now, localTime: Self.clock)
                == "Light rain on and off, starting in about 5 min.")
        let fromNow = Self.summary([0.5, 0, 0, 0.6, 0, 0, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7])
        #expect(fromNow.state == .intermittent)
        #expect(fromNow.startsAt == nil)
        #expect(
            fromNow.sentence(kind: .sleet, now: Self.now, localTime: Self.clock)
                == "Light sleet on and off for the next hour.")
        let bridged = Self.summary([0, 0, 0.5, 0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5])
        #expect(bridged.state == .starting, "one dry 5-minute step is bridged")
    }

    @Test("the steps ahead: from the one holding now, up to the horizon")
    func ahead() {
        let nowcast = Nowcast(
            source: .metNorway, resolutionMinutes: 5, steps: Self.steps(Array(repeating: 0, count: 24)))
        let ahead = nowcast.ahead(of: Self.at(minutes: 7), horizonMinutes: 60)
        #expect(ahead.first?.time == Self.at(minutes: 5))
        #expect(ahead.last?.time == Self.at(minutes: 65))
        #expect(ahead.count == 13)
    }

    @Test(
        "WMO intensity classes by rate",
        arguments: [
            (0.1, "light"), (2.49, "light"), (2.5, "moderate"), (9.9, "moderate"), (10, "heavy"), (60, "heavy"),
        ])
    func classes(rate: Double, name: String) {
        #expect(PrecipitationIntensity(rate: rate).rawValue == name)
    }

    @Test("about: exact below 10 minutes, else to the nearest 5")
    func about() {
        #expect(NowcastSummary.about(Self.at(minutes: 7), Self.now) == "about 7 min")
        #expect(NowcastSummary.about(Self.at(minutes: 12), Self.now) == "about 10 min")
        #expect(NowcastSummary.about(Self.at(minutes: 13), Self.now) == "about 15 min")
        #expect(NowcastSummary.about(Self.now, Self.now) == "about 1 min")
    }
}
