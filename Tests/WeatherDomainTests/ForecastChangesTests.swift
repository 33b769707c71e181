import Testing
import WeatherDomain

@Suite("Forecast changes: how one date's forecast moved from fetch to fetch")
struct ForecastChangesTests {
    static func revision(_ hour: Int64, low: Double, high: Double, pop: Double?, code: Int64 = 3) -> ForecastRevision {
        ForecastRevision(
            fetchedAt: Timestamp(milliseconds: 1_795_348_800_000 + hour * 3_600_000),
            day: DailySummary(date: "2026-11-28", min: low, max: high, pop: pop, condition: .wmo(code)))
    }

    static let metric = UnitChoice(system: .metric)
    static let imperial = UnitChoice(system: .imperial)

    @Test("the changes between consecutive fetches, a fetch that changed nothing left out")
    func changes() throws {
        let revisions = [
            Self.revision(0, low: 4, high: 14, pop: 0.2), Self.revision(6, low: 4, high: 14, pop: 0.2),
            Self.revision(12, low: 3, high: 11, pop: 0.5, code: 61),
            Self.revision(24, low: 2.5, high: 9, pop: 0.7, code: 61),
        ]
        let changes = ForecastChanges.changes(revisions)
        #expect(changes.count == 2)
        let first = try #require(changes.first)
        #expect(first.fetchedAt == revisions[2].fetchedAt)
        #expect(first.high == -3 && first.low == -1)
        #expect(abs((first.pop ?? 0) - 0.3) < 1e-9)
        #expect(first.conditionWas == .wmo(3))
        #expect(changes.last?.conditionWas == nil, "rain both times")
        #expect(changes.last?.precipitation == nil, "neither fetch gave an amount")
        #expect(
            ForecastChanges.summary(revisions, day: "Saturday", since: "Thursday", units: Self.metric)
                == "Saturday's high has dropped from 14 °C to 9 °C since Thursday; its low has dropped from 4 °C to "
                + "2.5 °C; rain chance up from 20 % to 70 %.")
        #expect(
            ForecastChanges.summary(revisions, day: "Saturday", since: "Thursday", units: Self.imperial)
                == "Saturday's high has dropped from 57.2 °F to 48.2 °F since Thursday; its low has dropped from "
                + "39.2 °F to 36.5 °F; rain chance up from 20 % to 70 %.")
    }

    @Test("small moves are steady; one revision is no summary")
    func steady() {
        let revisions = [
            Self.revision(0, low: 4, high: 14, pop: 0.2), Self.revision(6, low: 4.4, high: 13.5, pop: 0.25),
        ]
        #expect(
            ForecastChanges.summary(revisions, day: "Saturday", since: "this morning", units: Self.metric)
                == "Saturday's forecast has held steady since this morning.")
        #expect(ForecastChanges.summary([revisions[0]], day: "Saturday", since: "now", units: Self.metric) == nil)
        let rising = [Self.revision(0, low: 4, high: 14, pop: 0.6), Self.revision(6, low: 4, high: 16, pop: 0.2)]
        #expect(
            ForecastChanges.summary(rising, day: "Sunday", since: "Friday", units: Self.metric)
                == "Sunday's high has risen from 14 °C to 16 °C since Friday; rain chance down from 60 % to 20 %.")
    }

    @Test(
        "weekday names",
        arguments: [
            ("1970-01-01", "Thursday"), ("2026-11-28", "Saturday"), ("2000-02-29", "Tuesday"),
            ("1953-01-31", "Saturday"),
        ])
    func weekdays(date: String, name: String) {
        #expect(ForecastChanges.weekday(of: date) == name)
    }
}
