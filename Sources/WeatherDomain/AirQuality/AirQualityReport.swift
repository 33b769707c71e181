/// An air-quality answer from a provider, normalized: the values now and for the next 24 hours.
package struct AirQualityReport: Sendable, Equatable {
    package var place: Place
    /// The values now, when the provider sent them.
    package var current: AirQualityEntry?
    /// Hourly values from the current hour on, at most 24.
    package var hourly: [AirQualityEntry]
    /// The variables left out of the provider's answer, each with why (an unknown unit label): recorded in the
    /// fetch event, never kept in the cache.
    package var warnings: [String] = []

    /// Hourly entries kept.
    package static let maxHours = 24

    package init(place: Place, current: AirQualityEntry?, hourly: [AirQualityEntry]) {
        self.place = place
        self.current = current
        self.hourly = hourly
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = ["place": place.json, "hourly": .array(hourly.map(\.json))]
        if let current { object["current"] = current.json }
        return .object(object)
    }

    package init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        var current: AirQualityEntry?
        if r.has("current"), let value = r.members["current"] {
            current = try AirQualityEntry(json: value, path: "\(path).current")
        }
        self.init(
            place: try Place(json: r.members["place"] ?? .null, path: "\(path).place"), current: current,
            hourly: try r.elements("hourly") { value, itemPath throws(FieldError) in
                try AirQualityEntry(json: value, path: itemPath)
            })
    }
}
