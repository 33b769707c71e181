import Testing
import WeatherDomain

@Suite("A location weatherd found: when it is recorded, and what replaces it")
struct FoundLocationTests {
    static let now = Timestamp(milliseconds: 1_795_348_800_000)

    static func state(_ events: [DomainEvent]) -> LocationState {
        var state = LocationState()
        for event in events { state.apply(event) }
        return state
    }

    static func found(_ lat: Double, _ source: LocationSource) -> FoundLocation {
        FoundLocation(
            lat: lat, lon: 11.575, source: source, accuracyM: source == .geoclue ? 1_234.4 : nil,
            zone: source == .timezone ? "Europe/Berlin" : nil, name: source == .timezone ? "Berlin" : nil)
    }

    /// The state after one found location was recorded.
    static func after(_ found: FoundLocation) -> LocationState {
        state(LocationDecisions.found(LocationState(), found, precision: 2, now: now))
    }

    @Test("none set: recorded rounded like a client's, with its source, accuracy in whole metres, zone and name")
    func first() throws {
        let events = LocationDecisions.found(
            LocationState(), FoundLocation(lat: 48.137_154, lon: 11.576_124, source: .geoclue, accuracyM: 1_234.4),
            precision: 2, now: Self.now)
        guard case .locationChanged(let location)? = events.first, events.count == 1 else {
            Issue.record("\(events)")
            return
        }
        #expect(
            location
                == Location(
                    lat: 48.14, lon: 11.58, name: nil, setAt: Self.now, refresh: true, source: .geoclue, accuracyM: 1234
                ))
        #expect(!location.isApproximate)
        let city = LocationDecisions.found(LocationState(), Self.found(52.5, .timezone), precision: 2, now: Self.now)
        guard case .locationChanged(let zone)? = city.first else { return }
        #expect(zone.source == .timezone && zone.zone == "Europe/Berlin" && zone.name == "Berlin" && zone.isApproximate)
        #expect(zone.answer["approximate"] == true)
        #expect(zone.json["approximate"] == nil, "the log records the source, not the label")
    }

    @Test(
        "what replaces a found location: (recorded, found, km north, replaced)",
        arguments: [
            (LocationSource.geoclue, LocationSource.geoclue, 4.9, false),
            (.geoclue, .geoclue, 5.1, true),
            (.timezone, .timezone, 4.9, false),
            (.timezone, .timezone, 300, true),
            (.timezone, .geoclue, 0.5, true),
            (.geoclue, .timezone, 0.5, false),
            (.geoclue, .timezone, 300, false),
        ])
    func replacing(recorded: LocationSource, found: LocationSource, km: Double, replaced: Bool) {
        let before = Self.after(Self.found(48.137, recorded))
        let lat = (before.current?.lat ?? 0) + LocationRuleTests.degrees(km: km)
        let events = LocationDecisions.found(before, Self.found(lat, found), precision: 6, now: Self.now)
        #expect(events.isEmpty == !replaced)
        if case .locationChanged(let location)? = events.first { #expect(location.source == found) }
    }

    @Test("a location the client set is never replaced by one found, however far")
    func clientSet() {
        let set = Self.state(
            LocationDecisions.set(LocationState(), lat: 59.91, lon: 10.75, name: nil, precision: 2, now: Self.now))
        for source in LocationSource.allCases {
            #expect(LocationDecisions.found(set, Self.found(48.1, source), precision: 2, now: Self.now).isEmpty)
        }
    }

    @Test("v1 payloads read as v2 unchanged; a v2 payload round-trips with its new members")
    func versions() throws {
        let v1: JSONValue = ["lat": 27.72, "lon": 85.32, "name": "Kathmandu", "setAt": "2026-11-22T12:07:00.000Z"]
        guard
            case .event(.locationChanged(let old)) = try EventCatalog.standard.decode(
                type: "location.changed", version: 1, data: v1)
        else {
            Issue.record("v1 did not decode")
            return
        }
        #expect(old.source == nil && old.accuracyM == nil && old.zone == nil)
        guard
            case .event(.locationCleared) = try EventCatalog.standard.decode(
                type: "location.cleared", version: 1, data: v1)
        else {
            Issue.record("location.cleared v1 did not decode")
            return
        }
        var found = old
        found.source = .timezone
        found.zone = "Asia/Kathmandu"
        #expect(DomainEvent.locationChanged(found).kind == EventKind("location.changed", 2))
        #expect(DomainEvent.locationCleared(found).kind == EventKind("location.cleared", 2))
        #expect(try Location(json: found.json) == found)
        #expect(throws: FieldError.self) {
            try Location(json: ["lat": 1, "lon": 2, "setAt": "2026-11-22T12:07:00.000Z", "source": "ip"])
        }
    }
}
