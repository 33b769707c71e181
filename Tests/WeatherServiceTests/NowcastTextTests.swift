import Testing
import WeatherDomain

@testable import WeatherCLI

@Suite("The nowcast for people: sparkline, %N, and the bars' rain-soon class")
struct NowcastTextTests {
    static let noon = BarTests.noon

    /// A `weather/nowcast` answer of 5-minute steps at `rates` (mm/h) from noon, summarized as `state`.
    static func answer(
        _ rates: [Double], state: String, startsAt: Int64? = nil, endsAt: Int64? = nil, units: String = "mm/h"
    ) -> JSONValue {
        var summary: [String: JSONValue] = [
            "state": .string(state), "precipitation": "rain",
            "sentence": "Light rain starting in about 10 min, easing off around 13:40.",
        ]
        if let startsAt { summary["startsAt"] = .string(BarTests.at(minutes: startsAt).description) }
        if let endsAt { summary["endsAt"] = .string(BarTests.at(minutes: endsAt).description) }
        return [
            "covered": true, "resolution": 5, "units": ["intensity": .string(units)], "summary": .object(summary),
            "steps": .array(
                rates.enumerated().map { index, rate in
                    [
                        "time": .string(BarTests.at(minutes: Int64(index) * 5).description),
                        "intensity": .double(rate),
                    ]
                }),
        ]
    }

    @Test("one bar per step of the hour: · dry, then heights on the WMO classes' scale, in either unit")
    func sparkline() {
        let rates: [Double] = [0, 0.05, 0.3, 0.8, 2, 4, 8, 15, 30, 60, 0, 0, 9, 9]
        #expect(NowcastText.sparkline(Self.answer(rates, state: "intermittent"), minutes: 60) == "··▁▂▃▄▅▆▇█··")
        let inches = rates.map { $0 / 25.4 }
        #expect(
            NowcastText.sparkline(Self.answer(inches, state: "intermittent", units: "in/h"), minutes: 60)
                == "··▁▂▃▄▅▆▇█··")
    }

    @Test("%N: rain in 12 min, ends in, on and off, no rain; ? where no source serves the place")
    func short() throws {
        #expect(
            NowcastText.short(Self.answer([0, 0, 1], state: "starting", startsAt: 12), now: Self.noon)
                == "rain in 12 min")
        #expect(
            NowcastText.short(Self.answer([1], state: "stopping", endsAt: 25), now: Self.noon) == "rain ends in 25 min")
        #expect(NowcastText.short(Self.answer([1], state: "ongoing"), now: Self.noon) == "rain for 1 h+")
        #expect(
            NowcastText.short(Self.answer([0, 1, 0, 1], state: "intermittent"), now: Self.noon) == "rain on and off")
        #expect(NowcastText.short(Self.answer([0], state: "dry"), now: Self.noon) == "no rain")
        let line = try OneLine("%t, %N").render(
            current: BarTests.current(), forecast: nil, nowcast: ["covered": false], now: Self.noon)
        #expect(line == "+4°C, ?")
        let rainy = try OneLine("%t, %N").render(
            current: BarTests.current(), forecast: nil,
            nowcast: Self.answer([0, 0, 1], state: "starting", startsAt: 12), now: Self.noon)
        #expect(rainy == "+4°C, rain in 12 min")
    }

    @Test("waybar: rain-soon when rain starts within 30 minutes, and the tooltip leads with the next hour")
    func bar() throws {
        var machine = try BarTests.machine(.waybar)
        let soon = Self.answer([0, 0, 1.2, 1.2], state: "starting", startsAt: 10, endsAt: 20)
        let actions = machine.answered(
            current: BarTests.current(), forecast: BarTests.forecast, nowcast: soon, now: Self.noon)
        guard case .print(let line) = actions.first else {
            Issue.record("no line printed: \(actions)")
            return
        }
        let printed = try JSONValue.parse(Array(line.utf8))
        #expect(printed["class"] == ["cloudy", "rain-soon"])
        let tooltip = printed["tooltip"]?.stringValue ?? ""
        #expect(
            tooltip.split(separator: "\n").dropFirst().first
                == "··▃▃  Light rain starting in about 10 min, easing off around 13:40.")

        var later = try BarTests.machine(.waybar)
        let late = Self.answer([0, 0, 0, 0, 0, 0, 0, 1.2], state: "starting", startsAt: 35)
        guard
            case .print(let quiet) = later.answered(
                current: BarTests.current(), forecast: BarTests.forecast, nowcast: late, now: Self.noon
            ).first
        else {
            Issue.record("no line printed")
            return
        }
        #expect(try JSONValue.parse(Array(quiet.utf8))["class"] == ["cloudy"], "35 minutes away is not soon")
    }
}
