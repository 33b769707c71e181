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

    /// A bar per step as high as its chance of precipitation, centred on the step's time and as wide as the
    /// time it stands for allows (an hour's narrower than three hours'); after the steps, a bar per day drawn
    /// from its summary, as wide as the day allows.
    static func drawPrecipitation(_ svg: inout Writer, _ input: Input, _ time: TimeAxis) {
        var bars: [(centre: Int64, span: Int64, pop: Double?)] = input.steps.enumerated().map { index, step in
            (step.time, time.span(of: index, in: input.steps), step.pop)
        }
        bars += input.daysAfterSteps.map { day, summary in
            let (start, end) = (time.midnight(day), time.midnight(day + 1))
            return ((start + end) / 2, end - start, summary.pop)
        }
        svg.open("g", [("fill", Colour.precipitation), ("fill-opacity", "0.35")])
        for bar in bars {
            guard let pop = bar.pop, pop > 0 else { continue }
            let width = max(1, time.pixels(bar.span) * 0.72)
            let height = pop * plot.height
            svg.element(
                "rect",
                [
                    ("x", Writer.number(time.x(bar.centre) - width / 2)), ("y", Writer.number(plot.bottom - height)),
                    ("width", Writer.number(width)), ("height", Writer.number(height)),
                ])
        }
        svg.close("g")
    }

    /// After the steps, each day drawn from its summary: a bar from its low to its high at its middle, in the
    /// temperature's colour.
    static func drawDailyRanges(_ svg: inout Writer, _ input: Input, _ time: TimeAxis, _ axis: ValueAxis) {
        let days = input.daysAfterSteps
        guard !days.isEmpty else { return }
        svg.open("g", [("fill", Colour.temperature), ("fill-opacity", "0.75")])
        for (day, summary) in days {
            guard let low = summary.min, let high = summary.max else { continue }
            let (start, end) = (time.midnight(day), time.midnight(day + 1))
            let width = min(10, max(2, time.pixels(end - start) * 0.12))
            let (top, bottom) = (axis.y(max(low, high)), axis.y(min(low, high)))
            svg.element(
                "rect",
                [
                    ("x", Writer.number(time.x((start + end) / 2) - width / 2)), ("y", Writer.number(top)),
                    ("width", Writer.number(width)), ("height", Writer.number(max(bottom - top, 2))),
                    ("rx", Writer.number(width / 2)),
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
}
