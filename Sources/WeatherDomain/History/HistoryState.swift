/// A place the user looked up by name.
package struct HistoryEntry: Sendable, Equatable {
    package let name: String
    package let country: String?
    /// State or region, when the geocoder gave one.
    package let state: String?
    package var lat: Double
    package var lon: Double
    package var searchedAt: Timestamp
    /// Two entries for the same place (same name, country and state, case-insensitive) are one entry.
    ///
    /// Made once from the fields it depends on (which cannot change), not at every comparison.
    let placeKey: String

    package init(name: String, country: String?, state: String?, lat: Double, lon: Double, searchedAt: Timestamp) {
        self.name = name
        self.country = country
        self.state = state
        self.lat = lat
        self.lon = lon
        self.searchedAt = searchedAt
        placeKey = "\(name.lowercased())|\((country ?? "").lowercased())|\((state ?? "").lowercased())"
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name), "lat": .double(lat), "lon": .double(lon),
            "searchedAt": .string(searchedAt.description),
        ]
        if let country { object["country"] = .string(country) }
        if let state { object["state"] = .string(state) }
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        self.init(
            name: try reader.string("name"), country: try reader.optionalString("country"),
            state: try reader.optionalString("state"), lat: try reader.double("lat"), lon: try reader.double("lon"),
            searchedAt: try reader.timestamp("searchedAt"))
    }
}

/// The search history: the last 20 places looked up, most recent first, each place once.
package struct HistoryState: StateSlice {
    /// How many entries are kept.
    package static let capacity = 20

    /// Entries, most recent first.
    package internal(set) var entries: [HistoryEntry] = []

    package init() {}

    package mutating func apply(_ event: DomainEvent) {
        switch event {
        case .historyRecorded(let entry):
            entries.removeAll { $0.placeKey == entry.placeKey }
            entries.insert(entry, at: 0)
            if entries.count > Self.capacity { entries.removeLast(entries.count - Self.capacity) }
        case .historyCleared:
            entries.removeAll()
        default:
            break
        }
    }

    package var json: JSONValue { .object(["entries": .array(entries.map(\.json))]) }
}

/// Pure decisions about the search history.
package enum HistoryDecisions {
    /// Records a look-up: the place moves to the top. When it is at the top already (same place, same
    /// coordinates) nothing changes and no event is written, so a status bar asking for the same city every
    /// few seconds writes nothing; `searchedAt` is when the place last came to the top.
    package static func record(_ state: HistoryState, _ entry: HistoryEntry) -> [DomainEvent] {
        if let first = state.entries.first, first.placeKey == entry.placeKey, first.lat == entry.lat,
            first.lon == entry.lon
        {
            return []
        }
        return [.historyRecorded(entry)]
    }

    /// Clears the history; no event when it is empty already.
    package static func clear(_ state: HistoryState) -> [DomainEvent] {
        state.entries.isEmpty ? [] : [.historyCleared(count: Int64(state.entries.count))]
    }
}
