import WeatherDomain

extension BarView {
    /// How many forecast steps the tooltip lists before the days.
    static let tooltipSteps = 6

    /// waybar's tooltip: the place, the next forecast steps, the days ahead (one a line, in the answers'
    /// units, which are the bar's, with the day's confidence label when the place's ensemble spread is cached),
    /// then the alerts (in the bar's units too) and the staleness.
    var tooltip: String {
        var lines = [OneLine.placeName(current["location"] ?? .null)]
        if let nowcast, nowcast["covered"]?.boolValue == true {
            lines.append(
                NowcastText.sparkline(nowcast, minutes: 60) + "  "
                    + (nowcast["summary"]?["sentence"]?.stringValue ?? ""))
        }
        if let forecast {
            let page = ForecastPage(forecast)
            lines += nextSteps(page).map { step(page, $0) }
            lines += (forecast["daily"]?.arrayValue ?? []).map { day in
                let date = day["date"]?.stringValue ?? ""
                let chance = day["pop"]?.doubleValue ?? page.rainChance(on: date)
                return LocalTime.dayLabel(date) + "  " + Symbols.emoji(day["condition"] ?? .null, night: false) + " "
                    + page.quantities.temperature(day["min"], signed: false) + " / "
                    + page.quantities.temperature(day["max"], signed: false)
                    + (chance.map { "  rain " + Quantities.percent($0) } ?? "")
                    + (day["spread"]?["label"]?.stringValue.map { "  \(TerminalText.safe($0)) confidence" } ?? "")
            }
        }
        lines += alerts.map { "⚠ " + ($0["message"]?.stringValue ?? "") }
        if stale { lines.append(staleness) }
        return lines.joined(separator: "\n")
    }

    /// The forecast steps ahead: the one holding now (begun less than 3 hours ago, the longest step a
    /// provider gives) and those after it, `tooltipSteps` at most.
    func nextSteps(_ page: ForecastPage) -> [(time: Timestamp, entry: JSONValue)] {
        let steps = page.entries.compactMap { entry in
            Timestamp(rfc3339: entry["time"]?.stringValue ?? "").map { (time: $0, entry: entry) }
        }
        var start = steps.firstIndex { $0.time.milliseconds > now.milliseconds } ?? steps.count
        if start > 0, steps[start - 1].time.milliseconds > now.milliseconds - 3 * 3_600_000 { start -= 1 }
        return Array(steps[start...].prefix(Self.tooltipSteps))
    }

    /// `14:00  🌦️ +3°C  rain 65%`: a step's local time, its emoji, temperature and chance of precipitation.
    private func step(_ page: ForecastPage, _ step: (time: Timestamp, entry: JSONValue)) -> String {
        LocalTime.clock(step.time, zone: page.zone).prefix(5) + "  "
            + Symbols.emoji(step.entry["condition"] ?? .null, night: page.isNight(step.time)) + " "
            + page.quantities.temperature(step.entry["temperature"])
            + (step.entry["pop"]?.doubleValue.map { "  rain " + Quantities.percent($0) } ?? "")
    }
}
