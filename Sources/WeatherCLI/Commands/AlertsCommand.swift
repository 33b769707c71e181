import WeatherDomain
import WeatherService

/// `weatherd alerts`: the alerts raised, most recent first.
enum AlertsCommand {
    /// `--limit N`: how many alerts.
    static let limit = CommandOption(
        "--limit", value: .integer(1...1000), default: 20, help: "how many alerts at most, most recent first")

    static let command = Command(
        name: "alerts", summary: "the alerts raised, and the rules that raise them (shown, turned on or off)",
        details: """
            Prints the alerts raised so far, most recent first (`alerts/list`): when, for which place, the rule
            with the setting that raised it (a temperature drop's threshold, the air quality level), and what.
            `--limit` (1…1000, default 20) caps how many. Their texts are in the settings' units, or in those
            `--units` names.

            `alerts rules` prints each rule's settings: temp_drop, severe, daily_summary, official,
            air_quality, nowcast and forecast_change. `alerts on RULE` and `alerts off RULE` turn one on or off
            for every client of the data dir (`alerts/configure`), then print them all: --threshold sets
            temp_drop's drop (°C) or air_quality's level, --time the daily summary's local time. Which places
            are alerted about is each favorite's own: `weatherd favorites notify FAVORITE on|off`.

            example:
              weatherd alerts --limit 5
              weatherd alerts rules
              weatherd alerts on air_quality --threshold "very poor"
              weatherd alerts on daily_summary --time 07:30
            """,
        forms: AlertRulesCommand.forms,
        options: [limit.option, SharedOptions.units.option] + AlertRulesCommand.options,
        check: AlertRulesCommand.check
    ) { context in
        if context.invocation.positional.first != nil { return try await AlertRulesCommand.run(context) }
        let limit = Int64(context.invocation[Self.limit])
        var params: [String: JSONValue] = ["limit": .int(limit)]
        if let units = context.invocation[SharedOptions.units] { params["units"] = .string(units) }
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
