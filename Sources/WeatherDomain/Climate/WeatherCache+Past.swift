extension WeatherCache {
    /// How many places' climates are kept (about 45 KB each, so at most about 4.5 MB): past it, the climate
    /// fetched longest ago is dropped, and fetched again when it is next asked for. The bound holds in replay
    /// and snapshots alike, since it follows the fetch times.
    package static let climateCapacity = 100

    /// Keeps an archive page as its entry's latest; a climate page as its place's table of normals and records
    /// alone, not its days.
    mutating func apply(_ fetched: PastFetched) {
        guard fetched.kind != .climate else {
            climates[fetched.key] = Cached(
                value: ClimateTable(fetched.page), fetchedAt: fetched.call.at, provider: fetched.call.provider)
            Self.trim(&climates, to: Self.climateCapacity)
            return
        }
        past[fetched.entry] = Cached(value: fetched.page, fetchedAt: fetched.call.at, provider: fetched.call.provider)
        Self.trim(&past)
    }

    /// The cached `history` page of `key` that holds every day from `from` to `to` (with hours when `hourly`),
    /// final when `final` is asked for; the latest fetched when several do.
    package func pastPage(key: String, from: String, to: String, hourly: Bool, final: Bool) -> Cached<PastPage>? {
        let prefix = "history|\(key)|"
        return past.filter { entry, cached in
            entry.hasPrefix(prefix) && cached.value.from <= from && to <= cached.value.to
                && (cached.value.hours != nil || !hourly) && (cached.value.final || !final)
        }.values.max { $0.fetchedAt < $1.fetchedAt }
    }

    /// Reads the `past` and `climates` members; a snapshot written before they existed lacks them, and was taken
    /// before any event that fills them. One written while climate pages were kept whole holds them in `past`
    /// (`climate|<key>`): each becomes its table, as replaying its event now makes it.
    mutating func decodePast(_ reader: FieldReader) throws(FieldError) {
        if reader.members["past"] != nil {
            past = try reader.values("past") { item, itemPath throws(FieldError) in
                let entry = try FieldReader(item, path: itemPath)
                return Cached(
                    value: try PastPage(json: entry.members["value"], path: "\(itemPath).value"),
                    fetchedAt: try entry.timestamp("fetchedAt"), provider: try entry.string("provider"))
            }
        }
        if reader.members["climates"] != nil {
            climates = try reader.values("climates") { item, itemPath throws(FieldError) in
                let entry = try FieldReader(item, path: itemPath)
                return Cached(
                    value: try ClimateTable(json: entry.members["value"], path: "\(itemPath).value"),
                    fetchedAt: try entry.timestamp("fetchedAt"), provider: try entry.string("provider"))
            }
        }
        let prefix = PastFetched.entry(kind: .climate, key: "")
        for (entry, page) in past where entry.hasPrefix(prefix) {
            past[entry] = nil
            climates[String(entry.dropFirst(prefix.count))] = Cached(
                value: ClimateTable(page.value), fetchedAt: page.fetchedAt, provider: page.provider)
        }
        Self.trim(&climates, to: Self.climateCapacity)
    }
}

extension PastPage {
    /// `{from, to, final, daily, hourly?}`: the canonical form kept in snapshots, in the columns of a
    /// `past.fetched` payload.
    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "from": .string(from), "to": .string(to), "final": .bool(final), "daily": PastFetched.columns(days),
        ]
        if let hours { object["hourly"] = PastFetched.columns(hours) }
        return .object(object)
    }

    package init(json: JSONValue?, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        let from = try r.string("from")
        self.init(
            from: from, to: try r.string("to"), final: try r.bool("final"),
            days: try PastFetched.days(FieldReader(r.members["daily"], path: "\(path).daily"), from: from),
            hours: try r.members["hourly"].map { value throws(FieldError) in
                try PastFetched.hours(FieldReader(value, path: "\(path).hourly"))
            })
    }
}
