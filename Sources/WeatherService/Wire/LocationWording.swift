import WeatherDomain

/// How every face says where the current location came from, from a location answer (`Location.answer`): the
/// commands and MCP alike.
package enum LocationWording {
    /// The short label of a location that is only the time zone's city, for one-line answers.
    package static let approximate = "approximate location"

    /// Where weatherd found the location: `approximate location: the principal city of the time zone
    /// Europe/Berlin`, or `found by GeoClue, within 4 km`; nil for a location the client set.
    package static func origin(_ location: JSONValue) -> String? {
        switch location["source"]?.stringValue {
        case LocationSource.timezone.rawValue?:
            let zone = location["zone"]?.stringValue.map { " \($0)" } ?? ""
            return "\(approximate): the principal city of the time zone\(zone)"
        case LocationSource.geoclue.rawValue?:
            guard let metres = location["accuracyM"]?.doubleValue else { return "found by GeoClue" }
            let within = metres < 1000 ? "\(Int(metres.rounded())) m" : "\(Int((metres / 1000).rounded())) km"
            return "found by GeoClue, within \(within)"
        default:
            return nil
        }
    }
}
