import Testing
import WeatherDomain
import WeatherTesting

@Suite("Places described by key: an answer about N places costs O(N)")
struct KnownPlacesTests {
    static let t = Timestamp(milliseconds: 1_795_348_800_000)

    /// The description by its definition, with no index: the first places at the same key that have a country,
    /// searched ones first, then favorites (most recent first), then geocoded ones (most recent answer first).
    static func plain(
        _ place: Place, history: HistoryState, favorites: [Favorite], geocodes: [String: Cached<[Place]>]
    ) -> Place {
        guard place.country == nil || place.state == nil else { return place }
        let key = place.key
        var known = history.entries.filter { Place.key(lat: $0.lat, lon: $0.lon) == key }.map {
            Place(name: $0.name, country: $0.country, state: $0.state, lat: $0.lat, lon: $0.lon)
        }
        known += favorites.filter { Place.key(lat: $0.lat, lon: $0.lon) == key }.map {
            Place(name: $0.name, country: $0.country, state: nil, lat: $0.lat, lon: $0.lon)
        }
        known += geocodes.values.sorted { $0.fetchedAt > $1.fetchedAt }.flatMap(\.value).filter { $0.key == key }
        var described = place
        for candidate in known where candidate.country != nil {
            if described.country == nil { described.country = candidate.country }
            guard described.country?.uppercased() == candidate.country?.uppercased() else { continue }
            if described.state == nil { described.state = candidate.state }
            if described.name == nil { described.name = candidate.name }
            if described.state != nil { break }
        }
        return described
    }

    @Test("10,000 favorites with alerts on: each is described from the few places at its key, as a plain scan would")
    func tenThousand() {
        var generator = SeededGenerator(state: 35)
        var favorites = FavoritesState()
        for number in 0..<10_000 {
            // A 100 × 100 lattice 0.05° apart: a key each; a country on two in three.
            let lat = 40 + Double(number / 100) * 0.05
            let lon = -100 + Double(number % 100) * 0.05
            favorites.apply(
                .favoriteAdded(
                    Favorite(
                        id: "fav-\(number + 1)", name: "Place \(number)", country: number % 3 == 0 ? nil : "US",
                        lat: lat, lon: lon, addedAt: Self.t, notify: true)))
        }
        let items = favorites.items
        var history = HistoryState()
        for number in 0..<40 {
            let favorite = items[Int.random(in: 0..<items.count, using: &generator)]
            history.apply(
                .historyRecorded(
                    HistoryEntry(
                        name: "Searched \(number)", country: "US", state: "State \(number)", lat: favorite.lat,
                        lon: favorite.lon, searchedAt: Timestamp(milliseconds: Self.t.milliseconds + Int64(number)))))
        }
        var geocodes: [String: Cached<[Place]>] = [:]
        for answer in 0..<1_000 {
            let candidates = (0..<5).map { _ in
                let favorite = items[Int.random(in: 0..<items.count, using: &generator)]
                return Place(
                    name: "Geocoded \(answer)", country: answer % 2 == 0 ? "US" : "CA", state: "Region \(answer)",
                    lat: favorite.lat, lon: favorite.lon)
            }
            geocodes["query \(answer)"] = Cached(
                value: candidates, fetchedAt: Timestamp(milliseconds: Self.t.milliseconds + Int64(answer)),
                provider: "open-meteo")
        }
        let known = KnownPlaces(history: history, favorites: favorites, geocodes: geocodes)

        // Every favorite described once: each examines only the places at its own key, so the whole answer
        // examines each known place about once (a scan per place would examine 10,000 × 15,020).
        let examined = items.reduce(0) { $0 + known.candidateCount(at: Place.key(lat: $1.lat, lon: $1.lon)) }
        #expect(examined <= 10_000 + 20 + 5_000, "\(examined)")
        #expect(items.allSatisfy { known.candidateCount(at: Place.key(lat: $0.lat, lon: $0.lon)) <= 12 })
        #expect(known.candidateCount(at: Place.key(lat: 10, lon: 10)) == 0)

        var described = 0
        for favorite in items.prefix(300) {
            let place = Place(name: nil, country: nil, state: nil, lat: favorite.lat, lon: favorite.lon)
            let expected = Self.plain(place, history: history, favorites: items, geocodes: geocodes)
            #expect(known.describe(place) == expected, "\(favorite.id)")
            if expected.state != nil { described += 1 }
        }
        #expect(described > 10, "the sample has places a region describes: \(described)")
    }
}
