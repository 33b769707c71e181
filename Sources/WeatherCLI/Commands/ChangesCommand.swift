import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd changes [PLACE] [--date DATE | --days N]`: how the forecast of the coming days moved across the
/// fetches weatherd made, from its log.
enum ChangesCommand {
    /// `--date DATE`: one local date.
    static let date = CommandOption("--date", value: .text("DATE"), help: "one local date, YYYY-MM-DD")
    /// `--days N`: the next N local dates.
    static let days = CommandOption(
        "--days", value: .integer(ForecastDetail.days), help: "the next N local dates from today (default 3)")

    static let command = Command(
        name: "changes", summary: "how the forecast of the coming days changed, fetch by fetch (from the log)",
        details: """
            For each date (--date YYYY-MM-DD, or the next --days N local dates from today, default 3) at
            PLACE (as for `weatherd now`), prints what changed since the first forecast weatherd fetched of
            it ("Saturday's high has dropped from 14 °C to 9 °C since Thursday; rain chance up from 20 % to
            70 %"), then the first forecast and every fetch that changed it: low, high, rain chance, rain
            and condition. Read from weatherd's log alone: no weather call. --json prints the whole answer,
            every fetch included.

            example:
              weatherd changes Enschede
              weatherd changes --date 2026-11-28 --json | jq '.dates[0].changes'
            """,
        forms: [ArgumentForm([Argument.place.orNone])],
        options: [date.option, days.option, SharedOptions.units.option],
        check: { invocation in
            if invocation[date] != nil, invocation[days] != nil { throw UsageError("give --date or --days, not both") }
        }
    ) { context in
        var params = try await NowCommand.weatherParams(context)
        if let date = context.invocation[Self.date] { params["date"] = .string(date) }
        if let days = context.invocation[Self.days] { params["days"] = .int(Int64(days)) }
        let result = try await context.call("weather/forecastChanges", params)
        if context.printedAsJSON(result) { return CLI.Exit.ok }
        context.output.print(text(result, context.output))
        return CLI.Exit.ok
    }

    /// The place, then per date its sentence and the fetches that changed it.
    static func text(_ result: JSONValue, _ output: Output) -> String {
        let units = result["units"]
        let degrees = units?["temperature"]?.stringValue ?? "°C"
        let depth = units?["precipitation"]?.stringValue ?? "mm"
        let zone = ZoneOffsets.fixed(result["utcOffsetSeconds"]?.intValue ?? 0)
        var lines = [PlaceText.name(result["location"])]
        for date in result["dates"]?.arrayValue ?? [] {
            lines.append("")
            lines.append(
                output.styled("\(date["weekday"]?.stringValue ?? "") \(date["date"]?.stringValue ?? "")", "1"))
            lines.append(TerminalText.safe(date["sentence"]?.stringValue ?? ""))
            let revisions = date["revisions"]?.arrayValue ?? []
            guard revisions.count > 1 else { continue }
            // The first forecast, then each fetch that changed something.
            let changed = Set((date["changes"]?.arrayValue ?? []).compactMap { $0["fetchedAt"]?.stringValue })
            var rows = [["fetched", "low", "high", "rain chance", "rain", "condition"]]
            for (index, revision) in revisions.enumerated() {
                let fetchedAt = revision["fetchedAt"]?.stringValue ?? ""
                guard index == 0 || changed.contains(fetchedAt) else { continue }
                rows.append([
                    Timestamp(rfc3339: fetchedAt).map {
                        "\(LocalTime.date($0, zone: zone)) \(LocalTime.clock($0, zone: zone).prefix(5))"
                    } ?? fetchedAt,
                    revision["low"]?.doubleValue.map { "\(Text.number($0)) \(degrees)" } ?? "–",
                    revision["high"]?.doubleValue.map { "\(Text.number($0)) \(degrees)" } ?? "–",
                    revision["pop"]?.doubleValue.map { "\(Int(($0 * 100).rounded())) %" } ?? "–",
                    revision["precipitation"]?.doubleValue.map { "\(Text.number($0)) \(depth)" } ?? "–",
                    TerminalText.safe(revision["condition"]?["text"]?.stringValue ?? ""),
                ])
            }
            lines.append(contentsOf: output.headedTable(rows))
            lines.append(output.styled("\(revisions.count) forecasts fetched; \(rows.count - 1) shown", "2"))
        }
        return lines.joined(separator: "\n")
    }
}
