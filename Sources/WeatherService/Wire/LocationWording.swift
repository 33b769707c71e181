import WeatherDomain

/// How every face says where the current location came from, from a location answer (`Location.answer`): the
/// commands and MCP alike.
package enum LocationWording {
    /// The short label of a location that is only the time zone's city, for one-line answers.
    package static let approximate = "approximate location"

    /// Where weatherd found the location: `approximate location: the principal city of the time zone
    /// Europe/Berlin`, or `found by GeoClue, within 4 km`; nil for a location the client set.
    package static func origin(_ location: JSONValue) -> String? {
        origin(
            source: location["source"]?.stringValue.flatMap(LocationSource.init(rawValue:)),
            zone: location["zone"]?.stringValue, accuracyM: location["accuracyM"]?.doubleValue)
    }

    /// The same wording for a typed location.
    package static func origin(_ location: Location) -> String? {
        origin(source: location.source, zone: location.zone, accuracyM: location.accuracyM)
    }

    private static func origin(source: LocationSource?, zone: String?, accuracyM: Double?) -> String? {
        switch source {
        case .timezone?:
            let zone = zone.map { " \($0)" } ?? ""
            return "\(approximate): the principal city of the time zone\(zone)"
        case .geoclue?:
            guard let metres = accuracyM else { return "found by GeoClue" }
            let within = metres < 1000 ? "\(Int(metres.rounded())) m" : "\(Int((metres / 1000).rounded())) km"
            return "found by GeoClue, within \(within)"
        default:
            return nil
        }
    }
}
