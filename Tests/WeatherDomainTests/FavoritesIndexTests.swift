import Testing
import WeatherDomain
import WeatherTesting

@Suite("Favorites at scale: the indexes agree with a plain list")
struct FavoritesIndexTests {
    static let t = Timestamp(milliseconds: 1_795_348_800_000)

    static func favorite(_ number: Int, lat: Double, lon: Double) -> Favorite {
        Favorite(
            id: "fav-\(number)", name: "Place \(number)", country: nil, lat: lat, lon: lon, addedAt: t, notify: true)
    }

    /// Whether two places are the same by the rule: under the tolerance in latitude and in longitude
    /// around the globe, checked without any index.
    static func samePlace(_ favorite: Favorite, _ lat: Double, _ lon: Double) -> Bool {
        let lonDistance = abs(favorite.lon - lon)
        return abs(favorite.lat - lat) < 0.001 && min(lonDistance, 360 - lonDistance) < 0.001
    }

    @Test("after 5,000 seeded adds, renames and removes, pages, lookups and the proximity check match a plain list")
    func randomOperations() throws {
        var generator = SeededGenerator(state: 16)
        var state = FavoritesState()
        var model: [Favorite] = []  // most recent first
        var number = 0
        for step in 0..<5_000 {
            let roll = Int.random(in: 0..<10, using: &generator)
            if roll < 6 || model.isEmpty {
                number += 1
                // A small area, so that near places and shared grid cells are common; some at the antimeridian.
                let lon =
                    step % 7 == 0
                    ? 179.99 + Double.random(in: 0..<0.02, using: &generator)
                    : 10 + Double.random(in: 0..<0.2, using: &generator)
                let wrapped = lon > 180 ? lon - 360 : lon
                let lat = 50 + Double.random(in: 0..<0.2, using: &generator)
                let decided = try? FavoritesDecisions.add(
                    state, name: "P", country: nil, lat: lat, lon: wrapped, now: Self.t)
                let expected = model.first { Self.samePlace($0, lat, wrapped) }
                #expect((decided == nil) == (expected != nil), "step \(step)")
                #expect(state.favorite(near: lat, wrapped, tolerance: 0.001) == expected, "step \(step)")
                if decided != nil {
                    let favorite = Self.favorite(number, lat: lat, lon: wrapped)
                    state.apply(.favoriteAdded(favorite))
                    model.insert(favorite, at: 0)
                }
            } else if roll < 8 {
                let index = Int.random(in: 0..<model.count, using: &generator)
                state.apply(.favoriteRemoved(model.remove(at: index)))
            } else {
                let index = Int.random(in: 0..<model.count, using: &generator)
                model[index].name = "Renamed \(step)"
                state.apply(.favoriteUpdated(FavoriteUpdate(favorite: model[index], changed: ["name"])))
            }
            if step % 500 == 0 || step == 4_999 {
                #expect(state.items == model, "step \(step)")
                #expect(state.count == model.count)
                #expect((0..<model.count).allSatisfy { state.favorite(at: $0) == model[$0] }, "step \(step)")
                #expect(state.favorite(at: model.count) == nil)
                #expect(try FavoritesState(json: state.json) == state)
                for favorite in model.prefix(50) {
                    let key = Place.key(lat: favorite.lat, lon: favorite.lon)
                    let atKey = model.filter { Place.key(lat: $0.lat, lon: $0.lon) == key }
                    #expect(state.favorites(atKey: key) == atKey, "step \(step)")
                    #expect(state.candidateCount(atKey: key) == atKey.count)
                }
            }
        }
        #expect(model.count > 1_000)
    }

    @Test("the proximity check among 100,000 favorites examines only the few in the cells around the point")
    func fewCandidates() {
        var state = FavoritesState()
        for number in 0..<100_000 {
            // A 0.002° lattice around Paris (316 × 316): the densest that adding allows.
            let lat = 48.5 + Double(number / 316) * 0.002
            let lon = 2.0 + Double(number % 316) * 0.002
            state.apply(.favoriteAdded(Self.favorite(number + 1, lat: lat, lon: lon)))
        }
        #expect(state.count == 100_000)
        #expect(state.candidateCount(near: 48.8, 2.3, tolerance: 0.001) <= 200)
        #expect(state.favorite(near: 48.5001, 2.0001, tolerance: 0.001)?.id == "fav-1")
        #expect(state.favorite(near: 48.4985, 2.0001, tolerance: 0.001) == nil)
        #expect(state.favorite(at: 0)?.id == "fav-100000")
        #expect(state.favorite(at: 99_999)?.id == "fav-1")
    }

    @Test("places across the antimeridian are the same place when under 0.001° apart")
    func antimeridian() throws {
        var state = FavoritesState()
        let east = try FavoritesDecisions.add(state, name: "East", country: nil, lat: -17, lon: 179.9996, now: Self.t)
        for event in east { state.apply(event) }
        #expect(throws: DomainError.self) {
            try FavoritesDecisions.add(state, name: "West", country: nil, lat: -17.0002, lon: -179.9997, now: Self.t)
        }
        #expect(state.favorite(near: -17, -180, tolerance: 0.001)?.name == "East")
        #expect(state.favorite(near: -17, -179.998, tolerance: 0.001) == nil)
    }

    @Test("adding past the maximum count is refused with too_many_favorites; a removal makes room")
    func maximum() throws {
        var state = FavoritesState()
        for number in 0..<3 {
            for event in try FavoritesDecisions.add(
                state, name: "P\(number)", country: nil, lat: Double(number), lon: 0, now: Self.t, maxCount: 3)
            {
                state.apply(event)
            }
        }
        let refused = #expect(throws: DomainError.self) {
            try FavoritesDecisions.add(state, name: "P3", country: nil, lat: 3, lon: 0, now: Self.t, maxCount: 3)
        }
        #expect(refused?.kind == "too_many_favorites")
        #expect(refused?.message.contains("--max-favorites") == true)
        state.apply(.favoriteRemoved(try #require(state.favorite(id: "fav-1"))))
        #expect(
            try FavoritesDecisions.add(state, name: "P3", country: nil, lat: 3, lon: 0, now: Self.t, maxCount: 3).count
                == 1)
    }
}
