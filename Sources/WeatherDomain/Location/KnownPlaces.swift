/// The places weatherd knows by name (the search history, the favorites and the geocoding answers cached),
/// indexed by place key, to describe a place given by its coordinates alone: its country, region and name.
///
/// Built once for an answer about many places (the warnings in force at every place with alerts on, the
/// official checks), it describes each by the few places known at its key: an answer about N places costs
/// O(N), not O(N) per place.
package struct KnownPlaces: Sendable {
    /// The searched places by key, most recent first.
    private var searched: [String: [Place]] = [:]
    /// The geocoding candidates by key, from the most recent answer on.
    private var geocoded: [String: [Place]] = [:]
    private let favorites: FavoritesState

    /// Indexes the history and the geocoding answers (the favorites are indexed by key already).
    package init(history: HistoryState, favorites: FavoritesState, geocodes: [String: Cached<[Place]>]) {
        self.favorites = favorites
        for entry in history.entries {
            searched[Place.key(lat: entry.lat, lon: entry.lon), default: []].append(
                Place(name: entry.name, country: entry.country, state: entry.state, lat: entry.lat, lon: entry.lon))
        }
        for answer in geocodes.values.sorted(by: { $0.fetchedAt > $1.fetchedAt }) {
            for place in answer.value { geocoded[place.key, default: []].append(place) }
        }
    }

    /// The places known at `key`, in the order they are trusted: searched, favorite, geocoded.
    private func candidates(at key: String) -> [Place] {
        let favorites = favorites.favorites(atKey: key).map {
            Place(name: $0.name, country: $0.country, state: nil, lat: $0.lat, lon: $0.lon)
        }
        return (searched[key] ?? []) + favorites + (geocoded[key] ?? [])
    }

    /// How many known places describing a place at `key` examines: those at the key alone.
    package func candidateCount(at key: String) -> Int {
        (searched[key]?.count ?? 0) + favorites.candidateCount(atKey: key) + (geocoded[key]?.count ?? 0)
    }

    /// `place` with the country, region and name of a place known at the same key (about 1 km), where it lacks
    /// them: a region and a name only from a place of the same country.
    package func describe(_ place: Place) -> Place {
        guard place.country == nil || place.state == nil else { return place }
        var described = place
        for candidate in candidates(at: place.key) where candidate.country != nil {
            if described.country == nil { described.country = candidate.country }
            guard described.country?.uppercased() == candidate.country?.uppercased() else { continue }
            if described.state == nil { described.state = candidate.state }
            if described.name == nil { described.name = candidate.name }
            if described.state != nil { break }
        }
        return described
    }
}
