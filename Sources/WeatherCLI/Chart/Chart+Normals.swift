extension Chart {
    /// How strongly the normal band is filled: faint, so the forecast reads over it.
    static let normalOpacity = "0.14"

    /// Behind the forecast, a faint band over each local day from its 1991–2020 normal low to its normal
    /// high, for the days whose summary carries them (the place's climate is cached).
    static func drawNormals(_ svg: inout Writer, _ input: Input, _ time: TimeAxis, _ axis: ValueAxis) {
        guard input.hasNormals else { return }
        svg.open("g", [("fill", Colour.normal), ("fill-opacity", normalOpacity)])
        for day in time.days {
            guard let summary = input.day(on: LocalTime.date(days: day)), let low = summary.normalLow,
                let high = summary.normalHigh
            else { continue }
            let left = time.x(max(time.midnight(day), time.start))
            let right = time.x(min(time.midnight(day + 1), time.end))
            let (top, bottom) = (axis.y(max(low, high)), axis.y(min(low, high)))
            guard right - left >= 0.1 else { continue }
            svg.element(
                "rect",
                [
                    ("x", Writer.number(left)), ("y", Writer.number(top)), ("width", Writer.number(right - left)),
                    ("height", Writer.number(max(bottom - top, 1))),
                ])
        }
        svg.close("g")
    }
}
