/// Payload of `warnings.fetched`: the official warnings from one source for one area, and the audit facts of the
/// call.
///
/// NWS and Bright Sky are asked for a point, so their area is the place's cache key (`33.45,-112.07`);
/// MeteoAlarm is asked for a country's feed, so its area is the ISO country code (`BA`), and which of the feed's
/// warnings concern a place is decided when answering (`MeteoAlarmAreas`). For these, the warnings are those
/// `WarningRules.active` keeps at fetch time (replaced, cancelled, all-clear and expired messages dropped, one
/// language each), so the log holds what was shown, not the whole feed. The FOSS Public Alert Server is asked
/// for one CAP document at a time, so its area is the document's id there (a UUID), and the warnings are the
/// document's message in one language each, as issued (cancels and all-clears too: what they replace is in
/// other documents; `WarningRules.active` decides over all of a place's documents when answering).
///
/// v2 (this version) writes `severity` as CAP spells it (`Severe`), may leave out `expires` (CAP makes it
/// optional), adds `effective`, `web`, `responseTypes`, `polygons` and `circles` to a warning, the sources
/// `brightsky` and `fpas`, and `covered`; a v1 payload is upcast by spelling its lower-case severities as CAP
/// does (`EventCatalog+Warnings.swift`).
package struct WarningsFetched: Sendable, Equatable {
    package var source: OfficialWarning.Source
    /// The area the call was for: a cache key (NWS, Bright Sky), a country code (MeteoAlarm) or a document id
    /// (the FOSS Public Alert Server).
    package var key: String
    package var call: UpstreamCall
    package var warnings: [OfficialWarning]
    /// False when the source answered that the point is not its own (Bright Sky: no DWD warn cell there); the
    /// warnings are then none, and the place is handed to the next source.
    package var covered: Bool

    package init(
        source: OfficialWarning.Source, key: String, call: UpstreamCall, warnings: [OfficialWarning],
        covered: Bool = true
    ) {
        self.source = source
        self.key = key
        self.call = call
        self.warnings = warnings
        self.covered = covered
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
        if !covered { object["covered"] = .bool(false) }
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
        self.init(
            source: source, key: try r.string("key"), call: try UpstreamCall(r), warnings: warnings,
            covered: try r.optionalBool("covered") ?? true)
    }
}
