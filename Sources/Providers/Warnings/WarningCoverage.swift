import WeatherDomain

/// Which official warning service covers a place, with a sentence saying so for clients.
///
/// Routed by jurisdiction (`WarningRouting`): NWS for the United States, Bright Sky (DWD) for Germany, MeteoAlarm
/// for its other countries, the FOSS Public Alert Server for the rest.
package enum WarningCoverage: Sendable, Equatable {
    /// The US National Weather Service, asked for the place's point.
    case nws
    /// The Deutscher Wetterdienst by municipal warn cell, through Bright Sky, asked for the place's point.
    case brightsky
    /// MeteoAlarm's feed for `country` (`feed` is its name), matched to the place by `MeteoAlarmAreas`.
    case meteoalarm(country: String, feed: String)
    /// The FOSS Public Alert Server, its warnings matched to the place by their polygons and circles.
    /// `countries`: the place's country, or those the time zone table names near a point whose country weatherd
    /// does not know (empty when none); `feeds`: the names of the operating feeds the server relays for them.
    /// `covered` says whether every one of those countries has one.
    case aggregator(countries: [String], feeds: [String], covered: Bool)
    /// No service weatherd knows covers the place; `note` says why.
    case none(note: String)

    /// Country codes NWS issues warnings for: the United States and the territories its offices
    /// serve (Puerto Rico, the US Virgin Islands, Guam, the Northern Mariana Islands, American Samoa).
    package static let nwsCountries: Set<String> = ["US", "PR", "VI", "GU", "MP", "AS"]

    /// The country Bright Sky serves.
    package static let brightSkyCountry = "DE"

    /// The service that covers the place, or nil.
    package var source: OfficialWarning.Source? {
        switch self {
        case .nws: .nws
        case .brightsky: .brightsky
        case .meteoalarm: .meteoalarm
        case .aggregator: .fpas
        case .none: nil
        }
    }

    /// Whether a service is known to watch the place: then "no warnings" means none is in force. False for
    /// `none`, and for the aggregator when a country it may be in has no feed there (or is unknown): its empty
    /// answer is then no all-clear.
    package var covered: Bool {
        switch self {
        case .nws, .brightsky, .meteoalarm: true
        case .aggregator(_, _, let covered): covered
        case .none: false
        }
    }

    /// A sentence for clients about where the place's warnings come from, or why there are none.
    package var note: String {
        switch self {
        case .nws:
            "Official warnings from the US National Weather Service (api.weather.gov) for the place's location."
        case .brightsky:
            "Official warnings of the Deutscher Wetterdienst for the place's municipality, through Bright Sky "
                + "(api.brightsky.dev)."
        case .meteoalarm(let country, _):
            "Official warnings for \(country) from \(MeteoAlarmWarningProvider.attribution), matched to the place "
                + "by region name; a region MeteoAlarm names differently gets none."
        case .aggregator(let countries, let feeds, let covered):
            Self.aggregatorNote(countries: countries, feeds: feeds, covered: covered)
        case .none(let note):
            note
        }
    }

    private static func aggregatorNote(countries: [String], feeds: [String], covered: Bool) -> String {
        let intro =
            "Official warnings relayed by the FOSS Public Alert Server (KDE; in beta), each from its own sender, "
            + "matched to the place by the warnings' own polygons and circles"
        let shown = feeds.prefix(3).joined(separator: "; ") + (feeds.count > 3 ? "; and \(feeds.count - 3) more" : "")
        if covered {
            return intro + "; it relays \(shown) for \(countries.joined(separator: ", "))."
        }
        guard !countries.isEmpty else {
            return intro + ". weatherd does not know which country the point is in, so an empty list here is not "
                + "an all-clear: no service may watch it."
        }
        let known = "The point's country is one of \(countries.joined(separator: ", ")) by the time zone table"
        guard !feeds.isEmpty else {
            return intro + ". \(known), and the server relays no operating feed for any of them, so an empty list "
                + "here is not an all-clear."
        }
        return intro + ". \(known); the server relays \(shown), not a feed for each of them, so an empty list "
            + "here is not an all-clear."
    }
}
