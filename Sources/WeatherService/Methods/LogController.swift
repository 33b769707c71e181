import WeatherDomain
import WeatherEngine

/// `events/query`, `state/verify`, `service/status` and `metrics/get`.
struct LogController: Controller {
    let log: any LogFacet

    var methods: [String: MethodHandler] {
        [
            "events/query": MethodHandler(params: ["afterSeq", "types", "since", "until", "limit", "cursor"]) {
                [log] call in
                log.queryEvents(try Self.filter(call.params)).map { $0.json }
            },
            "state/verify": MethodHandler { [log] _ in Completion { try await log.verify().json } },
            "service/status": MethodHandler { [log] _ in Completion { await log.status().json } },
            // A one-time link into the HTTP face for a browser (`weatherd open`): only over the socket, whose peer
            // is the user; no HTTP route reaches it.
            "http/open": MethodHandler { [log] _ in
                let link = try log.browserLink()
                return Completion { ["url": .string(link.url), "expiresInSeconds": .int(link.expiresInSeconds)] }
            },
            // The Prometheus exposition, as `GET /metrics` serves it: for `weatherd metrics` and anyone without HTTP.
            "metrics/get": MethodHandler { [log] _ in
                Completion {
                    [
                        "contentType": .string(Exposition.contentType),
                        "text": .string(MetricsText.render(await log.metrics())),
                    ]
                }
            },
        ]
    }

    /// The filters and page of an `events/query`; the cursor `s<seq>` continues after that seq.
    static func filter(_ params: FieldReader) throws(FieldError) -> EventFilter {
        var afterSeq = try params.int("afterSeq", in: 0...(1 << 53)) ?? 0
        if let cursor = try params.optionalString("cursor") {
            guard cursor.hasPrefix("s"), let seq = Int64(cursor.dropFirst()), seq >= 0 else {
                throw FieldError(path: "params.cursor", problem: "is not a cursor events/query returned")
            }
            afterSeq = max(afterSeq, seq)
        }
        return EventFilter(
            afterSeq: afterSeq, types: try params.optionalStrings("types").map(Set.init),
            since: try params.optionalTimestamp("since"), until: try params.optionalTimestamp("until"),
            limit: Int(try params.int("limit", in: 1...1000) ?? 100))
    }
}
