import WeatherDomain
import WeatherService

/// `weatherd alerts`: the alerts raised, most recent first.
enum AlertsCommand {
    static let command = Command(
        name: "alerts", summary: "the alerts raised (temperature drop, severe weather, daily summary)",
        usage: "usage: weatherd alerts [--limit N] [--units metric|imperial|standard] [--json] [options]",
        details: """
            Prints the alerts raised so far, most recent first (`alerts/list`): when, for which place, the rule
            with the setting that raised it (a temperature drop's threshold, the air quality level), and what.
            `--limit` (1…1000, default 20) caps how many. Their texts are in the settings' units, or in those
            `--units` names.

            example:
              weatherd alerts --limit 5
            """,
        valueFlags: ["--limit", "--units"],
        check: { invocation in
            if let text = invocation.values["--limit"], Int(text).map({ (1...1000).contains($0) }) != true {
                throw UsageError("--limit must be a whole number from 1 to 1000")
            }
            try NowCommand.checkUnits(invocation)
        }
    ) { context in
        let limit = Int64(context.invocation.values["--limit"] ?? "") ?? 20
        var params: [String: JSONValue] = ["limit": .int(limit)]
        if let units = context.invocation.values["--units"] { params["units"] = .string(units) }
        let result = try await context.call("alerts/list", params)
        if context.printedAsJSON(result) { return CLI.Exit.ok }
        let alerts = result["alerts"]?.arrayValue ?? []
        if alerts.isEmpty {
            context.output.print("no alerts")
            return CLI.Exit.ok
        }
        context.output.print(Text.table(alerts.map(row)))
        return CLI.Exit.ok
    }

    /// An alert's row: when, where (the place's name, or its coordinates), the rule with its setting, and
    /// the message.
    static func row(_ alert: JSONValue) -> [String] {
        [
            alert["raisedAt"]?.stringValue ?? "", PlaceText.name(alert["place"]), rule(alert),
            alert["message"]?.stringValue ?? "",
        ]
    }

    /// The rule and the setting that raised the alert, as it recorded it: `temp_drop (> 5 °C)`,
    /// `air_quality (≥ poor)`; the rule alone for the rules that are only on or off, and for alerts raised
    /// before the setting was recorded.
    static func rule(_ alert: JSONValue) -> String {
        let rule = alert["rule"]?.stringValue ?? ""
        let details = alert["details"]
        switch rule {
        case "temp_drop":
            guard let threshold = details?["threshold"]?.doubleValue else { return rule }
            let unit = alert["units"]?["temperature"]?.stringValue ?? "°C"
            return "\(rule) (> \(Text.number(threshold)) \(unit))"
        case "air_quality":
            return details?["threshold"]?.stringValue.map { "\(rule) (≥ \($0))" } ?? rule
        default:
            return rule
        }
    }
}
