import WeatherDomain
import WeatherService

/// `weatherd alerts`: the alerts raised, most recent first.
enum AlertsCommand {
    static let command = Command(
        name: "alerts", summary: "the alerts raised (temperature drop, severe weather, daily summary)",
        usage: "usage: weatherd alerts [--limit N] [--json] [options]",
        details: """
            Prints the alerts raised so far, most recent first (`alerts/list`): when, for which place, and
            what. `--limit` (1…1000, default 20) caps how many.

            example:
              weatherd alerts --limit 5
            """,
        valueFlags: ["--limit"],
        check: { invocation in
            if let text = invocation.values["--limit"], Int(text).map({ (1...1000).contains($0) }) != true {
                throw UsageError("--limit must be a whole number from 1 to 1000")
            }
        }
    ) { context in
        let limit = Int64(context.invocation.values["--limit"] ?? "") ?? 20
        let result = try await context.client.call("alerts/list", ["limit": .int(limit)])
        if context.json {
            context.output.print(result.jsonString)
            return CLI.Exit.ok
        }
        let alerts = result["alerts"]?.arrayValue ?? []
        if alerts.isEmpty {
            context.output.print("no alerts")
            return CLI.Exit.ok
        }
        context.output.print(
            Text.table(
                alerts.map { alert in
                    [
                        alert["raisedAt"]?.stringValue ?? "", alert["rule"]?.stringValue ?? "",
                        alert["message"]?.stringValue ?? "",
                    ]
                }))
        return CLI.Exit.ok
    }
}
