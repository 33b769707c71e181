import Foundation
import WeatherDomain

/// An SVG chart of a `weather/forecast` result, for people: the temperature as a line, the chance of
/// precipitation as bars, a dashed separator at each local midnight, each day's date with its low and high,
/// nights shaded, and the place, the units and the fetch time above.
///
/// The renderer is pure: no clock, no locale, no randomness. The same forecast gives the same bytes, and
/// every coordinate is printed with one decimal. The document is SVG 1.1 with presentation attributes only:
/// no scripts, no style sheets, no links, no fonts or images from elsewhere.
enum Chart {
    /// The document's size in pixels, and its `viewBox`.
    static let width = 900.0
    static let height = 360.0
    /// The plot area: time from left to right, temperature (left axis) and chance of precipitation (right
    /// axis) from bottom to top.
    static let plot = Box(left: 56, top: 104, right: 844, bottom: 300)
    /// The baseline of the day labels' first line (the date) and second line (the low and high).
    static let dateLine = 78.0
    static let lowHighLine = 94.0
    /// The baseline of the key below the plot.
    static let legendLine = 342.0

    /// Colours, chosen to read well on white and in print.
    enum Colour {
        static let background = "#ffffff"
        static let border = "#e2e8f0"
        static let night = "#eef2f8"
        static let grid = "#e5e7eb"
        static let axis = "#94a3b8"
        static let midnight = "#8795aa"
        static let temperature = "#e4572e"
        static let precipitation = "#3b82f6"
        static let low = "#2563eb"
        static let high = "#dc2626"
        static let title = "#1f2937"
        static let text = "#334155"
        static let faint = "#64748b"
        static let stale = "#b45309"
    }

    /// The whole SVG document (ending with a newline) for a `weather/forecast` result.
    static func svg(_ forecast: JSONValue) -> String {
        let input = Input(forecast)
        let time = TimeAxis(input)
        let temperature = ValueAxis.temperature(input)
        var svg = Writer()
        svg.open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"), ("width", Writer.number(width)),
                ("height", Writer.number(height)),
                ("viewBox", "0 0 \(Writer.number(width)) \(Writer.number(height))"),
                ("font-family", "DejaVu Sans, Verdana, Arial, sans-serif"),
            ])
        svg.element("title", [], text: "Forecast for \(input.place)")
        svg.element("desc", [], text: description(input))
        drawDefinitions(&svg)
        svg.element(
            "rect",
            [
                ("x", "0.5"), ("y", "0.5"), ("width", Writer.number(width - 1)), ("height", Writer.number(height - 1)),
                ("rx", "10.0"), ("fill", Colour.background), ("stroke", Colour.border),
            ])
        drawNights(&svg, input, time)
        drawTemperatureGrid(&svg, input, temperature)
        drawPrecipitation(&svg, input, time)
        drawMidnights(&svg, time)
        drawTemperature(&svg, input, time, temperature)
        drawHours(&svg, time)
        drawDays(&svg, input, time)
        drawHeading(&svg, input)
        drawLegend(&svg, input)
        if input.steps.isEmpty {
            svg.element(
                "text",
                [
                    ("x", Writer.number((plot.left + plot.right) / 2)),
                    ("y", Writer.number((plot.top + plot.bottom) / 2)),
                ]
                    + [("font-size", "14.0"), ("text-anchor", "middle"), ("fill", Colour.faint)],
                text: "no forecast steps")
        }
        svg.close("svg")
        return svg.document
    }
}

// MARK: - Heading, key and description

extension Chart {
    /// The title (the place, its coordinates at the right) and the subtitle (units, fetch time, stale).
    static func drawHeading(_ svg: inout Writer, _ input: Input) {
        svg.element(
            "text",
            [("x", "24.0"), ("y", "34.0"), ("font-size", "20.0"), ("font-weight", "bold"), ("fill", Colour.title)],
            text: input.place)
        if let coordinates = input.coordinates {
            svg.element(
                "text",
                [
                    ("x", Writer.number(width - 24)), ("y", "34.0"), ("font-size", "12.0"), ("text-anchor", "end"),
                    ("fill", Colour.faint),
                ],
                text: coordinates)
        }
        var parts = ["temperature in \(input.unit)", "chance of precipitation in %"]
        if let fetchedAt = input.fetchedAt {
            parts.append("fetched \(Dates.dateTime(fetchedAt, offsetSeconds: input.offsetSeconds))")
        }
        var spans = [Writer.tag("tspan", [], text: parts.joined(separator: " · "))]
        if input.stale {
            // The space goes between the spans: a renderer may drop one at the start of a span.
            spans += [" · ", Writer.tag("tspan", [("fill", Colour.stale), ("font-weight", "bold")], text: "stale")]
        }
        svg.element(
            "text", [("x", "24.0"), ("y", "56.0"), ("font-size", "12.0"), ("fill", Colour.faint)], markup: spans)
    }

    /// The key below the plot: what the line, the bars, the shading and the dashes mean, and the source.
    static func drawLegend(_ svg: inout Writer, _ input: Input) {
        let y = legendLine
        let top = Writer.number(y - 10)
        svg.open("g", [("font-size", "11.0"), ("fill", Colour.text)])
        svg.element(
            "line",
            [
                ("x1", "56.0"), ("y1", Writer.number(y - 4)), ("x2", "76.0"), ("y2", Writer.number(y - 4)),
                ("stroke", Colour.temperature), ("stroke-width", "2.5"), ("stroke-linecap", "round"),
            ])
        svg.element("text", [("x", "82.0"), ("y", Writer.number(y))], text: "temperature (\(input.unit))")
        svg.element(
            "rect",
            [
                ("x", "212.0"), ("y", top), ("width", "10.0"), ("height", "10.0"), ("fill", Colour.precipitation),
                ("fill-opacity", "0.35"),
            ])
        svg.element("text", [("x", "228.0"), ("y", Writer.number(y))], text: "chance of precipitation (%)")
        svg.element(
            "rect",
            [
                ("x", "400.0"), ("y", top), ("width", "10.0"), ("height", "10.0"), ("fill", Colour.night),
                ("stroke", Colour.axis), ("stroke-width", "0.5"),
            ])
        svg.element("text", [("x", "416.0"), ("y", Writer.number(y))], text: "night")
        svg.element(
            "line",
            [
                ("x1", "464.0"), ("y1", Writer.number(y - 11)), ("x2", "464.0"), ("y2", Writer.number(y + 1)),
                ("stroke", Colour.midnight), ("stroke-dasharray", "3.0 3.0"),
            ])
        svg.element("text", [("x", "472.0"), ("y", Writer.number(y))], text: "local midnight")
        if let provider = input.provider {
            svg.element(
                "text", [("x", Writer.number(plot.right)), ("y", Writer.number(y)), ("text-anchor", "end")],
                text: "data: \(provider)")
        }
        svg.close("g")
    }

    /// The `<desc>`: the chart in words, with every day's low and high, for readers that do not see it.
    static func description(_ input: Input) -> String {
        var text = "Temperature (\(input.unit)) and chance of precipitation (%)"
        if let first = input.steps.first, let last = input.steps.last {
            let offset = input.offsetSeconds
            text +=
                ", \(input.steps.count) forecast steps from \(Dates.dateTime(first.time, offsetSeconds: offset))"
                + " to \(Dates.dateTime(last.time, offsetSeconds: offset))"
        } else {
            text += ", no forecast steps"
        }
        let days = input.days.map { day in
            let date = LocalTime.days(day.date).map { DayLabelForm.full.date($0) } ?? day.date
            return "\(date): low \(input.degrees(day.min)), high \(input.degrees(day.max))"
        }
        if !days.isEmpty { text += ". " + days.joined(separator: "; ") }
        return text + "."
    }
}

// MARK: - Plot

extension Chart {
    /// The gradient under the temperature line.
    static func drawDefinitions(_ svg: inout Writer) {
        svg.open("defs", [])
        svg.open("linearGradient", [("id", "temperature-area"), ("x1", "0"), ("y1", "0"), ("x2", "0"), ("y2", "1")])
        svg.element("stop", [("offset", "0"), ("stop-color", Colour.temperature), ("stop-opacity", "0.22")])
        svg.element("stop", [("offset", "1"), ("stop-color", Colour.temperature), ("stop-opacity", "0")])
        svg.close("linearGradient")
        svg.close("defs")
    }

    /// A faint band over each night: before sunrise and after sunset of each day whose summary has the
    /// Sun's times, the whole day in a polar night.
    static func drawNights(_ svg: inout Writer, _ input: Input, _ time: TimeAxis) {
        var nights: [(from: Int64, to: Int64)] = []
        for day in time.days {
            guard let summary = input.day(on: LocalTime.date(days: day)) else { continue }
            let (start, end) = (time.midnight(day), time.midnight(day + 1))
            if summary.polar == "night" {
                nights.append((start, end))
            } else if summary.polar == nil, let sunrise = summary.sunrise, let sunset = summary.sunset {
                nights += [(start, sunrise), (sunset, end)]
            }
        }
        // An evening and the next morning are one band.
        var merged: [(from: Int64, to: Int64)] = []
        for night in nights {
            if let last = merged.last, night.from <= last.to {
                merged[merged.count - 1].to = max(last.to, night.to)
            } else {
                merged.append(night)
            }
        }
        svg.open("g", [("fill", Colour.night)])
        for night in merged {
            let left = time.x(max(night.from, time.start))
            let right = time.x(min(night.to, time.end))
            guard right - left >= 0.1 else { continue }
            svg.element(
                "rect",
                [
                    ("x", Writer.number(left)), ("y", Writer.number(plot.top)), ("width", Writer.number(right - left)),
                    ("height", Writer.number(plot.height)),
                ])
        }
        svg.close("g")
    }

    /// The temperature's gridlines with their labels on the left, the chance of precipitation's axis
    /// (0, 50 and 100 %) on the right, and the base line.
    static func drawTemperatureGrid(_ svg: inout Writer, _ input: Input, _ axis: ValueAxis) {
        let (left, right) = (Writer.number(plot.left), Writer.number(plot.right))
        svg.open("g", [("font-size", "11.0")])
        for tick in axis.ticks {
            let y = axis.y(tick)
            svg.element(
                "line",
                [
                    ("x1", left), ("y1", Writer.number(y)), ("x2", right), ("y2", Writer.number(y)),
                    ("stroke", Colour.grid),
                ])
            svg.element(
                "text",
                [
                    ("x", Writer.number(plot.left - 8)), ("y", Writer.number(y + 4)), ("text-anchor", "end"),
                    ("fill", Colour.text),
                ],
                text: input.tick(tick))
        }
        for percent in [0, 50, 100] {
            let y = plot.bottom - Double(percent) / 100 * plot.height
            svg.element(
                "line",
                [
                    ("x1", right), ("y1", Writer.number(y)), ("x2", Writer.number(plot.right + 4)),
                    ("y2", Writer.number(y)),
                ]
                    + [("stroke", Colour.precipitation)])
            svg.element(
                "text",
                [("x", Writer.number(plot.right + 8)), ("y", Writer.number(y + 4)), ("fill", Colour.precipitation)],
                text: "\(percent)%")
        }
        let bottom = Writer.number(plot.bottom)
        svg.element("line", [("x1", left), ("y1", bottom), ("x2", right), ("y2", bottom), ("stroke", Colour.axis)])
        svg.close("g")
    }

    /// A bar per step as high as its chance of precipitation, centred on the step's time.
    static func drawPrecipitation(_ svg: inout Writer, _ input: Input, _ time: TimeAxis) {
        let width = max(1, time.pixels(time.step) * 0.72)
        svg.open("g", [("fill", Colour.precipitation), ("fill-opacity", "0.35")])
        for step in input.steps {
            guard let pop = step.pop, pop > 0 else { continue }
            let height = pop * plot.height
            svg.element(
                "rect",
                [
                    ("x", Writer.number(time.x(step.time) - width / 2)), ("y", Writer.number(plot.bottom - height)),
                    ("width", Writer.number(width)), ("height", Writer.number(height)),
                ])
        }
        svg.close("g")
    }

    /// A dashed line at each local midnight inside the plot.
    static func drawMidnights(_ svg: inout Writer, _ time: TimeAxis) {
        svg.open("g", [("stroke", Colour.midnight), ("stroke-dasharray", "4.0 4.0")])
        for midnight in time.midnights {
            let x = Writer.number(time.x(midnight))
            svg.element(
                "line", [("x1", x), ("y1", Writer.number(plot.top)), ("x2", x), ("y2", Writer.number(plot.bottom))])
        }
        svg.close("g")
    }

    /// The temperature: a soft area under a line through the steps (broken where a step has none), with a
    /// dot on each step when they are far enough apart.
    static func drawTemperature(_ svg: inout Writer, _ input: Input, _ time: TimeAxis, _ axis: ValueAxis) {
        var runs: [[(x: Double, y: Double)]] = [[]]
        for step in input.steps {
            if let value = step.temperature {
                runs[runs.count - 1].append((time.x(step.time), axis.y(value)))
            } else if runs[runs.count - 1].count > 0 {
                runs.append([])
            }
        }
        let bottom = Writer.number(plot.bottom)
        for run in runs where run.count > 1 {
            let points = run.map { "\(Writer.number($0.x)),\(Writer.number($0.y))" }
            let (first, last) = (Writer.number(run[0].x), Writer.number(run[run.count - 1].x))
            let area = "M\(first),\(bottom) L" + points.joined(separator: " L") + " L\(last),\(bottom) Z"
            svg.element("path", [("d", area), ("fill", "url(#temperature-area)")])
            svg.element(
                "polyline",
                [
                    ("points", points.joined(separator: " ")), ("fill", "none"), ("stroke", Colour.temperature),
                    ("stroke-width", "2.5"), ("stroke-linejoin", "round"), ("stroke-linecap", "round"),
                ])
        }
        let dots = runs.joined()
        guard !dots.isEmpty, time.pixels(time.step) >= 12 || dots.count == 1 else { return }
        let circles = dots.map { dot in
            "M\(Writer.number(dot.x - 2.5)),\(Writer.number(dot.y)) a2.5,2.5 0 1,0 5.0,0.0 a2.5,2.5 0 1,0 -5.0,0.0 Z"
        }
        svg.element(
            "path",
            [
                ("d", circles.joined(separator: " ")), ("fill", Colour.background), ("stroke", Colour.temperature),
                ("stroke-width", "1.5"),
            ])
    }

    /// The local hours between midnights below the plot, as far apart as their labels need.
    static func drawHours(_ svg: inout Writer, _ time: TimeAxis) {
        guard let every = [1, 3, 6, 12].first(where: { time.pixels(Int64($0) * 3_600_000) >= 40 }) else { return }
        svg.open("g", [("font-size", "10.0"), ("fill", Colour.faint), ("text-anchor", "middle")])
        for day in time.days {
            for hour in stride(from: every, to: 24, by: every) {
                let moment = time.midnight(day) + Int64(hour) * 3_600_000
                guard moment > time.start, moment < time.end else { continue }
                let x = Writer.number(time.x(moment))
                svg.element(
                    "line",
                    [
                        ("x1", x), ("y1", Writer.number(plot.bottom)), ("x2", x),
                        ("y2", Writer.number(plot.bottom + 4)), ("stroke", Colour.axis),
                    ])
                svg.element(
                    "text", [("x", x), ("y", Writer.number(plot.bottom + 16))], text: LocalTime.twoDigits(Int64(hour)))
            }
        }
        svg.close("g")
    }

    /// Above each day: its weekday and date, and below them its low and high, centred on the part of the day
    /// the plot shows and moved apart where they would overlap. A day of the plot that holds no step (the
    /// margin around the steps) is not labelled, unless there are no steps at all.
    static func drawDays(_ svg: inout Writer, _ input: Input, _ time: TimeAxis) {
        let stepped = Set(input.steps.map { time.localDay($0.time) })
        let shown = time.days.filter { input.steps.isEmpty || stepped.contains($0) }
        let form = DayLabelForm.fitting(time.pixels(86_400_000))
        let labels = shown.map { day in
            let summary = input.day(on: LocalTime.date(days: day))
            return DayLabel(date: form.date(day), lowHigh: summary.map { form.lowHigh($0, input) }, form: form)
        }
        let wanted = zip(shown, labels).map { day, label in
            let left = time.x(max(time.start, time.midnight(day)))
            let right = time.x(min(time.end, time.midnight(day + 1)))
            return (centre: (left + right) / 2, width: label.width)
        }
        let centres = spread(wanted, within: plot.left...plot.right, gap: 8)
        let size = Writer.number(form.size)
        for (label, centre) in zip(labels, centres) {
            let x = Writer.number(centre)
            svg.element(
                "text",
                [
                    ("x", x), ("y", Writer.number(dateLine)), ("font-size", size), ("font-weight", "bold"),
                    ("text-anchor", "middle"), ("fill", Colour.text),
                ],
                text: label.date)
            guard let lowHigh = label.lowHigh else { continue }
            svg.element(
                "text", [("x", x), ("y", Writer.number(lowHighLine)), ("font-size", size), ("text-anchor", "middle")],
                markup: [
                    Writer.tag("tspan", [("fill", Colour.low)], text: lowHigh.low), Writer.escape(form.between),
                    Writer.tag("tspan", [("fill", Colour.high)], text: lowHigh.high),
                ])
        }
    }

    /// Centres for labels that want to be at their centres with their widths, moved as little as a
    /// left-to-right and a right-to-left pass need for neighbours to keep `gap` between them and all to
    /// stay within `bounds` (when they fit).
    static func spread(
        _ wanted: [(centre: Double, width: Double)], within bounds: ClosedRange<Double>, gap: Double
    ) -> [Double] {
        var lefts: [Double] = []
        for (index, label) in wanted.enumerated() {
            var left = max(label.centre - label.width / 2, bounds.lowerBound)
            if index > 0 { left = max(left, lefts[index - 1] + wanted[index - 1].width + gap) }
            lefts.append(left)
        }
        for index in wanted.indices.reversed() {
            var right = min(lefts[index] + wanted[index].width, bounds.upperBound)
            if index + 1 < wanted.count { right = min(right, lefts[index + 1] - gap) }
            lefts[index] = right - wanted[index].width
        }
        return zip(lefts, wanted).map { $0 + $1.width / 2 }
    }
}

// MARK: - What the chart reads

extension Chart {
    /// The facts of a `weather/forecast` result the chart draws, read leniently: what is missing or
    /// malformed is left out, never guessed.
    struct Input {
        /// A forecast step: its time (milliseconds since 1970), temperature and chance of precipitation (0…1).
        struct Step {
            var time: Int64
            var temperature: Double?
            var pop: Double?
        }

        /// A day's summary: its local date (`YYYY-MM-DD`), low, high and the Sun's times.
        struct Day {
            var date: String
            var min: Double?
            var max: Double?
            var sunrise: Int64?
            var sunset: Int64?
            /// `day` or `night` when the Sun neither rises nor sets.
            var polar: String?
        }

        /// The place's name (with its country), or its coordinates when it has no name.
        var place: String
        /// The coordinates as `51.51°N 0.13°W`, when known.
        var coordinates: String?
        /// The temperature's unit: `°C`, `°F` or `K`.
        var unit: String
        /// The place's offset from UTC, which decides its local midnights.
        var offsetSeconds: Int64
        var fetchedAt: Int64?
        var stale: Bool
        var provider: String?
        /// The steps, by time.
        var steps: [Step]
        var days: [Day]

        init(_ forecast: JSONValue) {
            let location = forecast["location"]
            let name = location?["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            let country = location?["country"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            let lat = location?["lat"]?.doubleValue
            let lon = location?["lon"]?.doubleValue
            if let lat, let lon {
                coordinates =
                    "\(Writer.fixed(abs(lat), decimals: 2))°\(lat < 0 ? "S" : "N") "
                    + "\(Writer.fixed(abs(lon), decimals: 2))°\(lon < 0 ? "W" : "E")"
            }
            if let name {
                place = country.map { "\(name), \($0)" } ?? name
            } else if let lat, let lon {
                place = "\(Writer.fixed(lat, decimals: 4)), \(Writer.fixed(lon, decimals: 4))"
            } else {
                place = "Forecast"
            }
            unit = forecast["units"]?["temperature"]?.stringValue ?? "°"
            offsetSeconds = min(max(location?["utcOffsetSeconds"]?.intValue ?? 0, -64_800), 64_800)
            fetchedAt = Self.time(forecast["fetchedAt"])
            stale = forecast["stale"]?.boolValue ?? false
            provider = forecast["provider"]?.stringValue
            steps = Self.steps(forecast["entries"]?.arrayValue ?? [])
            days = (forecast["daily"]?.arrayValue ?? []).compactMap(Self.day)
        }

        /// The steps with a time, in time order (steps at the same time keep their order).
        static func steps(_ entries: [JSONValue]) -> [Step] {
            let steps = entries.compactMap { entry -> Step? in
                guard let moment = time(entry["time"]) else { return nil }
                let pop = entry["pop"]?.doubleValue.map { min(max($0, 0), 1) }
                return Step(time: moment, temperature: entry["temperature"]?.doubleValue, pop: pop)
            }
            return steps.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                .map(\.element)
        }

        /// A daily summary, when it has a date.
        static func day(_ json: JSONValue) -> Day? {
            guard let date = json["date"]?.stringValue else { return nil }
            return Day(
                date: date, min: json["min"]?.doubleValue, max: json["max"]?.doubleValue,
                sunrise: time(json["sunrise"]), sunset: time(json["sunset"]), polar: json["polar"]?.stringValue)
        }

        /// An RFC 3339 time as milliseconds since 1970.
        static func time(_ json: JSONValue?) -> Int64? {
            json?.stringValue.flatMap { Timestamp(rfc3339: $0) }?.milliseconds
        }

        /// The summary of a local date, if the forecast has one.
        func day(on date: String) -> Day? { days.first { $0.date == date } }

        /// A temperature rounded to a whole number, as a day's low or high: `12°`, `-3°`, `285 K`, or `–`
        /// when it is unknown.
        func degrees(_ value: Double?) -> String {
            guard let value else { return "–" }
            let whole = Text.number(value, decimals: 0)
            return unit.hasPrefix("°") ? whole + "°" : whole + " " + unit
        }

        /// A temperature axis label: `12°C`, `285 K`.
        func tick(_ value: Double) -> String {
            let whole = Text.number(value, decimals: 0)
            return unit.hasPrefix("°") ? whole + unit : whole + " " + unit
        }
    }

    /// The time axis: from half a step before the first step to half a step after the last, so that the
    /// bars fit (with no steps, the days of the daily summaries).
    struct TimeAxis {
        static let day: Int64 = 86_400_000
        /// The plot's first and last moment, in milliseconds since 1970.
        var start: Int64
        var end: Int64
        /// The time between steps (the shortest gap; three hours when unknown).
        var step: Int64
        var offset: Int64
        /// The local days the plot shows (days since 1970), none when it shows more than 62 or no time at all.
        var days: [Int64] = []

        init(_ input: Input) {
            offset = input.offsetSeconds * 1000
            let gaps = zip(input.steps.dropFirst(), input.steps).map { $0.time - $1.time }.filter { $0 > 0 }
            step = min(max(gaps.min() ?? 10_800_000, 900_000), Self.day)
            let dates = input.days.compactMap { LocalTime.days($0.date) }
            if let first = input.steps.first, let last = input.steps.last {
                start = first.time - step / 2
                end = last.time + step / 2
            } else if let first = dates.min(), let last = dates.max() {
                start = first * Self.day - offset
                end = (last + 1) * Self.day - offset
            } else {
                (start, end) = (0, Self.day)
                return
            }
            let (firstDay, lastDay) = (localDay(start), localDay(end - 1))
            if lastDay - firstDay < 62 { days = Array(firstDay...lastDay) }
        }

        /// The local midnights inside the plot.
        var midnights: [Int64] { days.dropFirst().map(midnight) }

        /// The local day (days since 1970) of a moment.
        func localDay(_ time: Int64) -> Int64 { Int64.floorDivision(time + offset, Self.day) }

        /// The moment a local day begins.
        func midnight(_ day: Int64) -> Int64 { day * Self.day - offset }

        /// The x of a moment.
        func x(_ time: Int64) -> Double { plot.left + pixels(time - start) }

        /// How many pixels a duration spans.
        func pixels(_ duration: Int64) -> Double { Double(duration) / Double(max(end - start, 1)) * plot.width }
    }

    /// The temperature axis: round ticks (1, 2 or 5 times a power of ten apart) around the values.
    struct ValueAxis {
        var low: Double
        var high: Double
        var step: Double

        /// The axis for the steps' temperatures (or the days' lows and highs when there are no steps).
        static func temperature(_ input: Input) -> ValueAxis {
            var values = input.steps.compactMap(\.temperature)
            if values.isEmpty { values = input.days.flatMap { [$0.min, $0.max].compactMap { $0 } } }
            let clamped = values.map { min(max($0, -1e6), 1e6) }
            return ValueAxis(around: (clamped.min() ?? 0)...(clamped.max() ?? 10))
        }

        /// Ticks around `range` (widened to at least 4 degrees), four or five apart.
        init(around range: ClosedRange<Double>) {
            var (low, high) = (range.lowerBound, range.upperBound)
            if high - low < 4 { (low, high) = ((low + high) / 2 - 2, (low + high) / 2 + 2) }
            let rough = (high - low) / 4
            let magnitude = pow(10, floor(log10(rough)))
            step = ([1.0, 2, 5, 10].first { $0 * magnitude >= rough } ?? 10) * magnitude
            self.low = floor(low / step) * step
            self.high = ceil(high / step) * step
        }

        /// The tick values, from low to high.
        var ticks: [Double] {
            let count = min(Int(((high - low) / step).rounded()), 20)
            return (0...max(count, 1)).map { low + Double($0) * step }
        }

        /// The y of a temperature.
        func y(_ value: Double) -> Double {
            let clamped = min(max(value, -1e6), 1e6)
            return plot.bottom - (clamped - low) / max(high - low, 1e-9) * plot.height
        }
    }
}

// MARK: - Layout helpers

extension Chart {
    /// A rectangle in the chart's pixels.
    struct Box {
        var left: Double
        var top: Double
        var right: Double
        var bottom: Double

        var width: Double { right - left }
        var height: Double { bottom - top }
    }

    /// A day's label above the plot: its date and, when the forecast has its summary, its low and high.
    struct DayLabel {
        var date: String
        var lowHigh: (low: String, high: String)?
        var form: DayLabelForm

        /// About how wide the label is: the wider of its two lines.
        var width: Double {
            let lowHigh = lowHigh.map { Double(($0.low + form.between + $0.high).count) * form.size * 0.62 } ?? 0
            return max(Double(date.count) * form.size * 0.66, lowHigh)
        }
    }

    /// How long a day's date is written, by how wide a whole day is on the plot.
    enum DayLabelForm {
        /// `Fri 26 May`.
        case full
        /// `Fri 26`.
        case short
        /// `26`.
        case day

        /// The longest form whose labels fit a day `pixels` wide.
        static func fitting(_ pixels: Double) -> DayLabelForm { pixels >= 96 ? .full : pixels >= 64 ? .short : .day }

        /// The font size of the form.
        var size: Double {
            switch self {
            case .full: 12
            case .short: 11
            case .day: 10
            }
        }

        /// A day's low and high in this form: `↓3°` and `↑12°`, or only the numbers when days are narrow.
        func lowHigh(_ day: Input.Day, _ input: Input) -> (low: String, high: String) {
            guard self == .day else { return ("↓" + input.degrees(day.min), "↑" + input.degrees(day.max)) }
            return (
                day.min.map { Text.number($0, decimals: 0) } ?? "–", day.max.map { Text.number($0, decimals: 0) } ?? "–"
            )
        }

        /// What goes between the low and the high (outside their spans: a renderer may drop a space at the
        /// start of a span).
        var between: String { self == .day ? "/" : " " }

        /// A local day (days since 1970) in this form.
        func date(_ day: Int64) -> String {
            let (_, _, date) = CivilDate.fromDays(day)
            switch self {
            case .full: return LocalTime.dayLabel(days: day)
            case .short: return "\(LocalTime.weekday(day)) \(date)"
            case .day: return "\(date)"
            }
        }
    }

    /// The times the chart writes.
    enum Dates {
        /// `Fri 26 May 2023 09:50 (UTC+01:00)`: a moment (milliseconds since 1970) at an offset from UTC.
        static func dateTime(_ milliseconds: Int64, offsetSeconds: Int64) -> String {
            let local = Int64.floorDivision(milliseconds, 1000) + offsetSeconds
            let day = Int64.floorDivision(local, 86_400)
            let second = Int64.floorModulo(local, 86_400)
            let (year, _, _) = CivilDate.fromDays(day)
            return LocalTime.dayLabel(days: day)
                + " \(year) \(LocalTime.twoDigits(second / 3600)):\(LocalTime.twoDigits(second / 60 % 60))"
                + " (UTC\(LocalTime.offsetText(offsetSeconds, colon: true)))"
        }
    }
}

// MARK: - Writing SVG

extension Chart {
    /// Writes the document an element a line, indented by nesting, with escaped text and attributes.
    struct Writer {
        private var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        private var depth = 0

        /// The document, ending with a newline.
        var document: String { lines.joined(separator: "\n") + "\n" }

        /// Opens an element whose children follow on their own lines.
        mutating func open(_ name: String, _ attributes: [(String, String)]) {
            append("<\(name)\(Self.attributes(attributes))>")
            depth += 1
        }

        /// Closes the element `open` opened last.
        mutating func close(_ name: String) {
            depth -= 1
            append("</\(name)>")
        }

        /// An element on one line, with its text (escaped) or empty.
        mutating func element(_ name: String, _ attributes: [(String, String)], text: String? = nil) {
            append(Self.tag(name, attributes, text: text))
        }

        /// An element on one line around pieces of markup (made with `tag`, or text without `&` and `<`),
        /// joined without white space, which would show in a text.
        mutating func element(_ name: String, _ attributes: [(String, String)], markup: [String]) {
            append("<\(name)\(Self.attributes(attributes))>" + markup.joined() + "</\(name)>")
        }

        private mutating func append(_ line: String) {
            lines.append(String(repeating: "  ", count: max(depth, 0)) + line)
        }

        /// An element as markup: with its text (escaped), or empty (`<line … />`).
        static func tag(_ name: String, _ attributes: [(String, String)], text: String?) -> String {
            guard let text else { return "<\(name)\(Self.attributes(attributes))/>" }
            return "<\(name)\(Self.attributes(attributes))>\(escape(text))</\(name)>"
        }

        /// Attributes as markup, each after a space, values escaped.
        static func attributes(_ attributes: [(String, String)]) -> String {
            attributes.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
        }

        /// Text for XML: `&`, `<`, `>`, `"` and `'` escaped, characters XML 1.0 does not allow left out.
        static func escape(_ text: String) -> String {
            var escaped = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": escaped += "&amp;"
                case "<": escaped += "&lt;"
                case ">": escaped += "&gt;"
                case "\"": escaped += "&quot;"
                case "'": escaped += "&apos;"
                case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
                default:
                    let value = scalar.value
                    if value >= 0x20 && value != 0xFFFE && value != 0xFFFF { escaped.unicodeScalars.append(scalar) }
                }
            }
            return escaped
        }

        /// A coordinate with one decimal (`-12.5`, `0.0`); a value that is not finite is written as 0.
        static func number(_ value: Double) -> String { fixed(value, decimals: 1) }

        /// A number with exactly `decimals` decimals, never `-0`, clamped to ±10⁹.
        static func fixed(_ value: Double, decimals: Int) -> String {
            let scale = pow(10, Double(decimals))
            let clamped = value.isFinite ? min(max(value, -1e9), 1e9) : 0
            let scaled = Int64((clamped * scale).rounded())
            let magnitude = scaled.magnitude
            let unit = UInt64(scale)
            let sign = scaled < 0 ? "-" : ""
            guard decimals > 0 else { return sign + "\(magnitude)" }
            let fraction = String(magnitude % unit)
            return sign + "\(magnitude / unit)." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    fileprivate static func floorDivision(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// The remainder that goes with `floorDivision`, in `0..<b` for a positive `b`.
    fileprivate static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivision(a, b) * b }
}
