import Testing
import WeatherDomain

@Suite("Place names: coordinates take the nearest known name")
struct PlaceNamingTests {
    static let t = Timestamp(milliseconds: 1_795_348_800_000)
    /// The answer's place: rounded coordinates, no name.
    static let asked = Place(name: nil, country: nil, state: nil, lat: 52.52, lon: 13.41)
    static let nameless = Place(name: nil, country: nil, state: nil, lat: 52.52, lon: 13.41)

    static func favorites(_ list: [(String, Double, Double)]) -> FavoritesState {
        var state = FavoritesState()
        for (index, (name, lat, lon)) in list.enumerated() {
            state.apply(
                .favoriteAdded(
                    Favorite(
                        id: "fav-\(index + 1)", name: name, country: "DE", lat: lat, lon: lon, addedAt: t,
                        notify: true)))
        }
        return state
    }

    @Test("the nearest favorite within 1 km wins over a searched place and the provider's name")
    func favoriteFirst() {
        // 0.0045° of latitude is about 500 m; 0.008° about 890 m.
        let state = Self.favorites([("Far", 52.528, 13.41), ("Office", 52.5245, 13.41)])
        let searched = [Place(name: "Berlin", country: "DE", state: "Berlin", lat: 52.52, lon: 13.41)]
        let reported = Place(name: "Mitte", country: "DE", state: nil, lat: 52.52, lon: 13.41)
        let named = PlaceNaming.name(
            Self.asked, near: (52.52, 13.41), favorites: state, geocoded: searched, reported: reported)
        #expect(named.name == "Office")
        #expect(named.country == "DE")
        #expect(named.lat == 52.52 && named.lon == 13.41, "the answer keeps its own coordinates")
    }

    @Test("a favorite more than 1 km away is not used; the nearest searched place within 1 km is")
    func searchedNext() {
        let state = Self.favorites([("Office", 52.535, 13.41)])  // about 1.7 km north
        let searched = [
            Place(name: "Potsdam", country: "DE", state: "Brandenburg", lat: 52.39, lon: 13.06),
            Place(name: "Berlin", country: "DE", state: "Berlin", lat: 52.524, lon: 13.41),
            Place(name: "Mitte", country: "DE", state: "Berlin", lat: 52.521, lon: 13.41),
        ]
        let named = PlaceNaming.name(
            Self.asked, near: (52.52, 13.41), favorites: state, geocoded: searched, reported: Self.nameless)
        #expect(named.name == "Mitte")
        #expect(named.state == "Berlin")
    }

    @Test("with nothing known nearby: the provider's name, else the coordinates written out")
    func providerThenCoordinates() {
        let reported = Place(name: "London", country: "GB", state: nil, lat: 51.51, lon: -0.13)
        let place = Place(name: nil, country: nil, state: nil, lat: 51.51, lon: -0.13)
        let byProvider = PlaceNaming.name(
            place, near: (51.51, -0.13), favorites: FavoritesState(), geocoded: [], reported: reported)
        #expect(byProvider.name == "London")
        #expect(byProvider.country == "GB")
        let bare = PlaceNaming.name(
            place, near: (51.51, -0.13), favorites: FavoritesState(), geocoded: [], reported: place)
        #expect(bare.name == "51.51° N, 0.13° W")
    }

    @Test(
        "coordinates are written with two decimals and a hemisphere",
        arguments: [
            (52.52, 13.404, "52.52° N, 13.40° E"), (-33.8688, 151.2093, "33.87° S, 151.21° E"),
            (40.7, -74.006, "40.70° N, 74.01° W"), (0, 0, "0.00° N, 0.00° E"), (-0.001, -0.001, "0.00° N, 0.00° E"),
            (-90, 180, "90.00° S, 180.00° E"),
        ])
    func writtenOut(lat: Double, lon: Double, text: String) {
        #expect(PlaceNaming.writtenOut(lat: lat, lon: lon) == text)
    }

    @Test("the nearest favorite is found across the antimeridian and next to a pole")
    func edges() {
        let state = Self.favorites([("Date Line", -16.5, 179.999), ("Pole", 89.999, 0), ("Elsewhere", 10, 10)])
        #expect(state.nearest(to: -16.5, -179.999, withinKm: 1)?.name == "Date Line")
        #expect(state.nearest(to: 89.999, 120, withinKm: 1)?.name == "Pole", "about 190 m across the pole")
        #expect(state.nearest(to: 10.02, 10, withinKm: 1) == nil, "about 2.2 km away")
    }
}
