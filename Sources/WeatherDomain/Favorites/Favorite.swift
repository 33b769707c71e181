/// A place the user keeps: named, with coordinates and its own alert switch.
package struct Favorite: Sendable, Equatable {
    /// Stable id, `fav-<n>`, assigned by the decision that adds it.
    package var id: String
    /// The display name, as the user gave it or renamed it.
    package var name: String
    /// ISO 3166 country code when known (from geocoding).
    package var country: String?
    package var lat: Double
    package var lon: Double
    /// When it was added.
    package var addedAt: Timestamp
    /// Whether alerts are raised for this place.
    package var notify: Bool

    package init(
        id: String, name: String, country: String?, lat: Double, lon: Double, addedAt: Timestamp, notify: Bool
    ) {
        self.id = id
        self.name = name
        self.country = country
        self.lat = lat
        self.lon = lon
        self.addedAt = addedAt
        self.notify = notify
    }

    /// The wire and event form.
    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "name": .string(name), "lat": .double(lat), "lon": .double(lon),
            "addedAt": .string(addedAt.description), "notify": .bool(notify),
        ]
        if let country { object["country"] = .string(country) }
        return .object(object)
    }

    package init(json: JSONValue, path: String = "data") throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init(
            id: try reader.string("id"), name: try reader.string("name"), country: try reader.optionalString("country"),
            lat: try reader.double("lat"), lon: try reader.double("lon"), addedAt: try reader.timestamp("addedAt"),
            notify: try reader.optionalBool("notify") ?? true)
    }
}
