import WeatherDomain

/// Which official warning service covers a place, decided by jurisdiction, never by guess: a small state
/// machine whose owner performs the calls it asks for and decides again with their answers.
///
/// **By country**: NWS for the United States and its territories, Bright Sky (DWD, by municipality) for
/// Germany, MeteoAlarm for its other countries, the FOSS Public Alert Server for the rest, when it relays an
/// operating feed for the country (else no source covers the place, and the answer says so).
///
/// **A place without a country** (a bare coordinate, a location set from GPS): NWS's `/points` first (a 200
/// settles it); then the weather provider's reverse geocoding, when it has one (OpenWeatherMap), names the
/// country; else the countries the time zone table lists for the zone nearest the point. Those are
/// candidates, not an answer: where Germany is one, Bright Sky is asked, and it says whether the point is in
/// one of its warn cells; the rest go to the FOSS Public Alert Server, whose warnings' own polygons decide
/// which cover the point.
///
/// **A source that says a place is not its own hands it to the next**: Bright Sky's "no warn cell here" (a
/// German place on the border or offshore) hands it to the FOSS Public Alert Server. Each answer is cached
/// (`PointFetched.validityMs` for points and warn cells, a day for the feeds), so a place is asked about once.
package enum WarningRouting {
    /// What is known so far about the place.
    package struct Facts: Sendable, Equatable {
        /// What NWS's `/points` said of the point (asked only for a place without a country).
        package var nws: PointFetched.Facts?
        /// What the provider's reverse geocoding said of it.
        package var reverse: PointFetched.Facts?
        /// Whether Bright Sky has a DWD warn cell at the point.
        package var brightSky: Bool?
        /// The feeds the FOSS Public Alert Server relays for the countries it was asked about.
        package var feeds: [WarningsListed.Feed]?

        package init(
            nws: PointFetched.Facts? = nil, reverse: PointFetched.Facts? = nil, brightSky: Bool? = nil,
            feeds: [WarningsListed.Feed]? = nil
        ) {
            self.nws = nws
            self.reverse = reverse
            self.brightSky = brightSky
            self.feeds = feeds
        }
    }

    /// What the owner does next.
    package enum Step: Sendable, Equatable {
        /// Ask NWS's `/points` for the point, then decide again with its answer (`Facts.nws`).
        case askNWS
        /// Reverse-geocode the point through the weather provider (`Facts.reverse`).
        case reverseGeocode
        /// Ask Bright Sky for the point's warnings: its answer says whether the point is in a warn cell
        /// (`Facts.brightSky`).
        case askBrightSky
        /// Ask the FOSS Public Alert Server which feeds it relays for these countries (`Facts.feeds`).
        case askFeeds([String])
        /// The coverage is known: `place` is the place as asked, with the country, region and name learned for it
        /// filled in where it had none.
        case decided(WarningCoverage, place: Place)
    }

    /// The next step for `place`.
    ///
    /// - Parameters:
    ///   - zoneCountries: the countries the time zone table lists for the zone nearest the place (used only when
    ///     its country is not known otherwise).
    ///   - canReverseGeocode: whether the weather provider has reverse geocoding.
    package static func next(
        for place: Place, facts: Facts, zoneCountries: [String], canReverseGeocode: Bool
    ) -> Step {
        var described = place
        if let country = code(place.country) {
            if WarningCoverage.nwsCountries.contains(country) { return .decided(.nws, place: place) }
            return byCountry(country, described: place, facts: facts)
        }
        guard let nws = facts.nws else { return .askNWS }
        if nws.covered == true { return .decided(.nws, place: place) }
        if canReverseGeocode {
            guard let reverse = facts.reverse else { return .reverseGeocode }
            if let named = reverse.place, let country = code(named.country) {
                described.country = named.country?.trimmingWhitespace
                if described.state == nil { described.state = named.state }
                if described.name == nil { described.name = named.name }
                // NWS said it has no data for the point: its warnings would be none, whatever the country.
                if WarningCoverage.nwsCountries.contains(country) {
                    return .decided(.none(note: outsideNWS(country)), place: described)
                }
                return byCountry(country, described: described, facts: facts)
            }
        }
        var candidates: [String] = []
        for country in zoneCountries.compactMap(code) where !candidates.contains(country) { candidates.append(country) }
        if candidates.contains(WarningCoverage.brightSkyCountry) {
            guard let inCell = facts.brightSky else { return .askBrightSky }
            if inCell {
                described.country = WarningCoverage.brightSkyCountry
                return .decided(.brightsky, place: described)
            }
            candidates.removeAll { $0 == WarningCoverage.brightSkyCountry }
        }
        return aggregator(candidates, known: false, described: described, facts: facts)
    }

    /// A place in `country`: Bright Sky for Germany (handing a point in no warn cell on), MeteoAlarm for its
    /// countries, else the aggregator.
    private static func byCountry(_ country: String, described: Place, facts: Facts) -> Step {
        if country == WarningCoverage.brightSkyCountry {
            guard let inCell = facts.brightSky else { return .askBrightSky }
            if inCell { return .decided(.brightsky, place: described) }
            return aggregator([country], known: true, described: described, facts: facts)
        }
        if let feed = MeteoAlarmFeeds.feed(country: country) {
            return .decided(.meteoalarm(country: country, feed: feed), place: described)
        }
        return aggregator([country], known: true, described: described, facts: facts)
    }

    /// The aggregator for `countries`, once its feeds for them are known; a known country it relays no operating
    /// feed for is covered by no source.
    private static func aggregator(_ countries: [String], known: Bool, described: Place, facts: Facts) -> Step {
        guard !countries.isEmpty else {
            return .decided(.aggregator(countries: [], feeds: [], covered: false), place: described)
        }
        guard let feeds = facts.feeds else { return .askFeeds(countries) }
        let operating = feeds.filter { $0.operating && countries.contains($0.country.uppercased()) }
        let fed = Set(operating.map { $0.country.uppercased() })
        if known, operating.isEmpty {
            return .decided(.none(note: uncovered(countries.joined(separator: ", "))), place: described)
        }
        return .decided(
            .aggregator(
                countries: countries, feeds: operating.map(\.name), covered: countries.allSatisfy(fed.contains)),
            place: described)
    }

    /// An ISO country code, upper-cased; nil for nothing.
    private static func code(_ text: String?) -> String? {
        guard let text = text?.trimmingWhitespace, !text.isEmpty else { return nil }
        return text.uppercased()
    }

    static func outsideNWS(_ country: String) -> String {
        "No official warnings: the point is in \(country), but NWS answered that it has no data for this point."
    }

    static func uncovered(_ country: String) -> String {
        "No official warnings for \(country): no source weatherd reads covers it (NWS covers the United States, "
            + "Bright Sky Germany, MeteoAlarm its European countries, and the FOSS Public Alert Server relays no "
            + "operating feed for \(country)), so weatherd cannot say whether any warning is in force there."
    }
}
