/// Payload of `ensemble.fetched`: one call for a place's forecast spread (Open-Meteo's Ensemble API for one
/// model, or MET Norway's forecast and its published percentiles), the spread it gave per day and per hour, and
/// the audit facts of the call.
///
/// The members' values are not logged, only their percentiles and counts (`EnsembleSummary`): the spread is what
/// every answer is made of, and 51 members' hours would be some hundred kilobytes a fetch.
package struct EnsembleFetched: Sendable, Equatable {
    /// The place's cache key.
    package var key: String
    package var summary: EnsembleSummary
    package var call: UpstreamCall

    package init(key: String, summary: EnsembleSummary, call: UpstreamCall) {
        self.key = key
        self.summary = summary
        self.call = call
    }

    /// The fetch kind, in `weather.fetch_failed`.
    package static let fetchKind = "ensemble"

    /// The cache entry a fetch fills: `<model>|<key>` (the model `met-norway` for MET Norway's percentiles).
    package static func entry(model: String, key: String) -> String { "\(model)|\(key)" }

    /// This payload's cache entry.
    package var entry: String { Self.entry(model: summary.model, key: key) }

    /// What log compaction may strip once a later fetch of the same entry replaced this one.
    package static let payloadMembers: Set<String> = ["days", "hours"]
    /// The member naming the cache entry a fetch fills.
    package static let entryMembers = ["entry"]

    package var json: JSONValue {
        var object: [String: JSONValue] = ["key": .string(key), "entry": .string(entry)]
        summary.write(into: &object)
        call.write(into: &object)
        return .object(object)
    }

    /// Reads a payload; one whose days and hours compaction stripped reads with none.
    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        self.init(key: try r.string("key"), summary: try EnsembleSummary(r), call: try UpstreamCall(r))
    }
}
