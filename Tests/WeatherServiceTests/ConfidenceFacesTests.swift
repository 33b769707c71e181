import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@testable import WeatherCLI

/// The faces of how sure the forecast is: the commands' tables, the forecast's `±` column, the chart's band, the
/// bar's tooltip, the alert's note and the MCP texts, each from typed answers or the answers' JSON.
@Suite("How sure the forecast is, in every face")
struct ConfidenceFacesTests {
    static let plain = Output(isTerminal: false, environment: [:]) { _, _ in true }

    @Test("weatherd confidence: a row per day with the 10–90 % ranges, medians, wet share and label")
    func confidenceTable() async throws {
        let network = ConfidenceFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(ConfidenceFixture.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            var params = ConfidenceFixture.berlin
            params["days"] = 2
            let result = try await service.result("weather/confidence", .object(params))
            let text = ConfidenceCommand.text(result, hourly: false, Self.plain)
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines.first?.contains("ecmwf_ifs025 ensemble, 51 members · fetched ") == true, "\(lines)")
            #expect(lines[1].hasPrefix("day ") && lines[1].hasSuffix("confidence"))
            // Day 1 directly: highs 23/3 + m/5 (10th 8.67, median 12.67, 90th 16.67), lows m/5 (1, 5, 9).
            #expect(
                lines[2].contains("9…17°C") && lines[2].contains("13°C") && lines[2].contains("1…9°C"), "\(lines[2])")
            #expect(lines[2].contains("51%") && lines[2].hasSuffix("low"), "\(lines[2])")
            #expect(lines.count == 5)
            #expect(lines.last == "percentiles of the members: their spread, not a calibrated probability")
            let hourly = ConfidenceCommand.text(result, hourly: true, Self.plain).split(separator: "\n")
            #expect(hourly.count == 48 + 3, "the heading, the column names, 48 hours and the note")
        }
    }

    @Test("weatherd forecast: a ± column of half the 10–90 % range of the highs, only when the days carry it")
    func plusMinus() throws {
        let day = { (date: String, spread: JSONValue?) -> JSONValue in
            var object: [String: JSONValue] = [
                "date": .string(date), "min": 1, "max": 9, "condition": ["code": 3, "text": "overcast"],
            ]
            if let spread { object["spread"] = spread }
            return .object(object)
        }
        let forecast: JSONValue = [
            "location": ["name": "Berlin", "utcOffsetSeconds": 3600], "units": ["temperature": "°C"],
            "fetchedAt": "2026-11-22T09:30:00.000Z",
            "daily": [
                day(
                    "2026-11-22", ["high": ["p10": 7.2, "p90": 11.9], "low": ["p10": 0, "p90": 2], "label": "medium"]),
                day("2026-11-23", nil),
            ],
        ]
        let rows = ForecastPage(forecast).days(Self.plain).split(separator: "\n").map(String.init)
        #expect(rows[0].contains("  ±  ") || rows[0].contains("  ±"), "\(rows[0])")
        #expect(rows[1].contains("±2°"), "(11.9 − 7.2) / 2 = 2.35, whole degrees: \(rows[1])")
        #expect(!rows[2].contains("±"))
        #expect(ForecastPage.plusMinus(["p10": 280, "p90": 284.2], unit: "K") == "±2 K")
        let plain: JSONValue = [
            "location": ["name": "Berlin", "utcOffsetSeconds": 3600], "units": ["temperature": "°C"],
            "fetchedAt": "2026-11-22T09:30:00.000Z", "daily": [day("2026-11-22", nil)],
        ]
        #expect(!ForecastPage(plain).days(Self.plain).contains("±"), "no spread, no column")
    }

    @Test("weatherd chart: the 10–90 % band around the hourly temperatures and behind the later days, in the key")
    func chartBand() throws {
        let hours: [JSONValue] = (0..<6).map { index in
            [
                "time": .string(Timestamp(milliseconds: 1_746_878_400_000 + Int64(index) * 3_600_000).description),
                "temperature": .double(Double(index)),
                "spread": ["p10": .double(Double(index) - 1), "p90": .double(Double(index) + 15)],
            ]
        }
        let forecast = ChartTests.forecast(
            count: 8,
            daily: [
                ["date": "2025-05-10", "min": 1, "max": 9], ["date": "2025-05-11", "min": 2, "max": 10],
                ["date": "2025-05-12", "min": -4, "max": 3, "spread": ["low": ["p10": -9], "high": ["p90": 30]]],
            ])
        let input = Chart.Input(forecast, hourly: ["entries": .array(hours)])
        #expect(input.hasSpread)
        #expect(input.steps.prefix(6).map(\.high) == (0..<6).map { Double($0) + 15 })
        let axis = Chart.ValueAxis.temperature(input)
        #expect(axis.high >= 30 && axis.low <= -9, "the band fits in the plot")
        let root = try ChartTests.checkDocument(Chart.svg(forecast, hourly: ["entries": .array(hours)]))
        let band = root.elements(named: "g").filter { $0.attributes["fill-opacity"] == Chart.spreadOpacity }
        #expect(band.count == 1)
        let shapes = band.flatMap(\.children)
        #expect(shapes.filter { $0.name == "path" }.count == 1, "one band through the six hours")
        #expect(shapes.filter { $0.name == "rect" }.count == 1, "one bar behind the 12th")
        #expect(ChartTests.texts(root).contains("10–90 %"))
        #expect(root.elements(named: "desc").first?.text.contains("10–90 % of the ensemble -9° to 30°") == true)
        let without = try ChartTests.checkDocument(Chart.svg(ChartTests.forecast(count: 8)))
        #expect(without.elements(named: "g").allSatisfy { $0.attributes["fill-opacity"] != Chart.spreadOpacity })
        #expect(!ChartTests.texts(without).contains("10–90 %"))
    }

    @Test("the forecast_change alert says when the new forecast is of low confidence, in every reader's units")
    func lowConfidenceAlert() throws {
        var settings = AlertSettings()
        settings.forecastChange = true
        var state = AlertState()
        state.apply(.alertsConfigured(settings))
        let place = Place(name: "Berlin", country: "DE", state: nil, lat: 52.52, lon: 13.41)
        let told = ForecastRevision(
            fetchedAt: Timestamp(milliseconds: 1_795_348_800_000),
            day: DailySummary(date: "2026-11-24", min: 4, max: 14, pop: 0.2, condition: .wmo(3)))
        let new = DailySummary(date: "2026-11-24", min: 2, max: 9, pop: 0.7, condition: .wmo(61))
        let decide = { (low: Set<String>) in
            ForecastChangeAlerts.decide(
                state, target: AlertTarget(place: place, favoriteId: nil), days: [new],
                fetchedAt: Timestamp(milliseconds: 1_795_348_800_000 + 86_400_000), baselines: ["2026-11-24": told],
                today: "2026-11-23", zone: .fixed(3600), now: Timestamp(milliseconds: 1_795_348_800_000 + 86_400_000),
                lowConfidence: low)
        }
        guard case .alertRaised(let alert)? = decide(["2026-11-24"]).first else {
            Issue.record("no alert raised")
            return
        }
        #expect(alert.details["confidence"] == "low")
        #expect(alert.message.hasSuffix(" " + ForecastChangeAlerts.lowConfidenceNote), "\(alert.message)")
        let imperial = AlertText.message(of: alert, in: UnitChoice(system: .imperial))
        #expect(imperial.contains("°F") && imperial.hasSuffix(ForecastChangeAlerts.lowConfidenceNote), "\(imperial)")
        guard case .alertRaised(let sure)? = decide([]).first else {
            Issue.record("no alert raised")
            return
        }
        #expect(sure.details["confidence"] == nil && !sure.message.contains("confidence"))
    }

    @Test("the bar's tooltip gives each day's label once the forecast carries it")
    func tooltip() throws {
        let current: JSONValue = [
            "location": ["name": "Berlin"], "current": ["temperature": 5, "condition": ["code": 3]],
            "units": ["temperature": "°C"], "fetchedAt": "2026-11-22T09:30:00.000Z",
        ]
        let forecast: JSONValue = [
            "location": ["name": "Berlin", "utcOffsetSeconds": 3600], "units": ["temperature": "°C"],
            "fetchedAt": "2026-11-22T09:30:00.000Z", "entries": [],
            "daily": [
                ["date": "2026-11-22", "min": 1, "max": 9, "condition": ["code": 3], "spread": ["label": "low"]],
                ["date": "2026-11-23", "min": 2, "max": 8, "condition": ["code": 3]],
            ],
        ]
        let view = BarView(
            style: .waybar, format: try OneLine("%t"), current: current, forecast: forecast, alerts: [],
            unreachable: false, now: Timestamp(milliseconds: 1_795_339_800_000))
        let lines = view.tooltip.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("low confidence") })
        #expect(lines.filter { $0.contains("confidence") }.count == 1)
    }
}
