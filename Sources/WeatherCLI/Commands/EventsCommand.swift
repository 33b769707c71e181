import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd events [--follow]`: the audit trail, one readable line per event.
package enum EventsCommand {
    static let command = Command(
        name: "events", summary: "the audit trail: one line per event, --follow for new ones",
        usage: "usage: weatherd events [--after-seq N] [--type TYPE] [--limit N] [--follow] [--json] [options]",
        details: """
            Prints the log's events, one line each: seq, time, type, cause and what it was about. Without
            --after-seq, the last --limit (default 20) events; with --follow, then every new one as it is
            committed, until interrupted. --type keeps one event type (e.g. weather.fetched); --json prints
            each event's envelope as one JSON line.

            example:
              weatherd events --limit 5
              weatherd events --follow --type weather.fetched
            """,
        valueFlags: ["--after-seq", "--type", "--limit"], switchFlags: ["--follow"],
        check: { invocation in
            if let text = invocation.values["--after-seq"], Int64(text).map({ $0 >= 0 }) != true {
                throw UsageError("--after-seq must be a whole number, 0 or more")
            }
            if let text = invocation.values["--limit"], Int(text).map({ (1...1000).contains($0) }) != true {
                throw UsageError("--limit must be a whole number from 1 to 1000")
            }
        }
    ) { context in
        let values = context.invocation.values
        let limit = Int64(values["--limit"] ?? "") ?? 20
        let types: JSONValue? = values["--type"].map { .array([.string($0)]) }
        var afterSeq: Int64
        if let given = values["--after-seq"].flatMap({ Int64($0) }) {
            afterSeq = given
        } else {
            let status = try await context.call("service/status")
            afterSeq = max(0, (status["lastSeq"]?.intValue ?? 0) - limit)
        }
        let follow = context.invocation.switches.contains("--follow")
        if follow {
            // The subscription replays from the log, then goes on live, with no gap between the two.
            var params: [String: JSONValue] = ["afterSeq": .int(afterSeq)]
            if let types { params["types"] = types }
            _ = try await context.call("events/subscribe", params)
            for await notification in context.notifications {
                switch notification.method {
                case "events/event": print(notification.params, context)
                case "events/lagged", "events/error":
                    throw RPCError.application(
                        "subscription_ended",
                        "the event feed ended: \(notification.params["message"]?.stringValue ?? notification.method)")
                default: continue
                }
            }
            return CLI.Exit.failed
        }
        var params: [String: JSONValue] = ["afterSeq": .int(afterSeq), "limit": .int(limit)]
        if let types { params["types"] = types }
        let page = try await context.call("events/query", params)
        for event in page["events"]?.arrayValue ?? [] { print(event, context) }
        return CLI.Exit.ok
    }

    private static func print(_ event: JSONValue, _ context: Context) {
        if context.json {
            var envelope = event.objectValue ?? [:]
            envelope["subscriptionId"] = nil
            return context.output.print(JSONValue.object(envelope).jsonString)
        }
        context.output.print(line(event))
    }

    /// `seq  time  type  cause  summary`: the summary picks the data members a person looks for (a favorite's
    /// change shows the favorite after it, with what changed: a rename shows the new name).
    package static func line(_ event: JSONValue) -> String {
        var data = event["data"] ?? .null
        var summary: [String] = []
        if let favorite = data["favorite"], case .object(var members) = data {
            members["favorite"] = nil
            for (key, value) in favorite.objectValue ?? [:] where members[key] == nil { members[key] = value }
            data = .object(members)
            if let changed = data["changed"]?.arrayValue?.compactMap(\.stringValue), !changed.isEmpty {
                summary.append("changed=\(changed.joined(separator: ","))")
            }
        }
        for key in ["name", "key", "id", "url", "status", "error", "units", "reason", "message"] {
            guard let value = data[key] else { continue }
            switch value {
            case .string(let text): summary.append("\(key)=\(text)")
            case .int(let number): summary.append("\(key)=\(number)")
            default: continue
            }
        }
        if let call = data["call"], let url = call["url"]?.stringValue {
            summary.append("url=\(url)")
            if let status = call["status"]?.intValue { summary.append("status=\(status)") }
        }
        return [
            "\(event["seq"]?.intValue ?? 0)", event["ts"]?.stringValue ?? "", event["type"]?.stringValue ?? "",
            event["cause"]?.stringValue ?? "-", summary.joined(separator: " "),
        ].joined(separator: "  ")
    }
}
