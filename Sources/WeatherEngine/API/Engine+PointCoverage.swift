import Providers
import WeatherDomain

extension Engine {
    /// The warning service covering `place` and the place as it is matched, as `WarningRouting` decides: by its
    /// country when it has one; for one without (a bare coordinate, a location set from GPS), by asking NWS's
    /// `/points`, then the provider's reverse geocoding, else by the countries the time zone table lists near
    /// the point; Bright Sky for a German place (or a point that may be one), which says whether the point is in
    /// one of DWD's warn cells; the FOSS Public Alert Server's feeds for any other country. Each answer comes
    /// through the fetch path: cached, one call however many ask, every call audited.
    ///
    /// - Throws: the failure of a call that was needed (NWS or the provider down, an answer it cannot read)
    ///   when nothing is cached for it.
    func coverage(of place: Place, cause: String) async throws -> (coverage: WarningCoverage, place: Place) {
        // Only Bright Sky's "not mine" is taken from the cache here (kept 30 days, past its warnings' 5 minutes);
        // every other fact comes through the fetch path, which serves it from the cache while it is valid.
        let now = clock.timestamp()
        let cached = await cache.read { self.cachedRoutingFacts(of: place, in: $0, now: now) }
        var facts = WarningRouting.Facts(brightSky: cached.brightSky == false ? false : nil)
        let zones = fetcher.zoneCountries(lat: place.lat, lon: place.lon)
        while true {
            switch WarningRouting.next(
                for: place, facts: facts, zoneCountries: zones, canReverseGeocode: fetcher.canReverseGeocode)
            {
            case .decided(let coverage, let described): return (coverage, described)
            case .askNWS: facts.nws = try await fetcher.nwsPoint(at: place, cause: cause).value
            case .reverseGeocode: facts.reverse = try await fetcher.reverseGeocode(at: place, cause: cause).value
            case .askBrightSky:
                facts.brightSky = try await fetcher.brightSkyWarnings(at: place, cause: cause).value.covered
            case .askFeeds(let countries):
                facts.feeds = try await fetcher.aggregatorFeeds(countries: countries, cause: cause).value
            }
        }
    }

    /// `coverage(of:cause:)` from `cache` alone, making no call; nil when deciding needs a call not yet made.
    func cachedCoverage(of place: Place, in cache: WeatherCache) -> (coverage: WarningCoverage, place: Place)? {
        let facts = cachedRoutingFacts(of: place, in: cache, now: clock.timestamp())
        switch WarningRouting.next(
            for: place, facts: facts, zoneCountries: fetcher.zoneCountries(lat: place.lat, lon: place.lon),
            canReverseGeocode: fetcher.canReverseGeocode)
        {
        case .decided(let coverage, let described): return (coverage, described)
        case .askNWS, .reverseGeocode, .askBrightSky, .askFeeds: return nil
        }
    }

    /// What `cache` knows for routing `place`: NWS's and the provider's answers about its point (30 days), whether
    /// Bright Sky has a warn cell there (its last answer; a "not mine" kept 30 days), and the feeds the aggregator
    /// relays for the countries routing would ask about (a day).
    func cachedRoutingFacts(of place: Place, in cache: WeatherCache, now: Timestamp) -> WarningRouting.Facts {
        let key = place.key
        let zones = fetcher.zoneCountries(lat: place.lat, lon: place.lon)
        var facts = WarningRouting.Facts(
            nws: cache.points[PointFetched.entry(kind: .nwsPoint, key: key)]?.value,
            reverse: cache.points[PointFetched.entry(kind: .reverseGeocode, key: key)]?.value)
        let brightSky = WarningsFetched.entry(source: .brightsky, key: key)
        if let at = cache.uncovered[brightSky], now.milliseconds - at.milliseconds < PointFetched.validityMs {
            facts.brightSky = false
        } else if cache.warnings[brightSky] != nil, cache.uncovered[brightSky] == nil {
            facts.brightSky = true
        }
        // The feeds of the countries routing asks about, when it gets that far with what is cached.
        if case .askFeeds(let countries) = WarningRouting.next(
            for: place, facts: facts, zoneCountries: zones, canReverseGeocode: fetcher.canReverseGeocode),
            let listed = cache.warningLists[
                WarningsListed.entry(source: .fpas, kind: .feeds, key: countries.joined(separator: ","))],
            now.milliseconds - listed.fetchedAt.milliseconds < FetchActor.feedsTTL.milliseconds
        {
            facts.feeds = listed.value.feeds
        }
        return facts
    }
}
