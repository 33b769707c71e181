import Foundation
import WeatherDomain

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

    /// The time axis: from half a step before the first step to half a step after the last, so that the
    /// bars fit, or to the end of the last day after the steps that the chart draws from its summary (with no
    /// steps, the days of the daily summaries).
    struct TimeAxis {
        static let day: Int64 = 86_400_000
        /// The plot's first and last moment, in milliseconds since 1970.
        var start: Int64
        var end: Int64
        /// The time between steps (the shortest gap; three hours when unknown).
        var step: Int64
        /// The place's clocks.
        var zone: ZoneOffsets
        /// The local days the plot shows (days since 1970), none when it shows more than 62 or no time at all.
        var days: [Int64] = []

        init(_ input: Input) {
            zone = input.zone
            let gaps = zip(input.steps.dropFirst(), input.steps).map { $0.time - $1.time }.filter { $0 > 0 }
            step = min(max(gaps.min() ?? 10_800_000, 900_000), Self.day)
            let dates = input.days.compactMap { LocalTime.days($0.date) }
            if let first = input.steps.first, let last = input.steps.last {
                start = first.time - Self.span(of: 0, in: input.steps, step: step) / 2
                end = last.time + Self.span(of: input.steps.count - 1, in: input.steps, step: step) / 2
                if let after = input.daysAfterSteps.map(\.day).max() {
                    end = max(
                        end, zone.instant(ofWallClock: Timestamp(milliseconds: (after + 1) * Self.day)).milliseconds)
                }
            } else if let first = dates.min(), let last = dates.max() {
                start = zone.instant(ofWallClock: Timestamp(milliseconds: first * Self.day)).milliseconds
                end = zone.instant(ofWallClock: Timestamp(milliseconds: (last + 1) * Self.day)).milliseconds
            } else {
                (start, end) = (0, Self.day)
                return
            }
            let (firstDay, lastDay) = (localDay(start), localDay(end - 1))
            if lastDay - firstDay < 62 { days = Array(firstDay...lastDay) }
        }

        /// The time the step at `index` stands for: the gap to the next step (the last step's, the gap before
        /// it), within the bounds of `step`; `step` itself where there is no gap.
        static func span(of index: Int, in steps: [Input.Step], step: Int64) -> Int64 {
            let gap =
                index + 1 < steps.count
                ? steps[index + 1].time - steps[index].time
                : index > 0 ? steps[index].time - steps[index - 1].time : 0
            return gap > 0 ? min(max(gap, 900_000), Self.day) : step
        }

        /// The time the step at `index` of `input` stands for (`span(of:in:step:)`).
        func span(of index: Int, in steps: [Input.Step]) -> Int64 { Self.span(of: index, in: steps, step: step) }

        /// The local midnights inside the plot.
        var midnights: [Int64] { days.dropFirst().map(midnight) }

        /// The local day (days since 1970) of a moment.
        func localDay(_ time: Int64) -> Int64 {
            Int64.floorDivision(zone.wallClock(at: Timestamp(milliseconds: time)).milliseconds, Self.day)
        }

        /// The moment a local day begins.
        func midnight(_ day: Int64) -> Int64 { clockTime(day, hour: 0) }

        /// The moment the clocks read `hour`:00 on a local day; nil when they skip it (set forward past it).
        func moment(_ day: Int64, hour: Int64) -> Int64? {
            let time = clockTime(day, hour: hour)
            let wall = zone.wallClock(at: Timestamp(milliseconds: time)).milliseconds
            return wall == day * Self.day + hour * 3_600_000 ? time : nil
        }

        /// The moment the clocks read `hour`:00 on a local day, or just after it when they skip it.
        private func clockTime(_ day: Int64, hour: Int64) -> Int64 {
            zone.instant(ofWallClock: Timestamp(milliseconds: day * Self.day + hour * 3_600_000)).milliseconds
        }

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
            // The days drawn from their summaries after the steps fit too.
            values += input.daysAfterSteps.flatMap { [$0.summary.min, $0.summary.max].compactMap { $0 } }
            // The normal band fits in the plot too, and so does the ensemble's.
            values += input.days.flatMap { [$0.normalLow, $0.normalHigh].compactMap { $0 } }
            values += input.steps.flatMap { [$0.low, $0.high].compactMap { $0 } }
            values += input.daysAfterSteps.flatMap { [$0.summary.spreadLow, $0.summary.spreadHigh].compactMap { $0 } }
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
