extension Chart {
    /// How strongly the ensemble's band is filled: faint, so the temperature line reads over it.
    static let spreadOpacity = "0.16"

    /// An ensemble's 10–90 % band, when the answer carries it (the place's spread is cached): around the
    /// temperature line, through the steps that have both percentiles (broken where one has not); after the steps,
    /// behind each day's low-to-high bar, from the 10th percentile of its low to the 90th of its high.
    static func drawSpread(_ svg: inout Writer, _ input: Input, _ time: TimeAxis, _ axis: ValueAxis) {
        guard input.hasSpread else { return }
        svg.open("g", [("fill", Colour.temperature), ("fill-opacity", spreadOpacity)])
        var runs: [[Input.Step]] = [[]]
        for step in input.steps {
            if step.low != nil, step.high != nil {
                runs[runs.count - 1].append(step)
            } else if !runs[runs.count - 1].isEmpty {
                runs.append([])
            }
        }
        for run in runs where run.count > 1 {
            let upper = run.map { "\(Writer.number(time.x($0.time))),\(Writer.number(axis.y($0.high ?? 0)))" }
            let lower = run.reversed().map {
                "\(Writer.number(time.x($0.time))),\(Writer.number(axis.y($0.low ?? 0)))"
            }
            svg.element("path", [("d", "M" + (upper + lower).joined(separator: " L") + " Z")])
        }
        for (day, summary) in input.daysAfterSteps {
            guard let low = summary.spreadLow, let high = summary.spreadHigh else { continue }
            let (start, end) = (time.midnight(day), time.midnight(day + 1))
            let width = min(22, max(4, time.pixels(end - start) * 0.3))
            let (top, bottom) = (axis.y(max(low, high)), axis.y(min(low, high)))
            svg.element(
                "rect",
                [
                    ("x", Writer.number(time.x((start + end) / 2) - width / 2)), ("y", Writer.number(top)),
                    ("width", Writer.number(width)), ("height", Writer.number(max(bottom - top, 2))),
                    ("rx", "2.0"),
                ])
        }
        svg.close("g")
    }
}
