import WeatherDomain

/// An SVG chart of a `weather/forecast` result, for people: the temperature as a line, the chance of
/// precipitation as bars, a dashed separator at each local midnight, each day's date with its low and high,
/// nights shaded, each day's 1991–2020 normal low to high as a faint band behind them when the answer
/// carries it, an ensemble's 10–90 % band around the temperature when the answer carries it, and the place, the
/// units and the fetch time above.
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
        static let normal = "#16a34a"
    }

    /// The whole SVG document (ending with a newline) for a `weather/forecast` result (its 3-hourly steps)
    /// and, when given, the same forecast's `hourly` steps, drawn where they reach.
    static func svg(_ forecast: JSONValue, hourly: JSONValue? = nil) -> String {
        let input = Input(forecast, hourly: hourly)
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
        drawNormals(&svg, input, time, temperature)
        drawSpread(&svg, input, time, temperature)
        drawPrecipitation(&svg, input, time)
        drawMidnights(&svg, time)
        drawTemperature(&svg, input, time, temperature)
        drawDailyRanges(&svg, input, time, temperature)
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
