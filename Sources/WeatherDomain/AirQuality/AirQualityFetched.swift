/// Payload of `air_quality.fetched`: an air-quality answer, normalized, and the audit facts of the call.
///
/// Open-Meteo answers the values now and the hours in one call (`air_quality`); OpenWeatherMap needs a
/// second call for the hours (`air_quality_forecast`, whose `current` is absent). Each call is one event.
package struct AirQualityFetched: Sendable, Equatable {
    /// Which call it was.
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The values now (and, from Open-Meteo, the hours too).
        case airQuality = "air_quality"
        /// OpenWeatherMap's hourly forecast.
        case forecast = "air_quality_forecast"
    }

    package var kind: Kind
    /// The place's cache key.
    package var key: String
    package var call: UpstreamCall
    package var report: AirQualityReport
    /// The variables left out of the answer, each with why (absent from the payload when none).
    package var warnings: [String]

    package init(kind: Kind, key: String, call: UpstreamCall, report: AirQualityReport, warnings: [String] = []) {
        self.kind = kind
        self.key = key
        self.call = call
        self.report = report
        self.warnings = warnings
    }

    /// The cache entry a fetch fills: `<kind>|<key>`.
    package static func entry(kind: Kind, key: String) -> String { "\(kind.rawValue)|\(key)" }

    /// What log compaction may strip once a later fetch of the same kind and key replaced this one.
    package static let payloadMembers: Set<String> = ["current", "hourly"]
    /// The members naming the cache entry a fetch fills.
    package static let entryMembers = ["kind", "key"]

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "key": .string(key), "place": report.place.json,
            "hourly": .array(report.hourly.map(\.json)),
        ]
        if let current = report.current { object["current"] = current.json }
        if !warnings.isEmpty { object["warnings"] = .array(warnings.map { .string($0) }) }
        call.write(into: &object)
        return .object(object)
    }

    /// Reads a payload; one whose values compaction stripped (it carries `compacted`) reads with none.
    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        guard let kind = try r.choice("kind", as: Kind.self) else {
            throw FieldError(path: "data.kind", problem: "is required")
        }
        var current: AirQualityEntry?
        if let value = r.members["current"], !value.isNull {
            current = try AirQualityEntry(json: value, path: "data.current")
        }
        var hourly: [AirQualityEntry] = []
        if r.has("hourly") || !r.has("compacted") {
            hourly = try r.elements("hourly") { item, path throws(FieldError) in
                try AirQualityEntry(json: item, path: path)
            }
        }
        self.init(
            kind: kind, key: try r.string("key"), call: try UpstreamCall(r),
            report: AirQualityReport(
                place: try Place(json: r.members["place"] ?? .null, path: "data.place"), current: current,
                hourly: hourly),
            warnings: try r.optionalStrings("warnings") ?? [])
    }
}
