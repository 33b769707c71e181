extension WeatherCache {
    /// Keeps a warnings fetch as its entry's latest, and whether the source said the place is not its own.
    ///
    /// A CAP document of the FOSS Public Alert Server is kept, by its id, until every message in it has ended:
    /// the documents whose messages all ended before this fetch are dropped from the cache then.
    mutating func apply(_ fetched: WarningsFetched) {
        let entry = WarningsFetched.entry(source: fetched.source, key: fetched.key)
        notFound["\(WarningsFetched.failureKind)|\(fetched.key)"] = nil
        warnings[entry] = Cached(value: fetched.warnings, fetchedAt: fetched.call.at, provider: fetched.call.provider)
        uncovered[entry] = fetched.covered ? nil : fetched.call.at
        if fetched.source == .fpas { dropEndedDocuments(at: fetched.call.at) }
        Self.trim(&warnings)
        Self.trim(&uncovered)
    }

    /// Keeps what an aggregator listed as its entry's latest.
    mutating func apply(_ listed: WarningsListed) {
        notFound["\(WarningsListed.fetchKind(listed.kind))|\(listed.key)"] = nil
        warningLists[WarningsListed.entry(source: listed.source, kind: listed.kind, key: listed.key)] = Cached(
            value: listed.listing, fetchedAt: listed.call.at, provider: listed.call.provider)
        Self.trim(&warningLists)
    }

    /// Drops the cached CAP documents every message of which ended before `now` (a document whose messages give
    /// no end is kept, within the map's capacity).
    private mutating func dropEndedDocuments(at now: Timestamp) {
        let prefix = OfficialWarning.Source.fpas.rawValue + "|"
        for (entry, cached) in warnings where entry.hasPrefix(prefix) && !cached.value.isEmpty {
            if cached.value.allSatisfy({ !$0.inForce(at: now) }) { warnings[entry] = nil }
        }
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

    /// Reads the `warnings`, `uncovered`, `warningLists`, `airQuality` and `points` members of the canonical form; a snapshot written before
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
        if reader.members["uncovered"] != nil {
            uncovered = try reader.values("uncovered") { item, itemPath throws(FieldError) in
                guard case .string(let text) = item, let time = Timestamp(rfc3339: text) else {
                    throw FieldError(path: itemPath, problem: "must be an RFC 3339 time")
                }
                return time
            }
        }
        if reader.members["warningLists"] != nil {
            warningLists = try reader.values("warningLists") { item, itemPath throws(FieldError) in
                let entry = try FieldReader(item, path: itemPath)
                let value = try FieldReader(entry.members["value"], path: "\(itemPath).value")
                var listing = try WarningsListed.Listing(value, kind: .alerts)
                if value.has("feeds") { listing.feeds = try WarningsListed.Listing(value, kind: .feeds).feeds }
                return Cached(
                    value: listing, fetchedAt: try entry.timestamp("fetchedAt"), provider: try entry.string("provider"))
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
