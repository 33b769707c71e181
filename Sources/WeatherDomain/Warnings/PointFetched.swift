/// Payload of `point.fetched`: what a source said about a point that has no country, so that weatherd can
/// choose the official warning service for it, and the audit facts of the call.
///
/// Two calls: NWS's `/points` (`nws_point`), whose 200 says NWS covers the point and whose 404 says it does
/// not; and, for a point NWS does not cover, the weather provider's reverse geocoding (`reverse_geocode`),
/// which names the point's country and region. The key is the point's cache key (`45.52,-122.68`), the
/// coordinates the call was made for.
package struct PointFetched: Sendable, Equatable {
    /// Which call it was.
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        /// NWS's `/points/{lat},{lon}`: whether NWS covers the point.
        case nwsPoint = "nws_point"
        /// The weather provider's reverse geocoding: the place at the point.
        case reverseGeocode = "reverse_geocode"
    }

    /// What the call said.
    package struct Facts: Sendable, Equatable {
        /// `nws_point`: whether NWS covers the point (nil for `reverse_geocode`).
        package var covered: Bool?
        /// `reverse_geocode`: the place the provider names at the point, with its country and region (nil when
        /// it names none, e.g. at sea, and for `nws_point`).
        package var place: Place?

        package init(covered: Bool? = nil, place: Place? = nil) {
            self.covered = covered
            self.place = place
        }

        /// `{covered?, place?}`.
        package var json: JSONValue {
            var object: [String: JSONValue] = [:]
            write(into: &object)
            return .object(object)
        }

        func write(into object: inout [String: JSONValue]) {
            if let covered { object["covered"] = .bool(covered) }
            if let place { object["place"] = place.json }
        }

        init(_ reader: FieldReader) throws(FieldError) {
            var place: Place?
            if let value = reader.members["place"], !value.isNull {
                place = try Place(json: value, path: "\(reader.path).place")
            }
            self.init(covered: try reader.optionalBool("covered"), place: place)
        }

        /// Reads `{covered?, place?}`.
        package init(json: JSONValue, path: String) throws(FieldError) {
            try self.init(FieldReader(json, path: path))
        }
    }

    package var kind: Kind
    /// The point's cache key.
    package var key: String
    package var call: UpstreamCall
    package var facts: Facts

    package init(kind: Kind, key: String, call: UpstreamCall, facts: Facts) {
        self.kind = kind
        self.key = key
        self.call = call
        self.facts = facts
    }

    /// The cache entry a fetch fills: `<kind>|<key>`.
    package static func entry(kind: Kind, key: String) -> String { "\(kind.rawValue)|\(key)" }

    /// How long an answer is used without asking again: 30 days. Whether NWS covers a point and which country
    /// a point lies in do not change, so one call a month per point is plenty; the limit lets a moved NWS
    /// boundary or a corrected place name be learned in the end.
    package static let validityMs: Int64 = 30 * 24 * 3_600_000

    package var json: JSONValue {
        var object: [String: JSONValue] = ["kind": .string(kind.rawValue), "key": .string(key)]
        facts.write(into: &object)
        call.write(into: &object)
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        guard let kind = try r.choice("kind", as: Kind.self) else {
            throw FieldError(path: "data.kind", problem: "is required")
        }
        let facts = try Facts(r)
        if kind == .nwsPoint, facts.covered == nil {
            throw FieldError(path: "data.covered", problem: "is required for kind nws_point")
        }
        self.init(kind: kind, key: try r.string("key"), call: try UpstreamCall(r), facts: facts)
    }
}
