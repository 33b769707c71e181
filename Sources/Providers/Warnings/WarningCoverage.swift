import WeatherDomain

/// Which official warning service covers a place, with a sentence saying so for clients.
package enum WarningCoverage: Sendable, Equatable {
    /// The US National Weather Service, asked for the place's point.
    case nws
    /// MeteoAlarm's feed for `country` (`feed` is its name), matched to the place by `MeteoAlarmAreas`.
    case meteoalarm(country: String, feed: String)
    /// No service weatherd knows covers the place; `note` says why.
    case none(note: String)

    /// Country codes NWS issues warnings for: the United States and the territories its offices
    /// serve (Puerto Rico, the US Virgin Islands, Guam, the Northern Mariana Islands, American Samoa).
    package static let nwsCountries: Set<String> = ["US", "PR", "VI", "GU", "MP", "AS"]

    /// The coverage of `place`, by its ISO 3166 country code alone. A place without one is `.none` here: the
    /// engine learns the coverage of such a point from NWS and the provider first (`PointCoverage`).
    package static func of(_ place: Place) -> WarningCoverage {
        guard let raw = place.country?.trimmingWhitespace, !raw.isEmpty else {
            return .none(
                note: "No official warnings: the place has no country, so weatherd cannot tell which service covers it."
            )
        }
        let country = raw.uppercased()
        if nwsCountries.contains(country) { return .nws }
        if let feed = MeteoAlarmFeeds.feed(country: country) { return .meteoalarm(country: country, feed: feed) }
        return .none(
            note: "No official warnings for \(country): weatherd reads them only from the US National Weather "
                + "Service and from MeteoAlarm (Europe), and neither covers it.")
    }

    /// The service that covers the place, or nil.
    package var source: OfficialWarning.Source? {
        switch self {
        case .nws: .nws
        case .meteoalarm: .meteoalarm
        case .none: nil
        }
    }

    /// A sentence for clients about where the place's warnings come from, or why there are none.
    package var note: String {
        switch self {
        case .nws:
            "Official warnings from the US National Weather Service (api.weather.gov) for the place's location."
        case .meteoalarm(let country, _):
            "Official warnings for \(country) from \(MeteoAlarmWarningProvider.attribution), matched to the place "
                + "by region name; a region MeteoAlarm names differently gets none."
        case .none(let note):
            note
        }
    }
}
