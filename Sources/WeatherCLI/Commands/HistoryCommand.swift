import WeatherDomain
import WeatherService

/// `weatherd history PLACE --from DATE --to DATE`: the past days at a place, as a table.
enum HistoryCommand {
    /// `--from DATE`: the first day.
    static let from = CommandOption("--from", value: .text("DATE"), help: "the first day, YYYY-MM-DD (required)")
    /// `--to DATE`: the last day.
    static let to = CommandOption("--to", value: .text("DATE"), help: "the last day, YYYY-MM-DD (required)")
    /// `--hourly`: the hours too.
    static let hourly = CommandOption("--hourly", help: "the hours too (shown with --json)")

    static let command = Command(
        name: "history", summary: "past days at a place since 1940 (ERA5): low, high, mean, rain, wind",
        details: """
            Prints one row per day from --from to --to (YYYY-MM-DD, the place's local dates, inclusive;
            1940-01-01 to today, at most 10 years): low, high, mean, precipitation, wind max, condition and
            where the day came from (era5 final, era5t preliminary, weatherd-log for the last days ERA5 does
            not reach yet, historical-forecast where weatherd's log has none either). Final days are kept for good, so asking again costs no call. --hourly asks for
            the hours too (shown with --json). --json prints the whole answer.

            example:
              weatherd history Enschede --from 2025-11-01 --to 2025-11-30
              weatherd history 52.22,6.89 --from 1953-01-31 --to 1953-02-01 --json | jq '.days[0]'
            """,
        forms: [ArgumentForm([Argument.place])],
        options: [from.option, to.option, hourly.option, SharedOptions.units.option],
        check: { invocation in
            for option in [from, to] where invocation[option] == nil {
                throw UsageError("\(option.option.name) DATE is required (YYYY-MM-DD)")
            }
        }
    ) { context in
        var params = try await NowCommand.weatherParams(context)
        params["from"] = .string(context.invocation[Self.from] ?? "")
        params["to"] = .string(context.invocation[Self.to] ?? "")
        if context.invocation[Self.hourly] { params["hourly"] = true }
        let result = try await context.call("weather/history", params)
        if context.printedAsJSON(result) { return CLI.Exit.ok }
        context.output.print(table(result, context.output))
        if let attribution = result["attribution"]?.stringValue {
            context.output.print(context.output.styled(attribution, "2"))
        }
        return CLI.Exit.ok
    }

    /// The place, then one row per day.
    static func table(_ result: JSONValue, _ output: Output) -> String {
        let units = result["units"]
        let degrees = units?["temperature"]?.stringValue ?? "°C"
        let depth = units?["precipitation"]?.stringValue ?? "mm"
        let speed = units?["windSpeed"]?.stringValue ?? "m/s"
        let value = { (day: JSONValue, member: String, unit: String) -> String in
            day[member]?.doubleValue.map { "\(Text.number($0)) \(unit)" } ?? "–"
        }
        var rows = [["date", "low", "high", "mean", "rain", "wind max", "condition", "source"]]
        for day in result["days"]?.arrayValue ?? [] {
            rows.append([
                day["date"]?.stringValue ?? "", value(day, "low", degrees), value(day, "high", degrees),
                value(day, "mean", degrees), value(day, "precipitation", depth), value(day, "windMax", speed),
                TerminalText.safe(day["condition"]?["text"]?.stringValue ?? ""), day["source"]?.stringValue ?? "none",
            ])
        }
        return ([PlaceText.name(result["location"])] + output.headedTable(rows)).joined(separator: "\n")
    }
}

/// `weatherd climate [PLACE] [--date DATE]`: what is normal for a calendar day, its records, and the forecast
/// against them.
enum ClimateCommand {
    /// `--date DATE`: the calendar day.
    static let date = CommandOption(
        "--date", value: .text("DATE"), help: "the calendar day, YYYY-MM-DD (default today at the place)")

    static let command = Command(
        name: "climate", summary: "the 1991–2020 normal and the records of a day, and the forecast against them",
        details: """
            Prints the 1991–2020 normal low and high at PLACE (as for `weatherd now`) for the calendar day of
            --date (YYYY-MM-DD, default today there; ±7 days around it), the record high and low on that
            day since 1940 with their years, and how the forecast's high compares. The first ask fetches
            every day since 1940 at the place once (kept a year). --json prints the whole answer.

            example:
              weatherd climate Enschede
              weatherd climate --date 2025-07-25 --json | jq '.records.high'
            """,
        forms: [ArgumentForm([Argument.place.orNone])], options: [date.option, SharedOptions.units.option]
    ) { context in
        var params = try await NowCommand.weatherParams(context)
        if let date = context.invocation[Self.date] { params["date"] = .string(date) }
        let result = try await context.call("weather/climate", params)
        if context.printedAsJSON(result) { return CLI.Exit.ok }
        context.output.print(
            "\(PlaceText.name(result["location"])): \(TerminalText.safe(result["sentence"]?.stringValue ?? ""))")
        if let attribution = result["attribution"]?.stringValue {
            context.output.print(context.output.styled(attribution, "2"))
        }
        return CLI.Exit.ok
    }
}
