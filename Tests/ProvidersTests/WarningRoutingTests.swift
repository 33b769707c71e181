import Providers
import Testing
import WeatherDomain

@Suite("Routing a place's warnings by jurisdiction")
struct WarningRoutingTests {
    static let portland = Place(name: nil, country: nil, state: nil, lat: 45.52, lon: -122.68)
    static let sarajevo = Place(name: nil, country: nil, state: nil, lat: 43.85, lon: 18.39)
    static let covered = PointFetched.Facts(covered: true)
    static let outside = PointFetched.Facts(covered: false)

    static func next(
        _ place: Place, _ facts: WarningRouting.Facts = WarningRouting.Facts(), zones: [String] = [],
        owm: Bool = false
    ) -> WarningRouting.Step {
        WarningRouting.next(for: place, facts: facts, zoneCountries: zones, canReverseGeocode: owm)
    }

    static func feed(_ country: String, _ status: String = "operating") -> WarningsListed.Feed {
        WarningsListed.Feed(name: "\(country) service", country: country, status: status, official: true)
    }

    @Test("by country: NWS for the US and its territories, MeteoAlarm for its countries, with no call")
    func byCountry() {
        let phoenix = Place(name: "Phoenix", country: "US", state: nil, lat: 33.45, lon: -112.07)
        #expect(Self.next(phoenix) == .decided(.nws, place: phoenix))
        let sanJuan = Place(name: "San Juan", country: "pr", state: nil, lat: 18.47, lon: -66.1)
        #expect(Self.next(sanJuan) == .decided(.nws, place: sanJuan))
        let vienna = Place(name: "Wien", country: "AT", state: "Wien", lat: 48.21, lon: 16.37)
        #expect(Self.next(vienna) == .decided(.meteoalarm(country: "AT", feed: "austria"), place: vienna))
        #expect(WarningCoverage.meteoalarm(country: "AT", feed: "austria").covered)
    }

    @Test("Germany goes to Bright Sky, not to MeteoAlarm's region-level feed; a point in no warn cell is handed on")
    func germany() {
        let berlin = Place(name: "Berlin", country: "DE", state: "Berlin", lat: 52.52, lon: 13.41)
        #expect(Self.next(berlin) == .askBrightSky)
        #expect(Self.next(berlin, WarningRouting.Facts(brightSky: true)) == .decided(.brightsky, place: berlin))
        // Bright Sky knows no cell there (offshore, or across the border): the aggregator is asked next.
        #expect(Self.next(berlin, WarningRouting.Facts(brightSky: false)) == .askFeeds(["DE"]))
        let relayed = Self.next(berlin, WarningRouting.Facts(brightSky: false, feeds: [Self.feed("DE")]))
        #expect(
            relayed == .decided(.aggregator(countries: ["DE"], feeds: ["DE service"], covered: true), place: berlin))
    }

    @Test("elsewhere, the aggregator when it relays an operating feed for the country, else no source, said so")
    func aggregator() throws {
        let tokyo = Place(name: "Tokyo", country: "JP", state: nil, lat: 35.68, lon: 139.69)
        #expect(Self.next(tokyo) == .askFeeds(["JP"]))
        let fed = Self.next(tokyo, WarningRouting.Facts(feeds: [Self.feed("JP"), Self.feed("AU", "testing")]))
        #expect(fed == .decided(.aggregator(countries: ["JP"], feeds: ["JP service"], covered: true), place: tokyo))
        guard case .decided(let coverage, _) = fed else { return }
        #expect(coverage.source == .fpas)
        #expect(coverage.note.contains("FOSS Public Alert Server") && coverage.note.contains("in beta"))

        for feeds in [[], [Self.feed("JP", "not reachable")], [Self.feed("KR")]] {
            guard case .decided(let none, _) = Self.next(tokyo, WarningRouting.Facts(feeds: feeds)) else {
                Issue.record("not decided with \(feeds)")
                continue
            }
            #expect(none.source == nil)
            #expect(!none.covered)
            #expect(none.note.contains("No official warnings for JP: no source weatherd reads covers it"))
            #expect(none.note.contains("cannot say whether any warning is in force"))
        }
    }

    @Test("a bare coordinate asks NWS first; NWS covering it decides .nws, with either provider")
    func insideNWS() {
        #expect(Self.next(Self.portland) == .askNWS)
        #expect(Self.next(Self.portland, owm: true) == .askNWS)
        #expect(
            Self.next(Self.portland, WarningRouting.Facts(nws: Self.covered)) == .decided(.nws, place: Self.portland))
    }

    @Test("outside NWS with OpenWeatherMap: reverse-geocode, then route as the named place")
    func reverseGeocoded() {
        let facts = WarningRouting.Facts(nws: Self.outside)
        #expect(Self.next(Self.sarajevo, facts, owm: true) == .reverseGeocode)
        let named = Place(
            name: "Sarajevo", country: "BA", state: "Federation of Bosnia and Herzegovina", lat: 43.852, lon: 18.387)
        let step = Self.next(
            Self.sarajevo, WarningRouting.Facts(nws: Self.outside, reverse: PointFetched.Facts(place: named)), owm: true
        )
        let described = Place(
            name: "Sarajevo", country: "BA", state: "Federation of Bosnia and Herzegovina", lat: 43.85, lon: 18.39)
        #expect(step == .decided(.meteoalarm(country: "BA", feed: "bosnia-herzegovina"), place: described))

        let us = Place(name: "Somewhere", country: "US", state: nil, lat: 45.5, lon: -130)
        let offshore = Self.next(
            Place(name: nil, country: nil, state: nil, lat: 45.5, lon: -130),
            WarningRouting.Facts(nws: Self.outside, reverse: PointFetched.Facts(place: us)), owm: true)
        guard case .decided(let none, _) = offshore else {
            Issue.record("not decided")
            return
        }
        #expect(none.source == nil, "NWS said it has no data for the point")
        #expect(none.note.contains("NWS answered that it has no data"))
    }

    @Test("without reverse geocoding, the time zone table's countries are candidates: Bright Sky asked where DE is one")
    func zoneCandidates() {
        let point = Place(name: nil, country: nil, state: nil, lat: 52.5, lon: 13.4)
        let zones = ["DE", "DK", "NO", "SE", "SJ"]
        let afterNWS = WarningRouting.Facts(nws: Self.outside)
        #expect(Self.next(point, afterNWS, zones: zones) == .askBrightSky)
        var inCell = afterNWS
        inCell.brightSky = true
        var german = point
        german.country = "DE"
        #expect(Self.next(point, inCell, zones: zones) == .decided(.brightsky, place: german))
        // Near a border: Bright Sky says it is not a German cell; the rest of the candidates go to the aggregator.
        var notGerman = afterNWS
        notGerman.brightSky = false
        #expect(Self.next(point, notGerman, zones: zones) == .askFeeds(["DK", "NO", "SE", "SJ"]))
        notGerman.feeds = ["DK", "NO", "SE"].map { Self.feed($0) }
        guard case .decided(let partly, let place) = Self.next(point, notGerman, zones: zones) else {
            Issue.record("not decided")
            return
        }
        #expect(place.country == nil, "a candidate is never written in as the country")
        #expect(partly.source == .fpas)
        #expect(!partly.covered, "SJ has no feed: an empty list would not be an all-clear")
        #expect(partly.note.contains("one of DK, NO, SE, SJ by the time zone table"))
        notGerman.feeds?.append(Self.feed("SJ"))
        guard case .decided(let fully, _) = Self.next(point, notGerman, zones: zones) else { return }
        #expect(fully.covered)
    }

    @Test("a point whose country nothing names goes to the aggregator, marked as not known to be covered")
    func unknown() {
        let atSea = Place(name: nil, country: nil, state: nil, lat: -40, lon: -120)
        guard case .decided(let coverage, _) = Self.next(atSea, WarningRouting.Facts(nws: Self.outside)) else {
            Issue.record("not decided")
            return
        }
        #expect(coverage == .aggregator(countries: [], feeds: [], covered: false))
        #expect(coverage.source == .fpas)
        #expect(coverage.note.contains("not an all-clear"))
        // A point the time zone table places in a country the aggregator relays nothing for is still asked: its
        // candidates are no answer, so it is no "none".
        let guessed = Self.next(atSea, WarningRouting.Facts(nws: Self.outside, feeds: []), zones: ["PN"])
        guard case .decided(let candidate, _) = guessed else { return }
        #expect(candidate.source == .fpas)
        #expect(!candidate.covered)
        #expect(candidate.note.contains("relays no operating feed for any of them"))
    }
}
