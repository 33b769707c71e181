extension WeatherCache {
    /// Rebuilds the cache from its canonical `json`, exactly (the eviction order follows from the fetch times).
    ///
    /// - Throws: `FieldError` naming the member that does not match the canonical form.
    package init(json: JSONValue, path: String = "cache") throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init()
        current = try reader.values("current") { item, itemPath throws(FieldError) in
            let entry = try FieldReader(item, path: itemPath)
            let conditions = try CurrentConditions(json: entry.members["value"] ?? .null, path: "\(itemPath).value")
            let report = CurrentReport(
                place: try Place(json: entry.members["place"] ?? .null, path: "\(itemPath).place"),
                timezone: try entry.optionalString("timezone"), utcOffsetSeconds: try entry.int("utcOffsetSeconds"),
                current: conditions)
            return try Self.cached(report, entry)
        }
        forecast = try reader.values("forecast") { item, itemPath throws(FieldError) in
            let entry = try FieldReader(item, path: itemPath)
            var report = ForecastReport(
                place: try Place(json: entry.members["place"] ?? .null, path: "\(itemPath).place"),
                timezone: try entry.optionalString("timezone"), utcOffsetSeconds: try entry.int("utcOffsetSeconds"),
                entries: try entry.elements("value") { step, stepPath throws(FieldError) in
                    try ForecastEntry(json: step, path: stepPath)
                },
                hourly: entry.has("hourly")
                    ? try entry.elements("hourly") { step, stepPath throws(FieldError) in
                        try ForecastEntry(json: step, path: stepPath)
                    } : [],
                daily: try entry.elements("daily") { day, dayPath throws(FieldError) in
                    try DailySummary(json: day, path: dayPath)
                })
            report.spread = try entry.members["spread"].map { spread throws(FieldError) in
                try EnsembleSummary(try FieldReader(spread, path: "\(itemPath).spread"))
            }
            return try Self.cached(report, entry)
        }
        geocodes = try reader.values("geocodes") { item, itemPath throws(FieldError) in
            let entry = try FieldReader(item, path: itemPath)
            let places = try entry.elements("value") { place, placePath throws(FieldError) in
                try Place(json: place, path: placePath)
            }
            return try Self.cached(places, entry)
        }
        notFound = try reader.values("notFound") { item, itemPath throws(FieldError) in try Self.time(item, itemPath) }
        rateLimitedUntil = try reader.values("rateLimitedUntil") { item, itemPath throws(FieldError) in
            try Self.time(item, itemPath)
        }
        try decodeOfficial(reader)
        try decodeNowcasts(reader)
        try decodePast(reader)
        confidence = try ConfidenceCache(json: reader.members["confidence"], path: "\(path).confidence")
    }

    /// A cache entry of `value`, with the time and provider its canonical form records beside it.
    private static func cached<V>(_ value: V, _ entry: FieldReader) throws(FieldError) -> Cached<V> {
        Cached(value: value, fetchedAt: try entry.timestamp("fetchedAt"), provider: try entry.string("provider"))
    }

    private static func time(_ value: JSONValue, _ path: String) throws(FieldError) -> Timestamp {
        guard case .string(let text) = value, let time = Timestamp(rfc3339: text) else {
            throw FieldError(path: path, problem: "must be an RFC 3339 time")
        }
        return time
    }
}
