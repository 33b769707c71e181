import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd models [PLACE]`: several deterministic models' days side by side, with how far they agree.
enum ModelsCommand {
    /// `--days N`: how many days from today.
    static let days = CommandOption(
        "--days", value: .integer(1...Engine.confidenceDays), help: "how many days from today (default all)")
    /// `--models A,B,…`: the models compared.
    static let models = CommandOption(
        "--models", value: .text("A,B,…"), help: "the Open-Meteo models compared, 2 to 8 (not best_match)")

    static let command = Command(
        name: "models", summary: "how the weather models agree: each model's days side by side",
        details: """
            PLACE is a city, LAT,LON, a favorite's name or id, or nothing for the current location. Prints one
            row per local day: each model's low and high, the range of the models' highs, and the model
            furthest from the others (its high and low against the others' means; named from three models on).
            A model that has nothing for a day is shown as – and named below when it is missing altogether.
            The models are ECMWF IFS, GFS, ICON, GEM and the UK Met Office (ecmwf_ifs025, gfs_seamless,
            icon_seamless, gem_seamless, ukmo_seamless) unless --models names others (Open-Meteo's names, 2 to
            8, never best_match); --days N (1…16) how many days; --json the weather/compareModels result.

            example:
              weatherd models Berlin --days 5
              weatherd models 48.86,2.35 --models ecmwf_ifs025,gfs_seamless,meteofrance_seamless
            """,
        forms: [ArgumentForm([Argument.place.orNone])],
        options: [days.option, models.option, SharedOptions.units.option]
    ) { context in
        var params = try await NowCommand.weatherParams(context)
        if let days = context.invocation[Self.days] { params["days"] = .int(Int64(days)) }
        if let models = context.invocation[Self.models] {
            params["models"] = .array(
                models.split(separator: ",").map { JSONValue.string(String($0).trimmingWhitespace) })
        }
        let result = try await context.call("weather/compareModels", params)
        if context.printedAsJSON(result) { return CLI.Exit.ok }
        context.output.print(text(result, context.output))
        return CLI.Exit.ok
    }

    /// The heading, a row per day, then the models missing at the place.
    static func text(_ result: JSONValue, _ output: Output) -> String {
        let quantities = Quantities(result["units"])
        let models = (result["models"]?.arrayValue ?? []).compactMap(\.stringValue)
        let fetched = Timestamp(rfc3339: result["fetchedAt"]?.stringValue ?? "") ?? Timestamp(milliseconds: 0)
        var lines = [
            output.styled(PlaceText.name(result["location"]), "1") + " · \(models.count) models · fetched "
                + LocalTime.stamp(fetched, zone: .of(location: result["location"], around: fetched))
        ]
        let days = result["days"]?.arrayValue ?? []
        var rows = [["day"] + models.map(TerminalText.safe) + ["highs", "furthest"]]
        for day in days {
            let figures = day["models"]?.arrayValue ?? []
            var row = [LocalTime.dayLabel(day["date"]?.stringValue ?? "")]
            for model in models {
                let item = figures.first { $0["model"]?.stringValue == model }
                if let item, item["high"] != nil || item["low"] != nil {
                    row.append(
                        quantities.temperature(item["low"], signed: false) + "/"
                            + quantities.temperature(item["high"], signed: false))
                } else {
                    row.append("–")
                }
            }
            let high = day["range"]?["high"]
            row.append(
                high.map {
                    quantities.temperature($0["lowest"], signed: false) + "…"
                        + quantities.temperature($0["highest"], signed: false)
                } ?? "–")
            row.append(TerminalText.safe(day["furthest"]?["model"]?.stringValue ?? ""))
            rows.append(row)
        }
        lines += days.isEmpty ? ["no day any model reaches"] : output.headedTable(rows)
        let missing = (result["missingModels"]?.arrayValue ?? []).compactMap(\.stringValue)
        if !missing.isEmpty {
            lines.append("missing at this place: " + missing.map(TerminalText.safe).joined(separator: ", "))
        }
        lines.append(output.styled("each model's low/high; best_match is never one of them", "2"))
        return lines.joined(separator: "\n")
    }
}
