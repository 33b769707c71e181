/// Payload of `nowcast.changed`: the summary of a watched place's next minutes moved to another state
/// (`dry` → `starting`, `ongoing` → `stopping`…), as weatherd read it at `at`.
///
/// The latest per place is kept in the cache, so the next reading is compared with what was last said, across
/// restarts; the `nowcast` alert rule raises from these events.
package struct NowcastChanged: Sendable, Equatable {
    /// The place's cache key.
    package var key: String
    /// The place, named as it was watched (a favorite's name) when it has one.
    package var place: Place
    package var source: Nowcast.Source
    /// The state before; nil for the first reading of the place.
    package var from: NowcastSummary.State?
    package var summary: NowcastSummary
    /// What falls, when the source says.
    package var precipitation: PrecipitationKind?
    /// When the reading was made.
    package var at: Timestamp

    package init(
        key: String, place: Place, source: Nowcast.Source, from: NowcastSummary.State?, summary: NowcastSummary,
        precipitation: PrecipitationKind?, at: Timestamp
    ) {
        self.key = key
        self.place = place
        self.source = source
        self.from = from
        self.summary = summary
        self.precipitation = precipitation
        self.at = at
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "key": .string(key), "place": place.json, "source": .string(source.rawValue),
            "at": .string(at.description),
        ]
        summary.write(into: &object)
        if let from { object["from"] = .string(from.rawValue) }
        if let precipitation { object["precipitation"] = .string(precipitation.rawValue) }
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        guard let source = try r.choice("source", as: Nowcast.Source.self) else {
            throw FieldError(path: "data.source", problem: "is required")
        }
        self.init(
            key: try r.string("key"), place: try Place(json: r.members["place"] ?? .null, path: "data.place"),
            source: source, from: try r.choice("from", as: NowcastSummary.State.self),
            summary: try NowcastSummary(r), precipitation: try r.choice("precipitation", as: PrecipitationKind.self),
            at: try r.timestamp("at"))
    }
}

extension NowcastSummary {
    package init(
        state: State, startsAt: Timestamp?, endsAt: Timestamp?, peak: Double, horizonMinutes: Int
    ) {
        self.state = state
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.peak = peak
        self.category = peak >= PrecipitationIntensity.wet ? PrecipitationIntensity(rate: peak) : nil
        self.horizonMinutes = horizonMinutes
    }

    /// Writes `state`, `startsAt`, `endsAt`, `peak` (mm/h), `category` and `horizonMinutes`.
    package func write(into object: inout [String: JSONValue]) {
        object["state"] = .string(state.rawValue)
        if let startsAt { object["startsAt"] = .string(startsAt.description) }
        if let endsAt { object["endsAt"] = .string(endsAt.description) }
        object["peak"] = .double(peak)
        if let category { object["category"] = .string(category.rawValue) }
        object["horizonMinutes"] = .int(Int64(horizonMinutes))
    }

    init(_ r: FieldReader) throws(FieldError) {
        guard let state = try r.choice("state", as: State.self) else {
            throw FieldError(path: "\(r.path).state", problem: "is required")
        }
        self.init(
            state: state, startsAt: try r.optionalTimestamp("startsAt"), endsAt: try r.optionalTimestamp("endsAt"),
            peak: try r.double("peak"), horizonMinutes: Int(try r.int("horizonMinutes")))
    }
}
