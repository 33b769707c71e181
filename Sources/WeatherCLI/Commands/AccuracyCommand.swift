import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd accuracy [PLACE]`: how good the forecasts weatherd fetched for a place have been, from its log.
enum AccuracyCommand {
    static let command = Command(
        name: "accuracy", summary: "how good the forecasts fetched for a place have been (from the log)",
        details: """
            PLACE is a city, LAT,LON, a favorite's name or id, or nothing for the current location. For every
            forecast weatherd fetched for the place in the last year (its log, compacted days included) and
            every day since observed, prints a sentence ("Open-Meteo's day-3 highs here were off by 1.4 °C on
            average over 41 days (too warm by 0.3 °C)"), then per provider and lead time (1…7 days) the mean
            absolute error and bias of the daily high and low, and the hit rate and Brier score of a wet day
            (1 mm or more). What happened is ERA5 from Open-Meteo's archive once it covers the day (about 5 days
            later), else the current readings weatherd logged that day (a reading in each quarter of the day;
            temperatures only). No figure under 10 days (5 wet days for the hit rate): the counts say how much
            there is. --json prints the weather/accuracy result.

            example:
              weatherd accuracy Berlin
              weatherd accuracy --json | jq '.providers[0].leads[2]'
            """,
        forms: [ArgumentForm([Argument.place.orNone])],
        options: [SharedOptions.units.option]
    ) { context in
        let result = try await context.call("weather/accuracy", try await NowCommand.weatherParams(context))
        if context.printedAsJSON(result) { return CLI.Exit.ok }
        context.output.print(text(result, context.output))
        return CLI.Exit.ok
    }

    /// The place, the sentence, a table per provider, and what observed the days.
    static func text(_ result: JSONValue, _ output: Output) -> String {
        let unit = result["units"]?["temperature"]?.stringValue ?? "°C"
        var lines = [
            output.styled(PlaceText.name(result["location"]), "1") + " · forecasts of "
                + "\(result["from"]?.stringValue ?? "?") to yesterday",
            TerminalText.safe(result["sentence"]?.stringValue ?? ""),
        ]
        let degrees = { (value: JSONValue?, signed: Bool) -> String in
            guard let value = value?.doubleValue else { return "–" }
            return (signed && value > 0 ? "+" : "") + Text.number(value) + unit
        }
        for provider in result["providers"]?.arrayValue ?? [] {
            lines.append("")
            lines.append(output.styled(TerminalText.safe(provider["name"]?.stringValue ?? ""), "1"))
            var rows = [
                ["lead", "days", "high error", "high bias", "low error", "low bias", "wet days", "hit rate", "Brier"]
            ]
            for lead in provider["leads"]?.arrayValue ?? [] {
                let wet = lead["wetDay"]
                rows.append([
                    "\(lead["lead"]?.intValue ?? 0) d", "\(lead["high"]?["count"]?.intValue ?? 0)",
                    degrees(lead["high"]?["meanAbsoluteError"], false), degrees(lead["high"]?["bias"], true),
                    degrees(lead["low"]?["meanAbsoluteError"], false), degrees(lead["low"]?["bias"], true),
                    "\(wet?["wetDays"]?.intValue ?? 0)/\(wet?["days"]?.intValue ?? 0)",
                    wet?["hitRate"]?.doubleValue.map(Quantities.percent) ?? "–",
                    wet?["brier"]?.doubleValue.map { Text.number($0, decimals: 3) } ?? "–",
                ])
            }
            lines += output.headedTable(rows)
        }
        let observed = result["observed"]
        let sources = ["era5", "era5t", "weatherd-log"].compactMap { source in
            observed?[source]?.intValue.flatMap { $0 > 0 ? "\($0) by \(source)" : nil }
        }
        var note = "days observed: " + (sources.isEmpty ? "none yet" : sources.joined(separator: ", "))
        if let pending = result["pending"]?.intValue, pending > 0 { note += "; \(pending) not observed yet" }
        lines.append("")
        lines.append(output.styled(note + "; – where fewer than \(result["minimumDays"]?.intValue ?? 10) days", "2"))
        for warning in result["warnings"]?.arrayValue ?? [] {
            lines.append(output.styled(TerminalText.safe(warning.stringValue ?? ""), "2"))
        }
        return lines.joined(separator: "\n")
    }
}
