extension WeatherCache {
    /// Keeps a warnings fetch as its entry's latest.
    mutating func apply(_ fetched: WarningsFetched) {
        notFound["\(WarningsFetched.failureKind)|\(fetched.key)"] = nil
        warnings[WarningsFetched.entry(source: fetched.source, key: fetched.key)] = Cached(
            value: fetched.warnings, fetchedAt: fetched.call.at, provider: fetched.call.provider)
        Self.trim(&warnings)
    }

    /// Keeps an air-quality fetch as its entry's latest.
    mutating func apply(_ fetched: AirQualityFetched) {
        notFound["\(fetched.kind.rawValue)|\(fetched.key)"] = nil
        airQuality[AirQualityFetched.entry(kind: fetched.kind, key: fetched.key)] = Cached(
            value: fetched.report, fetchedAt: fetched.call.at, provider: fetched.call.provider)
        Self.trim(&airQuality)
    }

    /// Keeps what a source said about a point as its entry's latest.
    mutating func apply(_ fetched: PointFetched) {
        notFound["\(fetched.kind.rawValue)|\(fetched.key)"] = nil
        points[PointFetched.entry(kind: fetched.kind, key: fetched.key)] = Cached(
            value: fetched.facts, fetchedAt: fetched.call.at, provider: fetched.call.provider)
        Self.trim(&points)
    }

    /// Reads the `warnings`, `airQuality` and `points` members of the canonical form; a snapshot written before
    /// one existed lacks it, and was taken before any event that fills it, so it is empty.
    mutating func decodeOfficial(_ reader: FieldReader) throws(FieldError) {
        if reader.members["warnings"] != nil {
            warnings = try reader.values("warnings") { item, itemPath throws(FieldError) in
                let entry = try FieldReader(item, path: itemPath)
                let list = try entry.elements("value") { value, valuePath throws(FieldError) in
                    try OfficialWarning(json: value, path: valuePath)
                }
                return Cached(
                    value: list, fetchedAt: try entry.timestamp("fetchedAt"), provider: try entry.string("provider"))
            }
        }
        if reader.members["points"] != nil {
            points = try reader.values("points") { item, itemPath throws(FieldError) in
                let entry = try FieldReader(item, path: itemPath)
                let facts = try PointFetched.Facts(json: entry.members["value"] ?? .null, path: "\(itemPath).value")
                return Cached(
                    value: facts, fetchedAt: try entry.timestamp("fetchedAt"), provider: try entry.string("provider"))
            }
        }
        if reader.members["airQuality"] != nil {
            airQuality = try reader.values("airQuality") { item, itemPath throws(FieldError) in
                let entry = try FieldReader(item, path: itemPath)
                let report = try AirQualityReport(json: entry.members["value"] ?? .null, path: "\(itemPath).value")
                return Cached(
                    value: report, fetchedAt: try entry.timestamp("fetchedAt"), provider: try entry.string("provider"))
            }
        }
    }
}
