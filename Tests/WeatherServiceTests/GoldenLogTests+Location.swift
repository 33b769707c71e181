import WeatherDomain

extension GoldenLogTests {
    /// `location.changed` v2 of every source, as `LocationDecisions` decides them: the time zone's city (none set),
    /// GeoClue's fix replacing it nearby, a move GeoClue found, a location the client set; and `location.cleared`
    /// v2 of a found location.
    static func v2LocationEvents() -> [(DomainEvent, String, String?)] {
        let t = { (minute: Int64) in Timestamp(milliseconds: 1_795_348_800_000 + minute * 60_000) }
        var state = LocationState()
        var events: [(DomainEvent, String, String?)] = []
        func record(_ decided: [DomainEvent], _ cause: String, _ corr: String? = nil) {
            for event in decided {
                state.apply(event)
                events.append((event, cause, corr))
            }
        }
        record(
            LocationDecisions.found(
                state,
                FoundLocation(
                    lat: 52.5, lon: 13.366_666, source: .timezone, zone: "Europe/Berlin", name: "Berlin"),
                precision: 2, now: t(0)), "conn:1/rpc:1")
        record(
            LocationDecisions.found(
                state, FoundLocation(lat: 52.516_275, lon: 13.377_704, source: .geoclue, accuracyM: 3_999.6),
                precision: 2, now: t(10)), "conn:2/rpc:1")
        record(
            LocationDecisions.found(
                state, FoundLocation(lat: 48.137_154, lon: 11.576_124, source: .geoclue, accuracyM: 812),
                precision: 2, now: t(20)), "conn:3/rpc:1")
        record(LocationDecisions.clear(state), "conn:4/rpc:1", "clear-1")
        record(
            LocationDecisions.set(state, lat: 47.376_887, lon: 8.541_694, name: "Zürich", precision: 2, now: t(30)),
            "conn:5/rpc:1", "set-1")
        return events
    }
}
