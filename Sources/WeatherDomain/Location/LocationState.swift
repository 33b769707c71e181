/// The client's current location, as recorded (rounded) in the log.
public struct Location: Sendable, Equatable {
    public var lat: Double
    public var lon: Double
    /// A place name when the location was set by address.
    public var name: String?
    public var setAt: Timestamp

    public init(lat: Double, lon: Double, name: String?, setAt: Timestamp) {
        self.lat = lat
        self.lon = lon
        self.name = name
        self.setAt = setAt
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "lat": .double(lat), "lon": .double(lon), "setAt": .string(setAt.description),
        ]
        if let name { object["name"] = .string(name) }
        return .object(object)
    }

    public init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        self.init(
            lat: try reader.double("lat"), lon: try reader.double("lon"), name: try reader.optionalString("name"),
            setAt: try reader.timestamp("setAt"))
    }
}

/// The current location slice: unset until the client sets one.
public struct LocationState: StateSlice {
    public private(set) var current: Location?

    public init() {}

    public mutating func apply(_ event: DomainEvent) {
        if case .locationChanged(let location) = event { current = location }
    }

    public var json: JSONValue { .object(["current": current?.json ?? .null]) }
}
