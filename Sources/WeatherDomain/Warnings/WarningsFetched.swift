/// Payload of `warnings.fetched`: the official warnings in force from one source for one area, and the
/// audit facts of the call.
///
/// NWS is asked for a point, so its area is the place's cache key (`33.45,-112.07`); MeteoAlarm is asked for
/// a country's feed, so its area is the ISO country code (`BA`), and which of the feed's warnings concern a
/// place is decided when answering (`MeteoAlarmAreas`). The warnings are those `WarningRules.active` keeps at
/// fetch time (replaced, cancelled and expired messages dropped, one language each), so the log holds what
/// was shown, not the whole feed.
package struct WarningsFetched: Sendable, Equatable {
    package var source: OfficialWarning.Source
    /// The area the call was for: a cache key (NWS) or a country code (MeteoAlarm).
    package var key: String
    package var call: UpstreamCall
    package var warnings: [OfficialWarning]

    package init(source: OfficialWarning.Source, key: String, call: UpstreamCall, warnings: [OfficialWarning]) {
        self.source = source
        self.key = key
        self.call = call
        self.warnings = warnings
    }

    /// The cache entry a fetch fills: `<source>|<key>`.
    package static func entry(source: OfficialWarning.Source, key: String) -> String { "\(source.rawValue)|\(key)" }

    /// The kind recorded in `weather.fetch_failed` (and in the cache's `notFound`) for a failed warnings call.
    package static let failureKind = "warnings"

    /// What log compaction may strip once a later fetch of the same source and key replaced this one.
    package static let payloadMembers: Set<String> = ["warnings"]
    /// The members naming the cache entry a fetch fills.
    package static let entryMembers = ["source", "key"]

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "source": .string(source.rawValue), "key": .string(key), "warnings": .array(warnings.map(\.json)),
        ]
        call.write(into: &object)
        return .object(object)
    }

    /// Reads a payload; one whose warnings compaction stripped (it carries `compacted`) reads with none.
    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        guard let source = try r.choice("source", as: OfficialWarning.Source.self) else {
            throw FieldError(path: "data.source", problem: "is required")
        }
        var warnings: [OfficialWarning] = []
        if r.has("warnings") || !r.has("compacted") {
            warnings = try r.elements("warnings") { item, path throws(FieldError) in
                try OfficialWarning(json: item, path: path)
            }
        }
        self.init(source: source, key: try r.string("key"), call: try UpstreamCall(r), warnings: warnings)
    }
}
