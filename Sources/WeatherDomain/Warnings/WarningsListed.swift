/// Payload of `warnings.listed`: what an aggregator of warning feeds (the FOSS Public Alert Server) lists for a
/// place, and the audit facts of the call.
///
/// Two calls: `alerts`, the ids of the alerts whose areas meet a small box around the place (its cache key is
/// the key: `35.68,139.69`), each then fetched as one CAP document (`warnings.fetched`, cached by id); and
/// `feeds`, the CAP feeds it relays for the place's country or countries (the key is their ISO codes joined by
/// `,`: `JP` or `JP,AU`), which tells whether any service's warnings for them reach it at all.
package struct WarningsListed: Sendable, Equatable {
    /// Which list it is.
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        case alerts
        case feeds
    }

    /// One feed the aggregator relays, as it describes it.
    package struct Feed: Sendable, Equatable {
        /// The service's name (`Japan: Japan Meteorological Agency`).
        package var name: String
        /// The ISO code of the country it serves, upper-cased.
        package var country: String
        /// The aggregator's word for the feed's state: `operating`, or why not (`not reachable`, `testing`, …).
        package var status: String
        /// Whether the aggregator marks the feed as an official source.
        package var official: Bool?

        package init(name: String, country: String, status: String, official: Bool?) {
            self.name = name
            self.country = country
            self.status = status
            self.official = official
        }

        /// Whether the aggregator fetches the feed now.
        package var operating: Bool { status.trimmingWhitespace.lowercased() == "operating" }

        var json: JSONValue {
            var object: [String: JSONValue] = [
                "name": .string(name), "country": .string(country), "status": .string(status),
            ]
            if let official { object["official"] = .bool(official) }
            return .object(object)
        }

        init(json: JSONValue, path: String) throws(FieldError) {
            let r = try FieldReader(json, path: path)
            self.init(
                name: try r.string("name"), country: try r.string("country"), status: try r.string("status"),
                official: try r.optionalBool("official"))
        }
    }

    /// What a list holds: alert ids (`alerts`) or feeds (`feeds`).
    package struct Listing: Sendable, Equatable {
        package var ids: [String]
        package var feeds: [Feed]

        package init(ids: [String] = [], feeds: [Feed] = []) {
            self.ids = ids
            self.feeds = feeds
        }

        /// `{ids}` or `{feeds}`: the members of a payload, less its call.
        package func write(into object: inout [String: JSONValue], kind: Kind) {
            switch kind {
            case .alerts: object["ids"] = .array(ids.map(JSONValue.string))
            case .feeds: object["feeds"] = .array(feeds.map(\.json))
            }
        }

        /// Reads `ids` or `feeds` as `kind` has them.
        package init(_ reader: FieldReader, kind: Kind) throws(FieldError) {
            switch kind {
            case .alerts: self.init(ids: try reader.optionalStrings("ids") ?? [])
            case .feeds:
                self.init(
                    feeds: try reader.elements("feeds") { item, path throws(FieldError) in
                        try Feed(json: item, path: path)
                    })
            }
        }
    }

    package var source: OfficialWarning.Source
    package var kind: Kind
    package var key: String
    package var call: UpstreamCall
    package var listing: Listing

    package init(source: OfficialWarning.Source, kind: Kind, key: String, call: UpstreamCall, listing: Listing) {
        self.source = source
        self.kind = kind
        self.key = key
        self.call = call
        self.listing = listing
    }

    /// The cache entry a call fills: `<source>|<kind>|<key>`.
    package static func entry(source: OfficialWarning.Source, kind: Kind, key: String) -> String {
        "\(source.rawValue)|\(kind.rawValue)|\(key)"
    }

    /// The kind a call of `kind` is recorded with in `weather.fetch_failed` and in the cache's `notFound`.
    package static func fetchKind(_ kind: Kind) -> String { "warnings_\(kind.rawValue)" }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "source": .string(source.rawValue), "kind": .string(kind.rawValue), "key": .string(key),
        ]
        listing.write(into: &object, kind: kind)
        call.write(into: &object)
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        guard let source = try r.choice("source", as: OfficialWarning.Source.self) else {
            throw FieldError(path: "data.source", problem: "is required")
        }
        guard let kind = try r.choice("kind", as: Kind.self) else {
            throw FieldError(path: "data.kind", problem: "is required")
        }
        self.init(
            source: source, kind: kind, key: try r.string("key"), call: try UpstreamCall(r),
            listing: try Listing(r, kind: kind))
    }
}
