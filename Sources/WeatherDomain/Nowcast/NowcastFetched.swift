/// Payload of `nowcast.fetched`: one successful call to a nowcast source, its steps normalized to mm/h, and
/// the audit facts of the call.
///
/// The key is the place's cache key; the cache keeps the latest answer per (source, key), so a place MET
/// Norway's radar does not cover is not asked about again within that answer's validity.
package struct NowcastFetched: Sendable, Equatable {
    /// The place's cache key.
    package var key: String
    package var call: UpstreamCall
    package var nowcast: Nowcast
    /// What the answer's reader noticed and kept out (a deprecated product version); absent when none.
    package var warnings: [String]

    package init(key: String, call: UpstreamCall, nowcast: Nowcast, warnings: [String] = []) {
        self.key = key
        self.call = call
        self.nowcast = nowcast
        self.warnings = warnings
    }

    /// The cache entry a fetch fills: `<source>|<key>`.
    package static func entry(source: Nowcast.Source, key: String) -> String { "\(source.rawValue)|\(key)" }

    /// The fetch kind of a nowcast call, in `weather.fetch_failed` and `upstream.not_modified`.
    package static let fetchKind = "nowcast"

    /// What log compaction may strip once a later fetch of the same source and key replaced this one.
    package static let payloadMembers: Set<String> = ["steps"]
    /// The members naming the cache entry a fetch fills.
    package static let entryMembers = ["source", "key"]

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "key": .string(key), "source": .string(nowcast.source.rawValue),
            "resolutionMinutes": .int(Int64(nowcast.resolutionMinutes)),
            "steps": .array(nowcast.steps.map(\.json)),
        ]
        if let kind = nowcast.kind { object["precipitation"] = .string(kind.rawValue) }
        if let coverage = nowcast.radarCoverage { object["radarCoverage"] = .string(coverage) }
        if !warnings.isEmpty { object["warnings"] = .array(warnings.map { .string($0) }) }
        call.write(into: &object)
        return .object(object)
    }

    /// Reads a payload; one whose steps compaction stripped (it carries `compacted`) reads with none.
    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        guard let source = try r.choice("source", as: Nowcast.Source.self) else {
            throw FieldError(path: "data.source", problem: "is required")
        }
        var steps: [NowcastStep] = []
        if r.has("steps") || !r.has("compacted") {
            steps = try r.elements("steps") { item, path throws(FieldError) in try NowcastStep(json: item, path: path) }
        }
        var nowcast = Nowcast(
            source: source, resolutionMinutes: Int(try r.int("resolutionMinutes")), steps: steps,
            kind: try r.choice("precipitation", as: PrecipitationKind.self))
        nowcast.radarCoverage = try r.optionalString("radarCoverage")
        self.init(
            key: try r.string("key"), call: try UpstreamCall(r), nowcast: nowcast,
            warnings: try r.optionalStrings("warnings") ?? [])
    }
}

extension NowcastStep {
    /// `{time, intensity, probability?, native}`, intensity in mm/h.
    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "time": .string(time.description), "intensity": .double(intensity), "native": .bool(native),
        ]
        if let probability { object["probability"] = .double(probability) }
        return .object(object)
    }

    package init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        self.init(
            time: try r.timestamp("time"), intensity: try r.double("intensity"),
            probability: try r.optionalDouble("probability"), native: try r.optionalBool("native") ?? true)
    }
}

/// Payload of `upstream.not_modified`: a conditional call (`If-Modified-Since`) answered `304 Not Modified`.
/// The cached answer of (`kind`, `provider`, `key`) stands, now confirmed at the time of this call and fresh
/// until its new `expires`; the body is not logged again.
package struct NotModified: Sendable, Equatable {
    /// The fetch kind, as in `weather.fetch_failed`: `current`, `forecast`, `nowcast`, `air_quality`…
    package var kind: String
    package var key: String
    package var call: UpstreamCall

    package init(kind: String, key: String, call: UpstreamCall) {
        self.kind = kind
        self.key = key
        self.call = call
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = ["kind": .string(kind), "key": .string(key)]
        call.write(into: &object)
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        self.init(kind: try r.string("kind"), key: try r.string("key"), call: try UpstreamCall(r))
    }
}
