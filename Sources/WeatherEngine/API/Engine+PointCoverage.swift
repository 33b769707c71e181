import Providers
import WeatherDomain

extension Engine {
    /// The warning service covering `place` and the place as it is matched: for a place with a country, by
    /// its country alone; for one without (a bare coordinate, a location set from GPS), by asking NWS's
    /// `/points` and then, outside NWS, the provider's reverse geocoding, as `PointCoverage` decides. Each
    /// answer comes through the fetch path: cached 30 days, one call however many ask, every call audited.
    ///
    /// - Throws: the failure of a call that was needed (NWS or the provider down, an answer it cannot read)
    ///   when nothing is cached for the point.
    func coverage(of place: Place, cause: String) async throws -> (coverage: WarningCoverage, place: Place) {
        var nws: PointFetched.Facts?
        var reverse: PointFetched.Facts?
        while true {
            switch PointCoverage.next(
                for: place, nws: nws, reverse: reverse, canReverseGeocode: fetcher.canReverseGeocode,
                provider: fetcher.providerName)
            {
            case .decided(let coverage, let described): return (coverage, described)
            case .askNWS: nws = try await fetcher.nwsPoint(at: place, cause: cause).value
            case .reverseGeocode: reverse = try await fetcher.reverseGeocode(at: place, cause: cause).value
            }
        }
    }

    /// `coverage(of:cause:)` from `cache` alone, making no call; nil when deciding needs a call not yet made.
    func cachedCoverage(of place: Place, in cache: WeatherCache) -> (coverage: WarningCoverage, place: Place)? {
        let key = place.key
        switch PointCoverage.next(
            for: place, nws: cache.points[PointFetched.entry(kind: .nwsPoint, key: key)]?.value,
            reverse: cache.points[PointFetched.entry(kind: .reverseGeocode, key: key)]?.value,
            canReverseGeocode: fetcher.canReverseGeocode, provider: fetcher.providerName)
        {
        case .decided(let coverage, let described): return (coverage, described)
        case .askNWS, .reverseGeocode: return nil
        }
    }
}
