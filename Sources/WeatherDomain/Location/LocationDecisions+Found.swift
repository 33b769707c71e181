/// A location weatherd found itself (`--auto-location`), exact as found: `LocationDecisions.found` rounds it
/// before anything records it.
package struct FoundLocation: Sendable, Equatable {
    package var lat: Double
    package var lon: Double
    package var source: LocationSource
    /// GeoClue's accuracy, in metres.
    package var accuracyM: Double?
    /// The time zone whose principal city it is.
    package var zone: String?
    /// The time zone's city.
    package var name: String?

    package init(
        lat: Double, lon: Double, source: LocationSource, accuracyM: Double? = nil, zone: String? = nil,
        name: String? = nil
    ) {
        self.lat = lat
        self.lon = lon
        self.source = source
        self.accuracyM = accuracyM
        self.zone = zone
        self.name = name
    }
}

extension LocationDecisions {
    /// Records a location weatherd found, rounded to `precision` decimals like one the client sets, when:
    /// none is set; or the one set was found too and is replaced, because the new one is GeoClue's where the
    /// old was only the time zone's city, or both come from the same source and they are 5 km or more apart
    /// (the move rule). Nothing else replaces it: a location the client set is never replaced, and the time
    /// zone's city never replaces a fix from GeoClue. A move of 5 km or more from the last refresh refreshes, as
    /// for every move.
    package static func found(
        _ state: LocationState, _ found: FoundLocation, precision: Int, now: Timestamp
    ) -> [DomainEvent] {
        if let current = state.current {
            guard let recorded = current.source else { return [] }
            switch (recorded, found.source) {
            case (.timezone, .geoclue):
                break
            case (.geoclue, .timezone):
                return []
            default:
                guard shouldRefresh(from: (current.lat, current.lon), to: (found.lat, found.lon)) else { return [] }
            }
        }
        guard
            case .locationChanged(var location) = set(
                state, lat: found.lat, lon: found.lon, name: found.name, precision: precision, now: now
            ).first
        else { return [] }
        location.source = found.source
        location.accuracyM = found.accuracyM.map { $0.rounded() }
        location.zone = found.zone
        return [.locationChanged(location)]
    }
}
