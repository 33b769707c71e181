import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd events [--follow]`: the audit trail, one readable line per event.
package enum EventsCommand {
    /// `--after-seq N`: the events after this seq.
    static let afterSeq = CommandOption(
        "--after-seq", value: OptionValue<Int>.integer(0...Int.max).map({ Int64($0) }, back: { Int($0) }),
        help: "only events after this seq")
    /// `--type TYPE`: one event type.
    static let type = CommandOption(
        "--type", value: .text("TYPE"), help: "only events of this type, e.g. weather.fetched")
    /// `--limit N`: how many events.
    static let limit = CommandOption(
        "--limit", value: .integer(1...1000), default: 20, help: "how many events at most")
    /// `--since TIME`: the events at or after a time.
    static let since = CommandOption(
        "--since",
        value: OptionValue<Timestamp>(
            placeholder: "TIME",
            read: { text throws(OptionRefusal) in
                guard let time = Timestamp(rfc3339: text) else {
                    throw OptionRefusal("must be a time in RFC 3339, e.g. 2026-11-27T06:00:00Z")
                }
                return time
            }, write: { $0.description }),
        help: "only events at or after TIME (RFC 3339)")
    /// `--follow`: then every new event.
    static let follow = CommandOption("--follow", help: "then print every new event as it is committed")

    static let command = Command(
        name: "events", summary: "the audit trail: one line per event, --follow for new ones",
        details: """
            Prints the newest --limit (1…1000, default 20) events of the log, oldest first, one line each: seq,
            time, type, cause and what it was about. --type keeps one event type (e.g. weather.fetched),
            --since TIME (RFC 3339, e.g. 2026-11-27T06:00:00Z) those at or after TIME, --after-seq N those
            after seq N; --limit then keeps the newest of them, however far back in the log they are. With
            --follow, then every new one as it is committed, until interrupted. --json prints each event's
            envelope as one JSON line.

            With --nats URL (and --nats-stream, --nats-subject-prefix, --nats-credentials as for serve) it reads
            the JetStream stream instead: every machine's log shipped there, in the stream's order, each line
            led by its log id and its machine's name (--json: the envelope with logId and host); --log-id ID,…
            keeps those logs, and --type, --since, --limit and --follow (asking the stream each second) work as
            above. No daemon is started for it.

            example:
              weatherd events --limit 5
              weatherd events --type alert.raised --since 2026-11-27T00:00:00Z
              weatherd events --follow --type weather.fetched
              weatherd events --nats nats://127.0.0.1:4222 --type favorite.added --limit 50
            """,
        options: [afterSeq.option, type.option, since.option, limit.option, follow.option, logIDs.option],
        local: { context in await fleet(context) }
    ) { context in
        var filter: [String: JSONValue] = [:]
        if let type = context.invocation[Self.type] { filter["types"] = .array([.string(type)]) }
        let since = context.invocation[Self.since]
        if let since { filter["since"] = .string(since.description) }
        let lastSeq = try await context.call("service/status")["lastSeq"]?.intValue ?? 0
        let events = try await newest(
            context.invocation[Self.limit], matching: filter, after: context.invocation[Self.afterSeq] ?? 0,
            upTo: lastSeq
        ) { params in try await context.call("events/query", params) }
        for event in events { print(event, context) }
        guard context.invocation[Self.follow] else { return CLI.Exit.ok }
        // The subscription replays from the log after what was read, then goes on live, with no gap between.
        var subscription: [String: JSONValue] = ["afterSeq": .int(lastSeq)]
        subscription["types"] = filter["types"]
        _ = try await context.call("events/subscribe", subscription)
        for await notification in context.notifications {
            switch notification.method {
            case "events/event":
                let time = notification.params["ts"]?.stringValue.flatMap { Timestamp(rfc3339: $0) }
                if let since, let time, time < since { continue }
                print(notification.params, context)
            case "events/lagged", "events/error":
                throw RPCError.application(
                    "subscription_ended",
                    "the event feed ended: \(notification.params["message"]?.stringValue ?? notification.method)")
            default: continue
            }
        }
        return CLI.Exit.failed
    }

    /// The newest `limit` events matching `filter` (`types`, `since`) with seqs after `floor` and up to
    /// `lastSeq`, oldest first.
    ///
    /// `events/query` reads forwards and its pages are capped by size, so the log is read from its end
    /// backwards in windows, each four times the one before, each paged through with `nextCursor` until
    /// an event past the window: neither the page's size nor a type that is rare stops short of `limit`.
    static func newest(
        _ limit: Int, matching filter: [String: JSONValue], after floor: Int64, upTo lastSeq: Int64,
        query: ([String: JSONValue]) async throws -> JSONValue
    ) async throws -> [JSONValue] {
        var found: [JSONValue] = []
        var upper = lastSeq
        var width = Int64(limit)
        while upper > floor {
            let start = max(floor, upper - width)
            var window: [JSONValue] = []
            var params = filter.merging(["afterSeq": .int(start), "limit": 1000]) { $1 }
            paging: while true {
                let page = try await query(params)
                for event in page["events"]?.arrayValue ?? [] {
                    guard let seq = event["seq"]?.intValue, seq <= upper else { break paging }
                    window.append(event)
                }
                guard let cursor = page["nextCursor"] else { break }
                params["cursor"] = cursor
            }
            found = window + found
            if found.count >= limit { break }
            upper = start
            width = min(width * 4, 1 << 50)
        }
        return Array(found.suffix(limit))
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
