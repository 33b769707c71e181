import Testing
import WeatherDomain
import WeatherTesting

/// Every figure of the ensemble spread, checked against a direct computation of its definition.
@Suite("The ensemble's spread: percentiles, days, hours and labels, against direct computations")
struct ConfidenceStatisticsTests {
    /// Percentile `p` by its definition, written out: the values sorted, rank `(n − 1)p`, the two order statistics
    /// around it weighted by the rank's fraction.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        let rank = Double(sorted.count - 1) * p
        let below = Int(rank)
        let above = below + 1 < sorted.count ? below + 1 : below
        let weight = rank - Double(below)
        return sorted[below] * (1 - weight) + sorted[above] * weight
    }

    static func expectSpread(_ spread: Spread?, of values: [Double], _ comment: Comment) {
        #expect(spread != nil, comment)
        let found = [spread?.p10, spread?.p25, spread?.p50, spread?.p75, spread?.p90]
        for (value, p) in zip(found, Spread.levels) {
            #expect(abs((value ?? .nan) - percentile(values, p)) < 1e-9, comment)
        }
    }

    @Test("percentiles interpolate linearly between order statistics; one member is all five; none is nil")
    func percentiles() {
        let five = Spread(of: [5, 1, 4, 2, 3])
        #expect(five == Spread(p10: 1.4, p25: 2, p50: 3, p75: 4, p90: 4.6))
        #expect(Spread(of: [7.5]) == Spread(p10: 7.5, p25: 7.5, p50: 7.5, p75: 7.5, p90: 7.5))
        #expect(Spread(of: [2, 4])?.p50 == 3, "two members: their mean is the median")
        #expect(Spread(of: []) == nil)
        var random = SeededGenerator(state: 39)
        for count in [1, 2, 3, 10, 31, 51] {
            let values = (0..<count).map { _ in Double.random(in: -20...35, using: &random) }
            Self.expectSpread(Spread(of: values), of: values, "\(count) values")
        }
    }

    /// Berlin's clocks, UTC+1, from local midnight of 2026-11-22 (23:00 UTC the day before).
    static let zone = ZoneOffsets.fixed(3600)
    static let midnight = Timestamp(milliseconds: 1_795_302_000_000)

    /// `days` days of hours from `midnight`.
    static func hours(_ days: Int) -> [Timestamp] {
        (0..<(days * 24)).map { Timestamp(milliseconds: midnight.milliseconds + Int64($0) * 3_600_000) }
    }

    /// An ensemble with ragged horizons: `count` members, member `m` reaching `reach(m)` hours, a few nulls
    /// inside, precipitation that is wet for some members on some days.
    static func members(_ count: Int, hours: Int, seed: UInt64, reach: (Int) -> Int) -> [MemberSeries] {
        var random = SeededGenerator(state: seed)
        return (0..<count).map { member in
            let horizon = reach(member)
            var temperature: [Double?] = (0..<hours).map { hour in
                hour < horizon ? 5 + Double(hour % 24) / 3 + Double.random(in: -4...4, using: &random) : nil
            }
            var precipitation: [Double?] = (0..<hours).map { hour in
                guard hour < horizon else { return nil }
                return Double.random(in: 0...1, using: &random) < 0.1 ? Double.random(in: 0...2, using: &random) : 0
            }
            // A null member at a few steps inside its horizon: left out there, not read as zero.
            for hour in stride(from: member % 7, to: min(horizon, hours), by: 37) {
                temperature[hour] = nil
                precipitation[hour] = nil
            }
            return MemberSeries(
                name: member == 0 ? "control" : "member\(member)", temperature: temperature,
                precipitation: precipitation)
        }
    }

    /// A day of the spread by its definition: each member's values on the date's hours, counted when they reach
    /// each of the four quarters.
    static func expectedDay(_ date: String, times: [Timestamp], members: [MemberSeries]) -> (
        highs: [Double], lows: [Double], totals: [Double]
    ) {
        let indices = times.indices.filter { LocalDate.string(times[$0], zone: zone) == date }
        var (highs, lows, totals) = ([Double](), [Double](), [Double]())
        for member in members {
            let temperatures = indices.compactMap { member.temperature[$0] }
            let withTemperature = indices.filter { member.temperature[$0] != nil }
            let quarters = Set(withTemperature.map { (times[$0].milliseconds + 3_600_000) % 86_400_000 / 21_600_000 })
            if quarters.count == 4 {
                highs.append(temperatures.max() ?? .nan)
                lows.append(temperatures.min() ?? .nan)
            }
            let withAmount = indices.filter { member.precipitation[$0] != nil }
            let wetQuarters = Set(withAmount.map { (times[$0].milliseconds + 3_600_000) % 86_400_000 / 21_600_000 })
            if wetQuarters.count == 4 { totals.append(withAmount.map { member.precipitation[$0] ?? 0 }.reduce(0, +)) }
        }
        return (highs, lows, totals)
    }

    @Test("ragged horizons and null members: each day and hour counts its members, days past the horizon are absent")
    func raggedMembers() throws {
        let times = Self.hours(16)
        // The control and most members reach 15 days; some stop after 10 days and 6 hours (day 11 half-covered),
        // one after 3 days.
        let members = Self.members(51, hours: times.count, seed: 7) { member in
            member == 50 ? 72 : member % 9 == 4 ? 10 * 24 + 6 : 15 * 24
        }
        let now = Timestamp(milliseconds: Self.midnight.milliseconds + 9 * 3_600_000 + 1_800_000)
        let summary = EnsembleSummary.ofMembers(
            model: "ecmwf_ifs025", times: times, members: members, zone: Self.zone, timezone: "Europe/Berlin",
            utcOffsetSeconds: 3600, now: now)
        #expect(summary.days.count == 15, "day 16 lies past every member's horizon: absent, not zero")
        #expect(summary.members == 51)
        for day in summary.days {
            let (highs, lows, totals) = Self.expectedDay(day.date, times: times, members: members)
            #expect(day.members == highs.count, "\(day.date)")
            Self.expectSpread(day.high, of: highs, "\(day.date) high")
            Self.expectSpread(day.low, of: lows, "\(day.date) low")
            Self.expectSpread(day.precipitation, of: totals, "\(day.date) precipitation")
            #expect(day.precipitationMembers == totals.count)
            let wet = Double(totals.filter { $0 >= 0.1 }.count) / Double(totals.count)
            #expect(abs((day.wet ?? .nan) - wet) < 1e-12, "\(day.date)")
        }
        let counts = summary.days.map { $0.members ?? 0 }
        #expect(
            counts.first == 51 && counts[3] == 50 && counts[10] < counts[9], "the ragged horizons show in the counts")
        // The hours: from the one running at 09:30 on, 54 kept, each counting its non-null members.
        #expect(summary.hours.count == EnsembleSummary.keptHours)
        #expect(summary.hours.first?.time == times[9])
        for hour in summary.hours {
            let index = try #require(times.firstIndex(of: hour.time))
            let values = members.compactMap { $0.temperature[index] }
            #expect(hour.members == values.count)
            Self.expectSpread(hour.temperature, of: values, "\(hour.time)")
            let amounts = members.compactMap { $0.precipitation[index] }
            #expect(
                abs((hour.wet ?? .nan) - Double(amounts.filter { $0 >= 0.1 }.count) / Double(amounts.count)) < 1e-12)
        }
        #expect(summary.hours.contains { ($0.members ?? 0) < 50 }, "a null member is left out of its hour")
    }

    @Test("a one-member ensemble: every percentile is its value, and the day has no label")
    func oneMember() throws {
        let times = Self.hours(2)
        let member = MemberSeries(
            name: "control", temperature: times.indices.map { Double($0) / 2 },
            precipitation: times.indices.map { $0 == 30 ? 0.4 : 0 })
        let summary = EnsembleSummary.ofMembers(
            model: "m", times: times, members: [member], zone: Self.zone, timezone: nil, utcOffsetSeconds: 3600,
            now: Self.midnight)
        #expect(summary.days.count == 2)
        let second = try #require(summary.days.last)
        #expect(second.high == Spread(p10: 23.5, p25: 23.5, p50: 23.5, p75: 23.5, p90: 23.5))
        #expect(second.low == Spread(p10: 12, p25: 12, p50: 12, p75: 12, p90: 12))
        #expect(second.wet == 1 && second.members == 1)
        #expect(second.label == nil, "one member cannot show a spread")
        #expect(summary.days.first?.wet == 0)
    }

    @Test(
        "the labels follow their documented thresholds",
        arguments: [
            (2.0, 1.0, 0.1, 51, ConfidenceLabel.high), (3.0, 2.0, 0.9, 51, .high), (3.1, 2.0, 0.0, 51, .medium),
            (2.0, 5.9, 0.25, 51, .medium), (6.0, 1.0, 0.0, 51, .low), (1.0, 1.0, 0.5, 51, .low),
            (1.0, 1.0, 0.35, 51, .low), (1.0, 1.0, 0.3, 51, .medium), (1.0, 1.0, 0.1, 4, nil),
        ] as [(Double, Double, Double, Int, ConfidenceLabel?)])
    func labels(high: Double, low: Double, wet: Double, members: Int, label: ConfidenceLabel?) {
        let day = ConfidenceDay(
            date: "2026-11-22", members: members, high: Spread(p10: 10, p90: 10 + high), low: Spread(p10: 0, p90: low),
            wet: wet)
        #expect(day.label == label)
    }

    @Test("MET Norway's percentiles: a day's band from its steps' 10th and 90th, its hours as published")
    func publishedPercentiles() throws {
        // Hourly steps for two days, then 6-hourly: UTC+1.
        var steps: [PercentileStep] = []
        for hour in 0..<48 {
            let time = Timestamp(milliseconds: Self.midnight.milliseconds + Int64(hour) * 3_600_000)
            steps.append(
                PercentileStep(
                    time: time, hours: 1, temperature10: Double(hour % 24) / 2,
                    temperature90: Double(hour % 24) / 2 + 2,
                    precipitationMin: 0, precipitationMax: hour == 13 ? 1.5 : 0.1, probability: hour == 13 ? 0.6 : 0.05)
            )
        }
        for six in 0..<4 {
            let time = Timestamp(milliseconds: Self.midnight.milliseconds + Int64(48 + six * 6) * 3_600_000)
            steps.append(
                PercentileStep(time: time, hours: 6, temperature10: Double(six), temperature90: Double(six) + 5))
        }
        let summary = EnsembleSummary.ofPercentiles(
            model: "met-norway", steps: steps, zone: Self.zone, timezone: "Europe/Berlin", utcOffsetSeconds: 3600,
            now: Self.midnight)
        #expect(summary.days.count == 3)
        let first = try #require(summary.days.first)
        #expect(first.high == Spread(p10: 11.5, p90: 13.5) && first.low == Spread(p10: 0, p90: 2))
        #expect(first.precipitation?.p10 == 0)
        #expect(abs((first.precipitation?.p90 ?? .nan) - (0.1 * 23 + 1.5)) < 1e-9)
        #expect(first.wet == 0.6 && first.members == nil)
        let third = try #require(summary.days.last)
        #expect(third.high == Spread(p10: 3, p90: 8) && third.precipitation == nil, "no precipitation figures")
        #expect(summary.hours.count == 48, "the hourly steps only")
        #expect(summary.hours[13].temperature == Spread(p10: 6.5, p90: 8.5) && summary.hours[13].wet == 0.6)
    }

    @Test("an event's spread reads back as written, and a compacted one reads with no days or hours")
    func eventRoundTrip() throws {
        let times = Self.hours(3)
        let series = Self.members(5, hours: times.count, seed: 3) { _ in 72 }
        let summary = EnsembleSummary.ofMembers(
            model: "gfs025", times: times, members: series, zone: Self.zone, timezone: "Europe/Berlin",
            utcOffsetSeconds: 3600, now: Self.midnight)
        let call = UpstreamCall(
            provider: "open-meteo", url: "http://ensemble.test/v1/ensemble", status: 200, latencyMs: 10, bytes: 99,
            attempt: 1, at: Self.midnight)
        let event = EnsembleFetched(key: "52.52,13.41", summary: summary, call: call)
        #expect(try EnsembleFetched(json: event.json) == event)
        #expect(event.entry == "gfs025|52.52,13.41")
        var members = try #require(event.json.objectValue)
        members["days"] = nil
        members["hours"] = nil
        let digest = JSONValue.string(String(repeating: "0", count: 64))
        members["compacted"] = .object(["bytes": .int(99), "members": ["days", "hours"], "sha256": digest])
        let stripped = try EnsembleFetched(json: .object(members))
        #expect(stripped.summary.days.isEmpty && stripped.summary.hours.isEmpty && stripped.entry == event.entry)
    }
}
