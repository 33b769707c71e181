import Testing
import WeatherDomain
import WeatherTesting

/// Verification's figures and the agreement of models, against direct computations of their definitions.
@Suite("Verification and model agreement, against direct computations")
struct VerificationTests {
    static let start = "2026-01-01"

    static func date(_ offset: Int64) -> String { LocalDate.adding(offset, to: start) ?? start }

    static func fetchedAt(_ issued: Int64, hour: Int64) -> Timestamp {
        Timestamp(
            milliseconds: (LocalDate.start(of: date(issued), zone: .fixed(0))?.milliseconds ?? 0) + hour * 3_600_000)
    }

    /// A year of forecasts from two providers, fetched three times a day (only the day's last counts), each of the
    /// next eight days with seeded errors; the first provider's pops, the second's amounts only.
    static func forecasts() -> [IssuedForecast] {
        var random = SeededGenerator(state: 2026)
        var forecasts: [IssuedForecast] = []
        for issued in Int64(0)..<120 {
            for provider in ["open-meteo", "openweathermap"] {
                for hour: Int64 in [6, 12, 18] {
                    let days = (0..<Int64(8)).map { lead in
                        DailySummary(
                            date: date(issued + lead),
                            min: truth(issued + lead).low + Double.random(in: -3...3, using: &random),
                            max: truth(issued + lead).high + Double.random(in: -2...3, using: &random),
                            precipitation: provider == "open-meteo" ? nil : Double.random(in: 0...3, using: &random),
                            pop: provider == "open-meteo" ? Double.random(in: 0...1, using: &random) : nil,
                            condition: .wmo(3))
                    }
                    forecasts.append(
                        IssuedForecast(
                            fetchedAt: fetchedAt(issued, hour: hour), provider: provider, issuedOn: date(issued),
                            days: days))
                }
            }
        }
        return forecasts
    }

    static func truth(_ day: Int64) -> (low: Double, high: Double, rain: Double) {
        (Double(day % 9) - 2, Double(day % 9) + 6 + Double(day % 4), Double((day * 7) % 5) * 0.6)
    }

    /// What happened: ERA5 for the first 100 days but a few, the log's readings (no precipitation) for 100…109,
    /// nothing yet after.
    static func observed() -> [String: ObservedDay] {
        var days: [String: ObservedDay] = [:]
        for day in Int64(0)..<110 where day % 17 != 5 {
            let truth = truth(day)
            days[date(day)] = ObservedDay(
                date: date(day), high: truth.high, low: truth.low, precipitation: day < 100 ? truth.rain : nil,
                source: day < 100 ? .era5 : .log)
        }
        return days
    }

    @Test(
        "MAE, bias, hit rate and Brier score per provider and lead: the last forecast of each issue date, observed days only"
    )
    func scores() throws {
        let forecasts = Self.forecasts()
        let observed = Self.observed()
        let scores = Verification.scores(forecasts, observed: observed)
        #expect(scores.map(\.provider) == ["open-meteo", "openweathermap"])
        for score in scores {
            // The last fetch of each issue date, by definition.
            let last = Dictionary(grouping: forecasts.filter { $0.provider == score.provider }, by: \.issuedOn)
                .compactMapValues { $0.max { $0.fetchedAt < $1.fetchedAt } }
            #expect(score.leads.map(\.lead) == Array(1...7))
            for lead in score.leads {
                var (highs, lows, briers, wet, hits, outcomes) = ([Double](), [Double](), 0.0, 0, 0, 0)
                for (issuedOn, forecast) in last {
                    let target = LocalDate.adding(Int64(lead.lead), to: issuedOn) ?? ""
                    guard let day = forecast.days.first(where: { $0.date == target }), let seen = observed[target]
                    else { continue }
                    highs.append(day.max - (seen.high ?? .nan))
                    lows.append(day.min - (seen.low ?? .nan))
                    guard let rain = seen.precipitation else { continue }
                    let chance = day.pop ?? ((day.precipitation ?? 0) >= 1 ? 1 : 0)
                    let isWet = rain >= 1
                    outcomes += 1
                    briers += (chance - (isWet ? 1 : 0)) * (chance - (isWet ? 1 : 0))
                    if isWet {
                        wet += 1
                        if chance >= 0.5 { hits += 1 }
                    }
                }
                let count = Double(highs.count)
                #expect(lead.high.count == highs.count && lead.low.count == lows.count)
                #expect(highs.count > 80, "most of the 110 observed days at each lead")
                #expect(abs((lead.high.meanAbsoluteError ?? .nan) - highs.map { abs($0) }.reduce(0, +) / count) < 1e-9)
                #expect(abs((lead.high.bias ?? .nan) - highs.reduce(0, +) / count) < 1e-9)
                #expect(abs((lead.low.meanAbsoluteError ?? .nan) - lows.map { abs($0) }.reduce(0, +) / count) < 1e-9)
                #expect(abs((lead.low.bias ?? .nan) - lows.reduce(0, +) / count) < 1e-9)
                #expect(lead.wet.days == outcomes && lead.wet.wetDays == wet && lead.wet.hits == hits)
                #expect(abs((lead.wet.brier ?? .nan) - briers / Double(outcomes)) < 1e-9)
                #expect(abs((lead.wet.hitRate ?? .nan) - Double(hits) / Double(wet)) < 1e-9)
            }
        }
    }

    @Test("no figure below the stated minimums: 9 days give counts alone, 10 give figures; 4 wet days no hit rate")
    func minimums() throws {
        let forecasts = (Int64(0)..<10).map { issued in
            IssuedForecast(
                fetchedAt: Self.fetchedAt(issued, hour: 6), provider: "open-meteo", issuedOn: Self.date(issued),
                days: [
                    DailySummary(date: Self.date(issued + 1), min: 1, max: 11, pop: 0.8, condition: .wmo(61))
                ])
        }
        var observed: [String: ObservedDay] = [:]
        for day in Int64(1)...10 {
            let rain: Double = day <= 4 ? 3 : 0
            observed[Self.date(day)] = ObservedDay(
                date: Self.date(day), high: 10, low: 2, precipitation: rain, source: .era5)
        }
        let nine = try #require(Verification.scores(Array(forecasts.prefix(9)), observed: observed).first?.leads.first)
        #expect(nine.high.count == 9 && nine.high.meanAbsoluteError == nil && nine.high.bias == nil)
        #expect(nine.wet.brier == nil)
        let ten = try #require(Verification.scores(forecasts, observed: observed).first?.leads.first)
        #expect(ten.high.count == 10 && ten.high.meanAbsoluteError == 1 && ten.high.bias == 1)
        #expect(ten.low.bias == -1)
        #expect(ten.wet.wetDays == 4 && ten.wet.hitRate == nil, "4 wet days are too few for a hit rate")
        let brier: Double = (4 * 0.2 * 0.2 + 6 * 0.8 * 0.8) / 10
        #expect(abs((ten.wet.brier ?? .nan) - brier) < 1e-12)
        #expect(ten.wet.hits == 4)
    }

    @Test("the log's readings observe a day only when they reach each of its four quarters; no precipitation")
    func readings() throws {
        let zone = ZoneOffsets.fixed(3600)
        let midnight = try #require(LocalDate.start(of: "2026-11-22", zone: zone))
        let at = { (hours: Double, temperature: Double) in
            Reading(
                at: Timestamp(milliseconds: midnight.milliseconds + Int64(hours * 3_600_000)), temperature: temperature)
        }
        let readings = [
            at(1, 2.5), at(7, 4), at(13, 9.5), at(19, 6),  // 22 November: every quarter
            at(25, 3), at(31, 5), at(37, 8),  // 23 November: no evening reading
        ]
        let days = Verification.observed(from: readings, zone: zone)
        #expect(days.count == 1)
        #expect(
            days["2026-11-22"] == ObservedDay(date: "2026-11-22", high: 9.5, low: 2.5, precipitation: nil, source: .log)
        )
    }

    @Test("the sentence names the day-3 highs in the reader's units, or says how much history there is")
    func sentence() throws {
        // 41 day-3 errors: 20 of +1.7425 °C, 21 of −22.55/21 °C: a mean absolute error of 1.4, a bias of +0.3.
        let errors = Array(repeating: 1.7425, count: 20) + Array(repeating: -22.55 / 21, count: 21)
        let forecasts = errors.enumerated().map { index, error in
            IssuedForecast(
                fetchedAt: Self.fetchedAt(Int64(index), hour: 6), provider: "open-meteo",
                issuedOn: Self.date(Int64(index)),
                days: [DailySummary(date: Self.date(Int64(index) + 3), min: 0, max: 10 + error, condition: .wmo(3))])
        }
        let observed = Dictionary(
            uniqueKeysWithValues: (Int64(3)..<44).map {
                (Self.date($0), ObservedDay(date: Self.date($0), high: 10, low: 0, precipitation: nil, source: .era5))
            })
        let scores = Verification.scores(forecasts, observed: observed)
        #expect(
            Verification.sentence(scores, units: UnitChoice(system: .metric))
                == "Open-Meteo's day-3 highs here were off by 1.4 °C on average over 41 days (too warm by 0.3 °C).")
        #expect(
            Verification.sentence(scores, units: UnitChoice(system: .imperial))
                == "Open-Meteo's day-3 highs here were off by 2.5 °F on average over 41 days (too warm by 0.5 °F).")
        let few = Verification.scores(Array(forecasts.prefix(4)), observed: observed)
        #expect(
            Verification.sentence(few, units: UnitChoice(system: .metric))
                == "Too little history here yet: at most 4 days of forecast highs verified at any one lead time; a "
                + "figure needs at least 10.")
        #expect(Verification.sentence([], units: UnitChoice(system: .metric)).hasPrefix("No forecast weatherd fetched"))
    }

    @Test("models: each figure's range, the model furthest from the others' means, the missing ones")
    func models() throws {
        let dates = ["2026-11-22", "2026-11-23"]
        let page = ModelsPage(
            models: ["ecmwf_ifs025", "gfs_seamless", "icon_seamless", "gem_seamless", "ukmo_seamless"], timezone: nil,
            utcOffsetSeconds: 3600, dates: dates,
            runs: [
                [
                    ModelDay(date: dates[0], high: 8, low: 1, precipitation: 0.5),
                    ModelDay(date: dates[1], high: 6, low: 0),
                ],
                [
                    ModelDay(date: dates[0], high: 12, low: 4, precipitation: 3),
                    ModelDay(date: dates[1], high: 7, low: 1),
                ],
                [ModelDay(date: dates[0], high: 9, low: 1.5), ModelDay(date: dates[1], high: nil, low: 0.5)],
                [
                    ModelDay(date: dates[0], high: 8.5, low: 0.5, precipitation: 0),
                    ModelDay(date: dates[1], high: 6.5, low: -1),
                ],
                [ModelDay(date: dates[0], high: nil, low: nil), ModelDay(date: dates[1], high: nil, low: nil)],
            ])
        let days = ModelComparison.days(page)
        let first = try #require(days.first)
        #expect(first.high == ComparedDay.Range(lowest: 8, highest: 12))
        #expect(first.low == ComparedDay.Range(lowest: 0.5, highest: 4))
        #expect(first.precipitation == ComparedDay.Range(lowest: 0, highest: 3))
        #expect(first.missing == ["ukmo_seamless"])
        // Directly: each complete model's distance from the others' mean high and low.
        let complete: [(String, Double, Double)] = [
            ("ecmwf_ifs025", 8, 1), ("gfs_seamless", 12, 4), ("icon_seamless", 9, 1.5), ("gem_seamless", 8.5, 0.5),
        ]
        let distances = complete.map { model in
            let others = complete.filter { $0.0 != model.0 }
            let high = others.map(\.1).reduce(0, +) / Double(others.count)
            let low = others.map(\.2).reduce(0, +) / Double(others.count)
            return (model.0, abs(model.1 - high) + abs(model.2 - low))
        }
        let furthest = try #require(distances.max { $0.1 < $1.1 })
        #expect(first.furthest == furthest.0 && abs((first.furthestBy ?? .nan) - furthest.1) < 1e-9)
        let second = try #require(days.last)
        #expect(second.missing == ["icon_seamless", "ukmo_seamless"], "a field missing counts, and so does the model")
        #expect(second.furthest != nil, "three models give both")
        #expect(throws: FieldError.self) { try ModelComparison.validate(["ecmwf_ifs025", "best_match"], path: "p") }
        #expect(throws: FieldError.self) { try ModelComparison.validate(["ecmwf_ifs025"], path: "p") }
        #expect(throws: FieldError.self) { try ModelComparison.validate(["a b", "gfs_seamless"], path: "p") }
        #expect(throws: FieldError.self) { try ModelComparison.validate(["gfs_seamless", "gfs_seamless"], path: "p") }
        try ModelComparison.validate(ModelComparison.defaultModels, path: "p")
        #expect(!ModelComparison.defaultModels.contains("best_match"))
    }
}
