import Testing
import WeatherDomain

@Suite("The 5 km rule")
struct LocationRuleTests {
    /// Degrees of latitude (along a meridian) for a distance.
    static func degrees(km: Double) -> Double { km / GreatCircle.earthRadiusKm * 180 / Double.pi }

    @Test(
        "along a meridian: 4.9 km keeps, 5.0 and 5.1 km refresh", arguments: [(4.9, false), (5.0, true), (5.1, true)])
    func edges(km: Double, refresh: Bool) {
        let start = (48.0, 11.0)
        let end = (48.0 + Self.degrees(km: km), 11.0)
        #expect(abs(GreatCircle.distanceKm(from: start, to: end) - km) < 1e-9)
        #expect(LocationDecisions.shouldRefresh(from: start, to: end) == refresh)
    }

    @Test(
        "along the equator across the antimeridian, distances are short",
        arguments: [(4.9, false), (5.0, true), (5.1, true)])
    func antimeridian(km: Double, refresh: Bool) {
        let half = Self.degrees(km: km) / 2
        let start = (0.0, 180 - half)
        let end = (0.0, -180 + half)
        #expect(abs(GreatCircle.distanceKm(from: start, to: end) - km) < 1e-6)
        #expect(LocationDecisions.shouldRefresh(from: start, to: end) == refresh)
    }

    @Test("across the north pole, a move to the opposite meridian is short", arguments: [(4.9, false), (5.1, true)])
    func pole(km: Double, refresh: Bool) {
        let half = Self.degrees(km: km) / 2
        let start = (90 - half, 30.0)
        let end = (90 - half, -150.0)
        #expect(abs(GreatCircle.distanceKm(from: start, to: end) - km) < 1e-6)
        #expect(LocationDecisions.shouldRefresh(from: start, to: end) == refresh)
    }

    @Test("the first location refreshes; moves are measured from the last refresh, not the last location")
    func fromLastRefresh() throws {
        var state = LocationState()
        let now = Timestamp(milliseconds: 0)
        func move(_ lat: Double, _ lon: Double) -> Bool {
            let events = LocationDecisions.set(state, lat: lat, lon: lon, name: nil, precision: 6, now: now)
            for event in events { state.apply(event) }
            guard case .locationChanged(let location)? = events.first else { return false }
            return location.refresh
        }
        #expect(move(0, 0))
        let step = Self.degrees(km: 3)
        #expect(!move(step, 0), "3 km from the refresh point")
        #expect(move(2 * step, 0), "6 km from the refresh point, though only 3 km from the last location")
        #expect(!move(2 * step + Self.degrees(km: 1), 0))
        #expect(state.refreshedFrom?.lat == Rounding.round(2 * step, decimals: 6))
    }

    @Test("the logged location is rounded to the configured precision")
    func rounding() throws {
        let events = LocationDecisions.set(
            LocationState(), lat: 52.520_817, lon: 13.409_419, name: "Mitte", precision: 2,
            now: Timestamp(milliseconds: 0))
        guard case .locationChanged(let location)? = events.first else {
            throw FieldError(path: "events", problem: "empty")
        }
        #expect(location.lat == 52.52)
        #expect(location.lon == 13.41)
        #expect(location.name == "Mitte")
        #expect(location.refresh)
    }
}
