import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd confidence [PLACE]`: how sure the forecast is, a row per day with the spread of an ensemble's members
/// (or, with `--hourly`, a row per hour of the next 48).
enum ConfidenceCommand {
    /// `--days N`: how many days from today.
    static let days = CommandOption(
        "--days", value: .integer(1...Engine.confidenceDays), help: "how many days from today (default all)")
    /// `--hourly`: the next 48 hours rather than the days.
    static let hourly = CommandOption("--hourly", help: "one row per hour of the next 48")

    static let command = Command(
        name: "confidence", summary: "how sure the forecast is: the spread of an ensemble's members, day by day",
        details: """
            PLACE is a city, LAT,LON, a favorite's name or id, or nothing for the current location. Prints one
            row per local day: the 10–90 % range and the median of the members' highs and of their lows, the
            share of members with precipitation, the 10–90 % range of their precipitation, and a label (high:
            the bands at most 3 °C wide and at most 20 % or at least 80 % of members wet; low: a band of 6 °C or
            more, or 35–65 % wet; medium otherwise). From Open-Meteo's Ensemble API (ECMWF IFS 0.25°, 51
            members, or --ensemble-model), or MET Norway's own 10th and 90th percentiles with --provider
            met-norway. --hourly prints the next 48 hours instead; --days N (1…16) how many days; --json the
            weather/confidence result. The members' spread, not a calibrated probability.

            example:
              weatherd confidence Berlin --days 5
              weatherd confidence 48.86,2.35 --hourly --units imperial
            """,
        forms: [ArgumentForm([Argument.place.orNone])],
        options: [days.option, hourly.option, SharedOptions.units.option]
    ) { context in
        var params = try await NowCommand.weatherParams(context)
        if let days = context.invocation[Self.days] { params["days"] = .int(Int64(days)) }
        let result = try await context.call("weather/confidence", params)
        if context.printedAsJSON(result) { return CLI.Exit.ok }
        context.output.print(text(result, hourly: context.invocation[Self.hourly], context.output))
        return CLI.Exit.ok
    }

    /// The heading, then a row per day (or hour), then what the figures are.
    static func text(_ result: JSONValue, hourly: Bool, _ output: Output) -> String {
        let quantities = Quantities(result["units"])
        let fetched = Timestamp(rfc3339: result["fetchedAt"]?.stringValue ?? "") ?? Timestamp(milliseconds: 0)
        let zone = ZoneOffsets.of(location: result["location"], around: fetched)
        let members = result["method"]?.stringValue == "members"
        let source =
            members
            ? "\(TerminalText.safe(result["model"]?.stringValue ?? "")) ensemble, "
                + "\(result["members"]?.intValue.map(String.init) ?? "?") members"
            : "MET Norway's percentiles"
        var lines = [
            output.styled(PlaceText.name(result["location"]), "1") + " · " + source + " · fetched "
                + LocalTime.stamp(fetched, zone: zone)
        ]
        let wet = members ? "wet" : "chance"
        if hourly {
            let hours = result["hours"]?.arrayValue ?? []
            var rows = [["hour", "temperature 10–90 %", "median", wet]]
            for hour in hours {
                let time = Timestamp(rfc3339: hour["time"]?.stringValue ?? "") ?? fetched
                rows.append([
                    LocalTime.dayLabel(LocalTime.date(time, zone: zone)) + " "
                        + String(LocalTime.clock(time, zone: zone).prefix(5)),
                    range(hour["temperature"], quantities),
                    median(hour["temperature"], quantities),
                    hour["wet"]?.doubleValue.map(Quantities.percent) ?? "",
                ])
            }
            lines += hours.isEmpty ? ["no hour ahead the members reach"] : output.headedTable(rows)
        } else {
            let days = result["days"]?.arrayValue ?? []
            var rows = [["day", "high 10–90 %", "median", "low 10–90 %", "median", wet, "rain 10–90 %", "confidence"]]
            for day in days {
                rows.append([
                    LocalTime.dayLabel(day["date"]?.stringValue ?? ""), range(day["high"], quantities),
                    median(day["high"], quantities), range(day["low"], quantities),
                    median(day["low"], quantities),
                    day["wet"]?.doubleValue.map(Quantities.percent) ?? "",
                    day["precipitation"].map { precipitation($0, quantities) } ?? "",
                    day["label"]?.stringValue ?? "–",
                ])
            }
            lines += days.isEmpty ? ["no day the members reach"] : output.headedTable(rows)
        }
        lines.append(
            output.styled(
                members
                    ? "percentiles of the members: their spread, not a calibrated probability"
                    : "MET Norway's own percentiles; a day's are those of its warmest and coolest hours", "2"))
        return lines.joined(separator: "\n")
    }

    /// `9…13°C`: a spread's 10th to 90th percentile; `?` for an end it lacks.
    static func range(_ spread: JSONValue?, _ quantities: Quantities) -> String {
        let unit = quantities.units["temperature"]?.stringValue ?? "°C"
        return without(unit, quantities.temperature(spread?["p10"], signed: false)) + "…"
            + quantities.temperature(spread?["p90"], signed: false)
    }

    /// `11°C`: a spread's median; `–` when the source publishes none.
    static func median(_ spread: JSONValue?, _ quantities: Quantities) -> String {
        spread?["p50"] == nil ? "–" : quantities.temperature(spread?["p50"], signed: false)
    }

    /// `0.2–4.1mm`: a precipitation spread's 10th to 90th percentile.
    static func precipitation(_ spread: JSONValue, _ quantities: Quantities) -> String {
        let unit = quantities.units["precipitation"]?.stringValue ?? "mm"
        return without(unit, quantities.precipitation(spread["p10"])) + "–" + quantities.precipitation(spread["p90"])
    }

    /// `text` without `unit` at its end.
    private static func without(_ unit: String, _ text: String) -> String {
        text.hasSuffix(unit) ? String(text.dropLast(unit.count)) : text
    }
}
