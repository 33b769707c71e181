import WeatherDomain

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
            parts.append("fetched \(Dates.dateTime(fetchedAt, zone: input.zone))")
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
        // With both bands, the normal's key moves left to make room for the spread's.
        let normalX = input.hasSpread ? 560.0 : 580.0
        if input.hasNormals {
            svg.element(
                "rect",
                [
                    ("x", Writer.number(normalX)), ("y", top), ("width", "10.0"), ("height", "10.0"),
                    ("fill", Colour.normal), ("fill-opacity", Chart.normalOpacity),
                ])
            svg.element(
                "text", [("x", Writer.number(normalX + 16)), ("y", Writer.number(y))], text: "normal 1991–2020")
        }
        if input.hasSpread {
            let x = input.hasNormals ? 684.0 : 580.0
            svg.element(
                "rect",
                [
                    ("x", Writer.number(x)), ("y", top), ("width", "10.0"), ("height", "10.0"),
                    ("fill", Colour.temperature), ("fill-opacity", Chart.spreadOpacity),
                ])
            svg.element("text", [("x", Writer.number(x + 16)), ("y", Writer.number(y))], text: "10–90 %")
        }
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
            text +=
                ", \(input.steps.count) forecast steps from \(Dates.dateTime(first.time, zone: input.zone))"
                + " to \(Dates.dateTime(last.time, zone: input.zone))"
        } else {
            text += ", no forecast steps"
        }
        let after = input.daysAfterSteps.count
        if after > 0 {
            text += ", then \(after) day\(after == 1 ? "" : "s") from their lows, highs and chances of precipitation"
        }
        let days = input.days.map { day in
            let date = LocalTime.days(day.date).map { DayLabelForm.full.date($0) } ?? day.date
            var text = "\(date): low \(input.degrees(day.min)), high \(input.degrees(day.max))"
            if let low = day.normalLow, let high = day.normalHigh {
                text += ", normal \(input.degrees(low)) to \(input.degrees(high))"
            }
            if let low = day.spreadLow, let high = day.spreadHigh {
                text += ", 10–90 % of the ensemble \(input.degrees(low)) to \(input.degrees(high))"
            }
            return text
        }
        if !days.isEmpty { text += ". " + days.joined(separator: "; ") }
        return text + "."
    }

    /// The times the chart writes.
    enum Dates {
        /// `Fri 26 May 2023 09:50 (UTC+01:00)`: a moment (milliseconds since 1970) on the clocks of `zone`, at
        /// the offset valid then.
        static func dateTime(_ milliseconds: Int64, zone: ZoneOffsets) -> String {
            let offsetSeconds = zone.offsetSeconds(at: Timestamp(milliseconds: milliseconds))
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
