#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FavoritesState {
    /// The favorite nearest to the point, when one is at most `km` away (great-circle distance); of two
    /// as near, the most recent.
    ///
    /// The grid finds the candidates in the cells around the point; within a degree of a pole, where a
    /// kilometre spans many cells of longitude, every favorite is a candidate.
    package func nearest(to lat: Double, _ lon: Double, withinKm km: Double) -> Favorite? {
        let latDegrees = km / (GreatCircle.earthRadiusKm * Double.pi / 180)
        let lonDegrees = latDegrees / max(cos(lat * Double.pi / 180), 1e-9)
        var best: (ranked: Ranked, distance: Double)?
        func consider(_ ranked: Ranked) {
            let distance = GreatCircle.distanceKm(from: (lat, lon), to: (ranked.favorite.lat, ranked.favorite.lon))
            guard distance <= km else { return }
            if let current = best,
                current.distance < distance || (current.distance == distance && current.ranked.rank > ranked.rank)
            {
                return
            }
            best = (ranked, distance)
        }
        if lonDegrees > 1 {
            for ranked in byID.values { consider(ranked) }
        } else {
            grid.forEachID(near: lat, lon, within: lonDegrees) { id in
                if let ranked = byID[id] { consider(ranked) }
            }
        }
        return best?.ranked.favorite
    }
}
