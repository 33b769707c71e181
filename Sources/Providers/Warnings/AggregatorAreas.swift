import WeatherDomain

/// Which of an aggregator's warnings concern a place, by the areas their senders drew.
///
/// **The rule.** A warning covers a point when the point lies in one of its polygons or circles
/// (`WarningShapes`); a warning whose areas have shapes none of which holds the point concerns a neighbour and
/// is left out. A warning whose areas are given only by names or codes (CAP `geocode`s the aggregator could not
/// turn into shapes) cannot be placed more closely than the aggregator placed it: it is served for the box the
/// aggregator listed it for, and its match says so (`area`).
package enum AggregatorAreas {
    /// How a warning was found to concern a place.
    package enum Match: String, Sendable, Equatable {
        /// The point lies in one of its polygons.
        case polygon
        /// The point lies in one of its circles.
        case circle
        /// It has no shapes: served for the area the aggregator listed it for.
        case area
    }

    /// The warnings of `warnings` that concern the point `(lat, lon)`, in their order, each with its match.
    package static func covering(_ warnings: [OfficialWarning], lat: Double, lon: Double) -> [(
        warning: OfficialWarning, match: Match
    )] {
        warnings.compactMap { warning in
            guard !warning.shapes.isEmpty else { return (warning, .area) }
            switch warning.shapes.cover(lat: lat, lon: lon) {
            case .polygon?: return (warning, .polygon)
            case .circle?: return (warning, .circle)
            case nil: return nil
            }
        }
    }
}
