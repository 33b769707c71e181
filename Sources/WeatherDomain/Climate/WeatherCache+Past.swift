extension WeatherCache {
    /// Keeps an archive page as its entry's latest.
    mutating func apply(_ fetched: PastFetched) {
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

    /// Reads the `past` member; a snapshot written before it existed lacks it, and was taken before any event
    /// that fills it.
    mutating func decodePast(_ reader: FieldReader) throws(FieldError) {
        guard reader.members["past"] != nil else { return }
        past = try reader.values("past") { item, itemPath throws(FieldError) in
            let entry = try FieldReader(item, path: itemPath)
            return Cached(
                value: try PastPage(json: entry.members["value"], path: "\(itemPath).value"),
                fetchedAt: try entry.timestamp("fetchedAt"), provider: try entry.string("provider"))
        }
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
