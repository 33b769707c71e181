import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd events [--follow]`: the audit trail, one readable line per event.
package enum EventsCommand {
    /// `--after-seq N`: the events after this seq.
    static let afterSeq = CommandOption(
        "--after-seq", value: OptionValue<Int>.integer(0...Int.max).map({ Int64($0) }, back: { Int($0) }),
        help: "the events after this seq (default the last --limit)")
    /// `--type TYPE`: one event type.
    static let type = CommandOption(
        "--type", value: .text("TYPE"), help: "only events of this type, e.g. weather.fetched")
    /// `--limit N`: how many events.
    static let limit = CommandOption(
        "--limit", value: .integer(1...1000), default: 20, help: "how many events at most")
    /// `--follow`: then every new event.
    static let follow = CommandOption("--follow", help: "then print every new event as it is committed")

    static let command = Command(
        name: "events", summary: "the audit trail: one line per event, --follow for new ones",
        details: """
            Prints the log's events, one line each: seq, time, type, cause and what it was about. Without
            --after-seq, the last --limit (default 20) events; with --follow, then every new one as it is
            committed, until interrupted. --type keeps one event type (e.g. weather.fetched); --json prints
            each event's envelope as one JSON line.

            example:
              weatherd events --limit 5
              weatherd events --follow --type weather.fetched
            """,
        options: [afterSeq.option, type.option, limit.option, follow.option]
    ) { context in
        let limit = Int64(context.invocation[Self.limit])
        let types: JSONValue? = context.invocation[Self.type].map { .array([.string($0)]) }
        var afterSeq: Int64
        if let given = context.invocation[Self.afterSeq] {
            afterSeq = given
        } else {
            let status = try await context.call("service/status")
            afterSeq = max(0, (status["lastSeq"]?.intValue ?? 0) - limit)
        }
        let follow = context.invocation[Self.follow]
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
