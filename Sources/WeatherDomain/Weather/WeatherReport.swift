/// Where a weather answer is for: coordinates, and a name when one is known.
package struct Place: Sendable, Equatable {
    package var name: String?
    /// ISO 3166 country code.
    package var country: String?
    /// State or region.
    package var state: String?
    package var lat: Double
    package var lon: Double

    package init(name: String?, country: String?, state: String?, lat: Double, lon: Double) {
        self.name = name
        self.country = country
        self.state = state
        self.lat = lat
        self.lon = lon
    }

    /// The decimals of the cache key's coordinates.
    package static let keyDecimals = 2

    /// The cache key: coordinates rounded to 2 decimals (about 1 km), the providers' own grid scale.
    package var key: String { Self.key(lat: lat, lon: lon) }

    package static func key(lat: Double, lon: Double) -> String {
        "\(Rounding.round(lat, decimals: keyDecimals)),\(Rounding.round(lon, decimals: keyDecimals))"
    }

    /// A place the client gave by its coordinates, rounded to the cache key's decimals, or to `precision`
    /// when that is coarser, so that no event (place, request URL) records them more exactly than the
    /// cache needs or the client allowed.
    ///
    /// The weather of a cache key is shared by every point that rounds to it, so fetching it for the
    /// rounded point answers the same question.
    package static func fromClient(lat: Double, lon: Double, precision: Int) -> Place {
        let decimals = min(keyDecimals, max(0, precision))
        return Place(
            name: nil, country: nil, state: nil, lat: Rounding.round(lat, decimals: decimals),
            lon: Rounding.round(lon, decimals: decimals))
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = ["lat": .double(lat), "lon": .double(lon)]
        if let name { object["name"] = .string(name) }
        if let country { object["country"] = .string(country) }
        if let state { object["state"] = .string(state) }
        return .object(object)
    }

    package init(json: JSONValue, path: String) throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init(
            name: try reader.optionalString("name"), country: try reader.optionalString("country"),
            state: try reader.optionalString("state"), lat: try reader.double("lat"), lon: try reader.double("lon"))
    }
}

extension [String: JSONValue] {
    /// Sets `key` to `value` when there is one, so that a value the provider did not give stays absent.
    mutating func set(_ key: String, _ value: Double?) {
        if let value { self[key] = .double(value) }
    }

    /// Sets `key` to `value` when there is one.
    mutating func set(_ key: String, _ value: Bool?) {
        if let value { self[key] = .bool(value) }
    }

    /// Sets `key` to the RFC 3339 form of `value` when there is one.
    mutating func set(_ key: String, _ value: Timestamp?) {
        if let value { self[key] = .string(value.description) }
    }
}

/// Rounding to a number of decimals, for cache keys and logged client coordinates.
package enum Rounding {
    package static func round(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
