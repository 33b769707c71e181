#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an automatic location came from: weatherd found it without being told (`--auto-location`).
package enum LocationSource: String, Sendable, Equatable, CaseIterable {
    /// GeoClue2, the system's location service, on the system bus.
    case geoclue
    /// The principal city of the system's time zone (approximate: GeoClue gave nothing).
    case timezone
}

/// The client's current location, as recorded (rounded) in the log.
package struct Location: Sendable, Equatable {
    package var lat: Double
    package var lon: Double
    /// A place name when the location was set by address, or the time zone's city.
    package var name: String?
    package var setAt: Timestamp
    /// Whether this move triggered a refresh of the current place and every favorite.
    package var refresh: Bool
    /// Where weatherd found it; nil when the client set it (`location/set`).
    package var source: LocationSource?
    /// GeoClue's accuracy of the fix, in metres (only from GeoClue, when it gives one).
    package var accuracyM: Double?
    /// The system's time zone (an IANA name) whose principal city this is (only from the time zone).
    package var zone: String?

    package init(
        lat: Double, lon: Double, name: String?, setAt: Timestamp, refresh: Bool = false,
        source: LocationSource? = nil, accuracyM: Double? = nil, zone: String? = nil
    ) {
        self.lat = lat
        self.lon = lon
        self.name = name
        self.setAt = setAt
        self.refresh = refresh
        self.source = source
        self.accuracyM = accuracyM
        self.zone = zone
    }

    /// Whether it is only the time zone's city: every face says so.
    package var isApproximate: Bool { source == .timezone }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "lat": .double(lat), "lon": .double(lon), "setAt": .string(setAt.description), "refresh": .bool(refresh),
        ]
        if let name { object["name"] = .string(name) }
        if let source { object["source"] = .string(source.rawValue) }
        if let accuracyM { object["accuracyM"] = .double(accuracyM) }
        if let zone { object["zone"] = .string(zone) }
        return .object(object)
    }

    /// The location as every face answers it: as recorded, and `approximate`, true when it is only the time
    /// zone's city.
    package var answer: JSONValue {
        guard case .object(var members) = json else { return json }
        members["approximate"] = .bool(isApproximate)
        return .object(members)
    }

    package init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        self.init(
            lat: try reader.double("lat"), lon: try reader.double("lon"), name: try reader.optionalString("name"),
            setAt: try reader.timestamp("setAt"), refresh: try reader.optionalBool("refresh") ?? false,
            source: try reader.choice("source", as: LocationSource.self),
            accuracyM: try reader.optionalDouble("accuracyM"), zone: try reader.optionalString("zone"))
    }
}

/// The current location slice: unset until the client sets one.
package struct LocationState: StateSlice {
    package internal(set) var current: Location?
    /// Where the last refresh was triggered from: the 5 km rule measures moves from here.
    package internal(set) var refreshedFrom: Location?

    package init() {}

    package mutating func apply(_ event: DomainEvent) {
        switch event {
        case .locationChanged(let location):
            current = location
            if location.refresh { refreshedFrom = location }
        case .locationCleared:
            // A location set after this one is a first one again: it refreshes wherever it is.
            current = nil
            refreshedFrom = nil
        default:
            break
        }
    }

    package var json: JSONValue {
        .object(["current": current?.json ?? .null, "refreshedFrom": refreshedFrom?.json ?? .null])
    }
}

/// Pure decisions about the client's location.
package enum LocationDecisions {
    /// A move of at least this many kilometres refreshes the current place and every favorite.
    package static let refreshDistanceKm = 5.0

    /// Records a new location, rounded to `precision` decimals, refreshing when it is the first one or
    /// at least 5 km (great-circle) from where the last refresh was triggered.
    ///
    /// The distance is measured from the recorded (rounded) refresh point to the new, unrounded one:
    /// the raw coordinates are never stored, so replay decides from what the log holds.
    package static func set(
        _ state: LocationState, lat: Double, lon: Double, name: String?, precision: Int, now: Timestamp
    ) -> [DomainEvent] {
        let refresh = shouldRefresh(from: state.refreshedFrom.map { ($0.lat, $0.lon) }, to: (lat, lon))
        let location = Location(
            lat: Rounding.round(lat, decimals: precision), lon: Rounding.round(lon, decimals: precision), name: name,
            setAt: now, refresh: refresh)
        return [.locationChanged(location)]
    }

    /// Clears the current location; no event when none is set.
    package static func clear(_ state: LocationState) -> [DomainEvent] {
        state.current.map { [.locationCleared($0)] } ?? []
    }

    /// The 5 km rule: true for the first location, or for a move of 5 km or more.
    package static func shouldRefresh(from previous: (Double, Double)?, to next: (Double, Double)) -> Bool {
        guard let previous else { return true }
        // A millimetre of slack, so that exactly 5 km is a refresh whatever the floating-point rounding.
        return GreatCircle.distanceKm(from: previous, to: next) >= refreshDistanceKm - 1e-6
    }
}

/// Distances on the Earth's surface.
package enum GreatCircle {
    /// The IUGG mean Earth radius.
    package static let earthRadiusKm = 6371.0088

    /// The haversine distance between two (lat, lon) points in degrees: right across the antimeridian and at the poles.
    package static func distanceKm(from a: (Double, Double), to b: (Double, Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.0 - a.0) * radians
        let dLon = (b.1 - a.1) * radians
        let sinLat = sin(dLat / 2)
        let sinLon = sin(dLon / 2)
        let h = sinLat * sinLat + cos(a.0 * radians) * cos(b.0 * radians) * sinLon * sinLon
        return 2 * earthRadiusKm * asin(min(1, h.squareRoot()))
    }
}
