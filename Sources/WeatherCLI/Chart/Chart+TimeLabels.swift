import WeatherDomain

extension Chart {
    /// The local hours between midnights below the plot, as far apart as their labels need.
    static func drawHours(_ svg: inout Writer, _ time: TimeAxis) {
        guard let every = [1, 3, 6, 12].first(where: { time.pixels(Int64($0) * 3_600_000) >= 40 }) else { return }
        svg.open("g", [("font-size", "10.0"), ("fill", Colour.faint), ("text-anchor", "middle")])
        for day in time.days {
            for hour in stride(from: every, to: 24, by: every) {
                guard let moment = time.moment(day, hour: Int64(hour)), moment > time.start, moment < time.end else {
                    continue
                }
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
    /// margin around the steps) is not labelled, unless there are no steps at all or it is a day after the
    /// steps drawn from its summary.
    static func drawDays(_ svg: inout Writer, _ input: Input, _ time: TimeAxis) {
        let stepped = Set(input.steps.map { time.localDay($0.time) } + input.daysAfterSteps.map(\.day))
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
}
