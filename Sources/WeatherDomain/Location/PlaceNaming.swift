/// The name an answer gives a place asked for by its coordinates: the nearest name weatherd knows.
///
/// In order: the nearest favorite at most `nearbyKm` away (its current name and country); else the
/// nearest place the geocoder gave (a search, a city looked up, an address) at most as far (its name,
/// country and region); else the provider's own name for the point (OpenWeatherMap gives one, Open-Meteo
/// none); else the answer's coordinates written out, `52.52° N, 13.40° E`. The coordinates of the answer
/// stay the ones it was fetched for.
package enum PlaceNaming {
    /// How near a known place must be for its name to be used.
    package static let nearbyKm = 1.0

    /// Names `place` after what is known near `point` (where the client asked).
    ///
    /// - Parameters:
    ///   - place: the place of the answer (coordinates, possibly rounded).
    ///   - point: the point the client asked about, before rounding; it is only compared, never kept.
    ///   - favorites: the favorites, searched through their grid.
    ///   - geocoded: the places the geocoder gave that weatherd remembers (search history, cached candidates).
    ///   - reported: the place as the provider described it (its name and country, when it gives them).
    package static func name(
        _ place: Place, near point: (lat: Double, lon: Double), favorites: FavoritesState, geocoded: [Place],
        reported: Place
    ) -> Place {
        var named = Place(name: nil, country: nil, state: nil, lat: place.lat, lon: place.lon)
        if let favorite = favorites.nearest(to: point.lat, point.lon, withinKm: nearbyKm) {
            named.name = favorite.name
            named.country = favorite.country
            return named
        }
        let nearest = geocoded.filter { $0.name != nil }.map {
            (place: $0, distance: GreatCircle.distanceKm(from: (point.lat, point.lon), to: ($0.lat, $0.lon)))
        }.filter { $0.distance <= nearbyKm }.min { $0.distance < $1.distance }
        if let nearest {
            named.name = nearest.place.name
            named.country = nearest.place.country
            named.state = nearest.place.state
            return named
        }
        if let name = reported.name, !name.isEmpty {
            named.name = name
            named.country = reported.country
            named.state = reported.state
            return named
        }
        named.name = writtenOut(lat: place.lat, lon: place.lon)
        named.country = reported.country
        return named
    }

    /// Coordinates as words for people: `52.52° N, 13.40° E` (two decimals, about a kilometre).
    package static func writtenOut(lat: Double, lon: Double) -> String {
        "\(degrees(lat, positive: "N", negative: "S")), \(degrees(lon, positive: "E", negative: "W"))"
    }

    private static func degrees(_ value: Double, positive: String, negative: String) -> String {
        let hundredths = Int((abs(value) * 100).rounded())
        let fraction = hundredths % 100
        let hemisphere = hundredths == 0 || value > 0 ? positive : negative
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)° \(hemisphere)"
    }
}
