import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@testable import WeatherCLI

@Suite("The anomaly in the faces: the forecast's normals, now's %A, forecast's column, the chart's band")
struct AnomalyTests {
    static let now = "2026-11-27T11:00:00Z"

    /// The archive page of every day since 1940 and Open-Meteo's weather; `failing` answers the weather with
    /// 500s.
    static func network(failing: Bool = false) throws -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route(
            "/v1/archive", query: "start_date=1940-01-01",
            InMemoryTransport.ok(try PastFixture.body(from: "1940-01-01", to: "2026-11-20", climate: true)))
        if failing {
            network.route("/v1/forecast", InMemoryTransport.status(500, #"{"reason":"down"}"#))
        } else {
            network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
            let observed = try OfficialFixture.time(now)
            network.route(
                "/v1/forecast", query: "current=",
                InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 9, time: observed)))
        }
        return network
    }

    /// The normal high of a local date, computed straight from the generated days, in °C or °F.
    static func normalHigh(_ date: String, fahrenheit: Bool = false) throws -> Double {
        let (_, month, day) = CivilDate.fromDays(try #require(LocalDate.dayNumber(of: date)))
        let celsius = PastTests.direct(month: Int(month), day: Int(day)).normalHigh
        return Rounding.round(fahrenheit ? celsius * 9 / 5 + 32 : celsius, decimals: 2)
    }

    /// `+3`, `-1`, `±0`: a difference as the faces print it, rounded here independently of them.
    static func signed(_ difference: Double) -> String {
        let whole = Int(difference.rounded())
        return whole == 0 ? "±0" : String(format: "%+d", whole)
    }

    static let plain = Output(isTerminal: false, environment: [:]) { _, _ in true }

    @Test("before the climate is cached nothing shows it and nothing fetches it; after, every face shows it")
    func faces() async throws {
        let network = try Self.network()
        let clock = ManualClock(start: try OfficialFixture.time(Self.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            let place = JSONValue.object(PastFixture.enschede)
            let current = try await service.result("weather/current", place)
            let before = try await service.result("weather/forecast", place)
            let days = try #require(before["daily"]?.arrayValue)
            #expect(!days.isEmpty && days.allSatisfy { $0["normal"] == nil })
            let format = try OneLine("%t %A|")
            #expect(format.needsForecast, "%A reads today's day of the forecast")
            #expect(format.render(current: current, forecast: before, now: clock.timestamp()) == "+9°C |")
            #expect(!ForecastPage(before).days(Self.plain).contains("vs normal"))
            #expect(!Chart.svg(before).contains("normal"))
            #expect(PastFixture.archiveCalls(network).isEmpty, "the forecast never asks the archive")

            _ = try await service.result("weather/climate", place)
            #expect(PastFixture.archiveCalls(network).count == 1)

            let after = try await service.result("weather/forecast", place)
            let withNormals = try #require(after["daily"]?.arrayValue)
            #expect(withNormals.count == days.count)
            for day in withNormals {
                let date = try #require(day["date"]?.stringValue)
                #expect(day["normal"]?["high"]?.doubleValue == (try Self.normalHigh(date)), "\(date)")
                let (_, month, dayOfMonth) = CivilDate.fromDays(try #require(LocalDate.dayNumber(of: date)))
                let low = PastTests.direct(month: Int(month), day: Int(dayOfMonth)).normalLow
                #expect(day["normal"]?["low"]?.doubleValue == Rounding.round(low, decimals: 2), "\(date)")
            }

            // now --format %A: today's high less today's normal high.
            let today = try #require(withNormals.first { $0["date"] == "2026-11-27" })
            let high = try #require(today["max"]?.doubleValue)
            let expected = Self.signed(high - (try Self.normalHigh("2026-11-27"))) + " °C"
            #expect(format.render(current: current, forecast: after, now: clock.timestamp()) == "+9°C \(expected)|")

            // weatherd forecast: a "vs normal" column, each row its high less its normal high.
            let table = ForecastPage(after).days(Self.plain).split(separator: "\n")
            #expect(table.first?.contains("vs normal") == true, "\(table)")
            for day in withNormals {
                let date = try #require(day["date"]?.stringValue)
                let row = try #require(table.first { $0.hasPrefix(LocalTime.dayLabel(date)) }, "\(table)")
                let shift = Self.signed(try #require(day["max"]?.doubleValue) - (try Self.normalHigh(date))) + "°"
                #expect(row.split(separator: " ").contains(Substring(shift)), "\(row) lacks \(shift)")
            }

            // In °F the normal is converted and the difference is 1.8 times the °C one, without the offset.
            let imperial = try await service.result(
                "weather/forecast", .object(PastFixture.enschede.merging(["units": "imperial"]) { $1 }))
            let todayF = try #require(imperial["daily"]?.arrayValue?.first { $0["date"] == "2026-11-27" })
            let normalF = try Self.normalHigh("2026-11-27", fahrenheit: true)
            #expect(todayF["normal"]?["high"]?.doubleValue == normalF)
            let highF = try #require(todayF["max"]?.doubleValue)
            #expect(abs((highF - normalF) - (high - (try Self.normalHigh("2026-11-27"))) * 1.8) < 0.05)
            let currentF = try await service.result(
                "weather/current", .object(PastFixture.enschede.merging(["units": "imperial"]) { $1 }))
            #expect(
                try OneLine("%A").render(current: currentF, forecast: imperial, now: clock.timestamp())
                    == Self.signed(highF - normalF) + " °F")
            #expect(PastFixture.archiveCalls(network).count == 1, "the normals come from the cached page")
        }
    }

    @Test("the chart draws each day's normal band behind the forecast, in its key and its description")
    func chartBand() async throws {
        let network = try Self.network()
        let clock = ManualClock(start: try OfficialFixture.time(Self.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            let place = JSONValue.object(PastFixture.enschede)
            _ = try await service.result("weather/climate", place)
            let forecast = try await service.result("weather/forecast", place)
            let svg = Chart.svg(forecast)
            let root = try ChartTests.checkDocument(svg)
            let band = try #require(root.elements(named: "g").first { $0.attributes["fill"] == Chart.Colour.normal })
            let input = Chart.Input(forecast)
            let time = Chart.TimeAxis(input)
            let axis = Chart.ValueAxis.temperature(input)
            let banded = time.days.filter { input.day(on: LocalTime.date(days: $0))?.normalHigh != nil }
            #expect(!banded.isEmpty)
            #expect(band.children.count == banded.count)
            for (rect, day) in zip(band.children, banded) {
                let date = LocalTime.date(days: day)
                let (_, month, dayOfMonth) = CivilDate.fromDays(try #require(LocalDate.dayNumber(of: date)))
                let low = Rounding.round(
                    PastTests.direct(month: Int(month), day: Int(dayOfMonth)).normalLow, decimals: 2)
                let top = try #require(rect.attributes["y"].flatMap(Double.init))
                let height = try #require(rect.attributes["height"].flatMap(Double.init))
                #expect(abs(top - axis.y(try Self.normalHigh(date))) <= 0.05)
                #expect(abs(top + height - axis.y(low)) <= 0.1)
                #expect(top >= Chart.plot.top && top + height <= Chart.plot.bottom)
            }
            #expect(ChartTests.texts(root).contains("normal 1991–2020"))
            #expect(root.elements(named: "desc").first?.text.contains(", normal ") == true)
            let order = root.children.map { $0.attributes["fill"] ?? "" }
            let bandIndex = try #require(order.firstIndex(of: Chart.Colour.normal))
            let lineIndex = try #require(root.children.firstIndex { $0.name == "polyline" || $0.name == "path" })
            #expect(bandIndex < lineIndex, "the band is drawn before, so behind, the temperature")
        }
    }

    @Test("weather/climate answers the normal and records without the forecast when the provider fails")
    func providerDown() async throws {
        let network = try Self.network(failing: true)
        let clock = ManualClock(start: try OfficialFixture.time(Self.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            let answer = try await service.result("weather/climate", .object(PastFixture.enschede))
            #expect(answer["date"] == "2026-11-27", "without the place's zone, today is UTC's")
            #expect(answer["normal"]?["high"]?.doubleValue == (try Self.normalHigh("2026-11-27")))
            let expected = PastTests.direct(month: 11, day: 27)
            #expect(answer["records"]?["high"]?["year"]?.intValue == Int64(expected.recordHigh.1))
            #expect(answer["forecast"] == nil)
            #expect(answer["anomaly"] == nil)
            #expect(answer["current"] == nil)
            let list = try #require(answer["warnings"]?.arrayValue)
            let warnings = list.compactMap { $0.stringValue }
            #expect(warnings.count == 2, "\(warnings)")
            #expect(warnings.first?.hasPrefix("no forecast or anomaly: ") == true, "\(warnings)")
            #expect(warnings.last?.hasPrefix("no current temperature: ") == true, "\(warnings)")
            #expect(answer["sentence"]?.stringValue?.contains("forecast") == false)
            #expect(PastFixture.archiveCalls(network).count == 1)

            try await OfficialMCPTests.initialize(service)
            let tool = try await OfficialMCPTests.tool(service, "get_climate", .object(PastFixture.enschede))
            let line = try #require(OfficialMCPTests.texts(tool).first)
            #expect(line.contains("Normal for 27 November"), "\(line)")
            #expect(line.contains("(no forecast or anomaly: "), "\(line)")
            #expect(tool["isError"] == nil)
        }
    }
}
