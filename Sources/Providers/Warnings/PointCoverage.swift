import WeatherDomain

/// How weatherd learns which official warning service covers a place that has no country (a bare
/// coordinate, a location set from GPS): a small state machine whose owner performs the calls it asks for.
///
/// First NWS's `/points` for the point: NWS answers by point for every point it covers, so a 200 settles
/// it. Outside NWS, MeteoAlarm names regions, not points, so the point needs a country and a region: the
/// weather provider's reverse geocoding gives them, when it has one (OpenWeatherMap), and the place is then
/// matched as a named one. Each answer is cached (`PointFetched.validityMs`), so a point is asked about once.
package enum PointCoverage {
    /// What the owner does next.
    package enum Step: Sendable, Equatable {
        /// Ask NWS's `/points` for the point, then decide again with its answer.
        case askNWS
        /// Reverse-geocode the point through the weather provider, then decide again with its answer.
        case reverseGeocode
        /// The coverage is known: `place` is the place as asked, with the country, region and name learned
        /// for it filled in where it had none.
        case decided(WarningCoverage, place: Place)
    }

    /// The next step for `place`.
    ///
    /// - Parameters:
    ///   - nws: what NWS's `/points` said of the point, when it was asked.
    ///   - reverse: what the provider's reverse geocoding said of it, when it was asked.
    ///   - canReverseGeocode: whether the weather provider has reverse geocoding.
    ///   - provider: the weather provider's name, for the notes.
    package static func next(
        for place: Place, nws: PointFetched.Facts?, reverse: PointFetched.Facts?, canReverseGeocode: Bool,
        provider: String
    ) -> Step {
        if let country = place.country?.trimmingWhitespace, !country.isEmpty {
            return .decided(WarningCoverage.of(place), place: place)
        }
        guard let nws else { return .askNWS }
        if nws.covered == true { return .decided(.nws, place: place) }
        guard canReverseGeocode else { return .decided(.none(note: noReverseGeocoding(provider)), place: place) }
        guard let reverse else { return .reverseGeocode }
        guard let named = reverse.place, let country = named.country?.trimmingWhitespace, !country.isEmpty else {
            return .decided(.none(note: noCountry(provider)), place: place)
        }
        var described = place
        described.country = country
        if described.state == nil { described.state = named.state }
        if described.name == nil { described.name = named.name }
        let coverage = WarningCoverage.of(described)
        // NWS said it has no data for the point: its warnings would be none, whatever the country.
        if coverage == .nws { return .decided(.none(note: outsideNWS(country)), place: described) }
        return .decided(coverage, place: described)
    }

    /// Why a bare coordinate outside NWS gets nothing when the provider cannot name its country.
    static func noReverseGeocoding(_ provider: String) -> String {
        "No official warnings for a bare coordinate outside NWS coverage: MeteoAlarm names regions, not points, "
            + "and \(displayName(provider)) has no reverse geocoding to name the point's country and region; "
            + "ask for a named place (a city, or a favorite with its country) instead."
    }

    static func noCountry(_ provider: String) -> String {
        "No official warnings: NWS does not cover this point, and \(displayName(provider)) names no country "
            + "for it (at sea, or far from any place)."
    }

    static func outsideNWS(_ country: String) -> String {
        "No official warnings: the point is in \(country), but NWS answered that it has no data for this point."
    }

    private static func displayName(_ provider: String) -> String {
        switch provider {
        case "open-meteo": "Open-Meteo"
        case "openweathermap": "OpenWeatherMap"
        case "met-norway": "MET Norway"
        default: provider
        }
    }
}
