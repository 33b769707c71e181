import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@testable import WeatherCLI

/// The SVG forecast chart (`Chart.svg`): a golden chart of a recorded forecast, well-formed SVG 1.1 with
/// nothing from elsewhere, each day's low and high, separators at local midnights, and odd forecasts.
@Suite("weatherd chart's SVG")
struct ChartTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// weatherd's `weather/forecast` result for the recorded OpenWeatherMap London forecast
    /// (`Golden/SOURCES.md` says how it was made).
    static func london() throws -> JSONValue {
        try JSONValue.parse(Array(try Data(contentsOf: golden.appendingPathComponent("forecast-london.json"))))
    }

    /// A small forecast at a place `offset` seconds from UTC: `count` steps three hours apart from `first`,
    /// with the daily summaries given.
    static func forecast(
        name: String? = "Testville", offset: Int64 = 0, first: String = "2025-05-10T12:00:00.000Z", count: Int = 8,
        temperature: (Int) -> Double = { Double($0 % 5) - 2 }, pop: (Int) -> Double? = { Double($0 % 3) / 4 },
        daily: [JSONValue] = [], stale: Bool = false
    ) -> JSONValue {
        let start = Timestamp(rfc3339: first)?.milliseconds ?? 0
        let entries: [JSONValue] = (0..<count).map { index in
            var entry: [String: JSONValue] = [
                "time": .string(Timestamp(milliseconds: start + Int64(index) * 10_800_000).description),
                "temperature": .double(temperature(index)),
            ]
            if let value = pop(index) { entry["pop"] = .double(value) }
            return .object(entry)
        }
        var location: [String: JSONValue] = ["lat": 28.61, "lon": 77.21, "utcOffsetSeconds": .int(offset)]
        if let name { location["name"] = .string(name) }
        return [
            "location": .object(location), "units": ["system": "metric", "temperature": "°C"],
            "entries": .array(entries), "daily": .array(daily), "fetchedAt": .string(first), "stale": .bool(stale),
            "provider": "openmeteo",
        ]
    }

    /// The texts a person sees: the content of every `<text>` element.
    static func texts(_ root: XMLCheck.Element) -> [String] { root.elements(named: "text").map(\.text) }

    /// The x of every dashed separator (the local midnights).
    static func separators(_ root: XMLCheck.Element) -> [Double] {
        root.elements(named: "g").filter { $0.attributes["stroke-dasharray"] != nil }.flatMap(\.children)
            .compactMap { $0.attributes["x1"].flatMap(Double.init) }
    }

    /// Checks what every chart must be: well-formed SVG 1.1, nothing from elsewhere, no NaN or infinity.
    @discardableResult
    static func checkDocument(_ svg: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> XMLCheck.Element
    {
        let root = try XMLCheck.parse(svg)
        #expect(root.name == "svg", sourceLocation: sourceLocation)
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg", sourceLocation: sourceLocation)
        #expect(root.attributes["version"] == "1.1", sourceLocation: sourceLocation)
        let allowed: Set = [
            "svg", "g", "rect", "line", "polyline", "path", "text", "tspan", "title", "desc", "defs",
            "linearGradient", "stop",
        ]
        #expect(root.all.allSatisfy { allowed.contains($0.name) }, sourceLocation: sourceLocation)
        let lower = svg.lowercased()
        for forbidden in ["<script", "href", "url(http", "@import", "<style", "<image", "<foreignobject"] {
            #expect(!lower.contains(forbidden), "\(forbidden)", sourceLocation: sourceLocation)
        }
        for number in ["nan", "inf"] { #expect(!lower.contains(number), "\(number)", sourceLocation: sourceLocation) }
        return root
    }

    @Test("the London chart is the golden SVG, byte for byte")
    func goldenChart() throws {
        let svg = Chart.svg(try Self.london())
        let url = Self.golden.appendingPathComponent("chart-london.svg")
        let recorded = try? String(contentsOf: url, encoding: .utf8)
        // After a deliberate change to the chart, `WEATHERD_UPDATE_GOLDEN=1 swift test --filter ChartTests`
        // rewrites the golden SVG (which the README shows) instead of failing; look at it before committing.
        if recorded != svg, ProcessInfo.processInfo.environment["WEATHERD_UPDATE_GOLDEN"] == "1" {
            try Data(svg.utf8).write(to: url, options: .atomic)
            return
        }
        if recorded != svg {
            let (expected, actual) = (recorded?.split(separator: "\n") ?? [], svg.split(separator: "\n"))
            let line = Array(zip(expected, actual)).firstIndex { $0 != $1 } ?? min(expected.count, actual.count)
            Issue.record(
                """
                the chart differs from Golden/chart-london.svg at line \(line + 1):
                golden: \(line < expected.count ? expected[line] : "(end)")
                now:    \(line < actual.count ? actual[line] : "(end)")
                """)
        }
        #expect(Chart.svg(try Self.london()) == svg, "the same forecast gives the same bytes")
    }

    @Test("the London chart: SVG 1.1 with the place, the units, the fetch time and every day's low and high")
    func londonContents() throws {
        let forecast = try Self.london()
        let svg = Chart.svg(forecast)
        let root = try Self.checkDocument(svg)
        let texts = Self.texts(root)
        #expect(texts.contains("London, GB"))
        #expect(texts.contains("51.51°N 0.13°W"))
        #expect(texts.contains { $0.contains("temperature in °C") && $0.contains("chance of precipitation in %") })
        #expect(texts.contains { $0.contains("fetched Wed 25 Jan 2023 12:00 (UTC+00:00)") })
        #expect(!texts.contains { $0.contains("stale") })
        let daily = try #require(forecast["daily"]?.arrayValue)
        #expect(daily.count == 5)
        for day in daily {
            let low = try #require(day["min"]?.doubleValue).rounded()
            let high = try #require(day["max"]?.doubleValue).rounded()
            #expect(texts.contains("↓\(Int(low))° ↑\(Int(high))°"), "\(day)")
        }
        for date in ["Wed 25 Jan", "Thu 26 Jan", "Fri 27 Jan", "Sat 28 Jan", "Sun 29 Jan"] {
            #expect(texts.contains(date))
        }
        // 35 steps from 25 Jan 15:00 to 29 Jan 21:00 UTC (offset 0): midnights on the 26th to the 29th.
        let entries = try #require(forecast["entries"]?.arrayValue)
        #expect(entries.count == 35)
        #expect(Self.separators(root).count == 4)
        #expect(root.elements(named: "polyline").count == 1)
        #expect(root.elements(named: "desc").first?.text.contains("Sun 29 Jan: low 3°, high 7°") == true)
    }

    @Test("separators fall on the place's local midnights (+05:30 and -05:00), with the local dates")
    func localMidnights() throws {
        for (offset, dates) in [
            (19_800 as Int64, ["Sat 10 May", "Sun 11 May"]), (-18_000, ["Sat 10 May", "Sun 11 May"]),
        ] {
            // Steps from 2025-05-10 12:00 UTC, three hours apart, 8 of them: to 2025-05-11 09:00 UTC.
            let forecast = Self.forecast(offset: offset)
            let root = try Self.checkDocument(Chart.svg(forecast))
            let first = try #require(Timestamp(rfc3339: "2025-05-10T12:00:00.000Z")).milliseconds
            let start = Double(first - 5_400_000)
            let end = Double(first + 7 * 10_800_000 + 5_400_000)
            // The local midnight after the first step: 18:30 UTC (+05:30) or 05:00 UTC (-05:00) the next day.
            let midnight = Double(
                try #require(
                    Timestamp(rfc3339: offset > 0 ? "2025-05-10T18:30:00.000Z" : "2025-05-11T05:00:00.000Z")
                ).milliseconds)
            let x = 56 + (midnight - start) / (end - start) * 788
            let separators = Self.separators(root)
            #expect(separators.count == 1, "offset \(offset)")
            #expect(abs((separators.first ?? 0) - x) < 0.06, "offset \(offset): \(separators) against \(x)")
            let texts = Self.texts(root)
            for date in dates { #expect(texts.contains(date), "offset \(offset): \(date)") }
        }
        // At UTC the same steps cross no midnight but the one at 00:00 on the 11th.
        let utc = try Self.checkDocument(Chart.svg(Self.forecast(offset: 0)))
        #expect(Self.separators(utc).count == 1)
    }

    @Test("a forecast without steps draws the frame, the days with their lows and highs, and says so")
    func noSteps() throws {
        let daily: [JSONValue] = [
            ["date": "2025-05-10", "min": -3.4, "max": 4.5], ["date": "2025-05-11", "min": 1, "max": 9],
        ]
        let svg = Chart.svg(Self.forecast(count: 0, daily: daily))
        let root = try Self.checkDocument(svg)
        let texts = Self.texts(root)
        #expect(texts.contains("no forecast steps"))
        #expect(texts.contains("Sat 10 May") && texts.contains("Sun 11 May"))
        #expect(texts.contains("↓-3° ↑5°"))
        #expect(texts.contains("↓1° ↑9°"))
        #expect(Self.separators(root).count == 1)
        #expect(root.elements(named: "polyline").isEmpty)

        let nothing = try Self.checkDocument(Chart.svg([:]))
        #expect(Self.texts(nothing).contains("no forecast steps"))
    }

    @Test("hourly steps, then the 3-hourly ones after them, then the days after the steps from their own figures")
    func hoursThenDays() throws {
        // 8 three-hourly steps from 12:00 on 10 May (to 09:00 on the 11th), 6 hourly steps from 12:00.
        let forecast = Self.forecast(
            count: 8,
            daily: [
                ["date": "2025-05-10", "min": 1, "max": 9], ["date": "2025-05-11", "min": 2, "max": 10],
                ["date": "2025-05-12", "min": -4, "max": 3, "pop": 0.8], ["date": "2025-05-13", "min": 5, "max": 22],
            ])
        let hours: [JSONValue] = (0..<6).map { index in
            [
                "time": .string(Timestamp(milliseconds: 1_746_878_400_000 + Int64(index) * 3_600_000).description),
                "temperature": .double(Double(index)), "pop": 0.5,
            ]
        }
        let input = Chart.Input(forecast, hourly: ["entries": .array(hours)])
        let hourTimes: [Int64] = (0..<6).map { 1_746_878_400_000 + Int64($0) * 3_600_000 }
        let stepTimes: [Int64] = (2..<8).map { 1_746_878_400_000 + Int64($0) * 10_800_000 }
        #expect(
            input.steps.map(\.time) == hourTimes + stepTimes, "the six hours, then the 3-hourly steps from 18:00 on")
        #expect(input.daysAfterSteps.map(\.summary.date) == ["2025-05-12", "2025-05-13"])

        let root = try Self.checkDocument(Chart.svg(forecast, hourly: ["entries": .array(hours)]))
        let texts = Self.texts(root)
        for label in ["↓-4° ↑3°", "↓5° ↑22°"] { #expect(texts.contains(label), "\(label) in \(texts)") }
        let description = root.elements(named: "desc").first?.text ?? ""
        #expect(description.contains("then 2 days from their lows, highs and chances of precipitation"))
        // An hour's bar is a third of a 3-hourly step's; the 12th's chance of precipitation is a bar a day wide.
        let bars = root.elements(named: "g").filter { $0.attributes["fill"] == "#3b82f6" }.flatMap(\.children)
        let widths = bars.compactMap { $0.attributes["width"].flatMap(Double.init) }
        let hourly = try #require(widths.first)
        #expect(widths.contains { abs($0 - hourly * 3) < 0.2 }, "\(widths)")
        #expect(widths.contains { abs($0 - hourly * 24) < 0.5 }, "\(widths)")
        // The days after the steps are inside the plot: the axis reaches the end of the 13th.
        #expect(Self.separators(root).count == 3)
    }

    @Test("one step, a constant temperature, no chance of precipitation, missing lows and highs: no NaN")
    func oddForecasts() throws {
        let one = try Self.checkDocument(Chart.svg(Self.forecast(count: 1)))
        #expect(one.elements(named: "path").contains { $0.attributes["d"]?.contains("a2.5,2.5") == true })
        let constant = try Self.checkDocument(Chart.svg(Self.forecast(count: 12, temperature: { _ in 7 })))
        #expect(constant.elements(named: "polyline").count == 1)
        let noPop = try Self.checkDocument(Chart.svg(Self.forecast(pop: { _ in nil })))
        #expect(noPop.elements(named: "rect").count > 0)
        let missing = try Self.checkDocument(
            Chart.svg(Self.forecast(daily: [["date": "2025-05-10"], ["date": "2025-05-11", "max": 31.5]])))
        #expect(Self.texts(missing).contains("↓– ↑–"))
        #expect(Self.texts(missing).contains("↓– ↑32°"))
        let freezing = try Self.checkDocument(
            Chart.svg(
                Self.forecast(
                    count: 16, temperature: { -25 - Double($0) / 3 },
                    daily: [["date": "2025-05-10", "min": -27.2, "max": -25]])))
        #expect(Self.texts(freezing).contains("↓-27° ↑-25°"))
        #expect(Self.texts(freezing).contains("-30°C"))
        let sixteenDays = try Self.checkDocument(
            Chart.svg(Self.forecast(count: 16 * 8, temperature: { Double($0 % 24) })))
        #expect(Self.separators(sixteenDays).count == 16)
    }

    @Test("the place's name is escaped; without a name the coordinates are the title; stale is said")
    func escapingAndTitle() throws {
        let svg = Chart.svg(Self.forecast(name: "A&B <x> \"q\" 'a'"))
        #expect(svg.contains("A&amp;B &lt;x&gt; &quot;q&quot; &apos;a&apos;"))
        let root = try Self.checkDocument(svg)
        #expect(Self.texts(root).contains("A&B <x> \"q\" 'a'"))
        #expect(root.elements(named: "title").first?.text == "Forecast for A&B <x> \"q\" 'a'")
        let unnamed = try Self.checkDocument(Chart.svg(Self.forecast(name: nil, stale: true)))
        #expect(Self.texts(unnamed).contains("28.6100, 77.2100"))
        #expect(Self.texts(unnamed).contains { $0.hasSuffix(" · stale") })
        let control = try Self.checkDocument(Chart.svg(Self.forecast(name: "Bad\u{1}Name")))
        #expect(Self.texts(control).contains("BadName"))
    }

    @Test("the well-formedness check itself refuses broken XML")
    func checkerRefuses() throws {
        let good = #"<?xml version="1.0"?><svg a="1" b='2'><g><text>x &amp; y &#x2193;</text></g><line/></svg>"#
        let root = try XMLCheck.parse(good)
        #expect(root.elements(named: "text").first?.text == "x & y ↓")
        let broken = [
            "<svg><g></svg>",  // unclosed tag
            "<svg><g></svg></g>",  // improperly nested
            "<svg><text>a & b</text></svg>",  // bare &
            "<svg><text>a < b</text></svg>",  // bare <
            "<svg a=1></svg>",  // unquoted attribute
            #"<svg a="1" a="2"></svg>"#,  // duplicate attribute
            #"<svg a="1"b="2"></svg>"#,  // no space between attributes
            "<svg></svg><svg></svg>",  // two roots
            "<svg></svg>text",  // text after the root
            "text<svg></svg>",  // text before the root
            "<svg><text>&nbsp;</text></svg>",  // unknown entity
            "<svg>\u{1}</svg>",  // control character
            "<svg>",  // never closed
            "",  // no root
        ]
        for text in broken {
            #expect(throws: XMLCheck.Problem.self, "\(text)") { try XMLCheck.parse(text) }
        }
    }

    @Test("labels that would overlap are moved apart and kept within the plot")
    func spreadLabels() {
        let centres = Chart.spread(
            [(centre: 60, width: 70), (centre: 100, width: 70), (centre: 400, width: 70)], within: 56...844, gap: 8)
        #expect(centres == [91, 169, 400])
        let right = Chart.spread([(centre: 840, width: 40), (centre: 844, width: 40)], within: 56...844, gap: 8)
        #expect(right == [776, 824])
    }

    @Test("dates and times are computed without a calendar: weekdays, months, offsets")
    func dates() {
        #expect(Chart.Dates.dateTime(0, zone: .fixed(0)) == "Thu 1 Jan 1970 00:00 (UTC+00:00)")
        let may = Timestamp(rfc3339: "2023-05-26T09:50:00Z")?.milliseconds ?? 0
        #expect(Chart.Dates.dateTime(may, zone: .fixed(3600)) == "Fri 26 May 2023 10:50 (UTC+01:00)")
        #expect(Chart.Dates.dateTime(may, zone: .fixed(-34_200)) == "Fri 26 May 2023 00:20 (UTC-09:30)")
        #expect(LocalTime.days("2024-02-29") == 19_782)
        #expect(LocalTime.days("2023-02-29") == nil)
        #expect(Chart.Writer.number(-0.04) == "0.0")
        #expect(Chart.Writer.number(12.345) == "12.3")
        #expect(Chart.Writer.number(.nan) == "0.0")
    }
}
