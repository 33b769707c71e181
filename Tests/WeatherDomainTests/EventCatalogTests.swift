import Testing
import WeatherDomain

@Suite("Event catalog")
struct EventCatalogTests {
    static let t0 = Timestamp(milliseconds: 1_795_348_800_000)
    static let favorite = Favorite(
        id: "fav-7", name: "Zürich", country: "CH", lat: 47.37, lon: 8.54, addedAt: t0, notify: false)

    static let samples: [DomainEvent] = [
        .serviceStarted(ServiceStarted(version: "0.1.0", fsync: "always", pid: 42)),
        .serviceStopped(ServiceStopped(reason: "eof", uptimeMs: 1234)),
        .logRecovered(
            LogRecovered(file: "events.jsonl", offset: 10, droppedBytes: 5, brokenCopy: "x", reason: "bad_crc")),
        .logTruncated(
            LogTruncated(
                fromSeq: 1, throughSeq: 480, lastChain: "9c1e02ab",
                segments: [
                    LogTruncated.Segment(
                        file: "events-00000000000000000001.jsonl", firstSeq: 1, lastSeq: 480, bytes: 65_000,
                        lastAt: t0)
                ], cutoff: t0, retainAudit: "365d", baseSeq: 500)),
        .favoriteAdded(favorite),
        .favoriteRemoved(favorite),
        .favoriteUpdated(FavoriteUpdate(favorite: favorite, changed: ["name", "notify"])),
        .historyRecorded(
            HistoryEntry(name: "Springfield", country: "US", state: "IL", lat: 39.8, lon: -89.6, searchedAt: t0)),
        .historyCleared(count: 3),
        .settingsChanged(SettingsChange(units: .imperial)),
        .locationChanged(Location(lat: 27.7, lon: 85.32, name: "Kathmandu", setAt: t0)),
        .locationCleared(Location(lat: 27.7, lon: 85.32, name: "Kathmandu", setAt: t0, refresh: true)),
        .pointFetched(
            PointFetched(
                kind: .nwsPoint, key: "45.52,-122.68",
                call: UpstreamCall(
                    provider: "nws", url: "https://api.weather.gov/points/45.52,-122.68", status: 404, latencyMs: 80,
                    bytes: 254, attempt: 1, at: t0), facts: PointFetched.Facts(covered: false))),
        .pointFetched(
            PointFetched(
                kind: .reverseGeocode, key: "43.86,18.41",
                call: UpstreamCall(
                    provider: "openweathermap", url: "https://api.openweathermap.org/geo/1.0/reverse?lat=43.86",
                    status: 200, latencyMs: 120, bytes: 300, attempt: 1, at: t0),
                facts: PointFetched.Facts(
                    place: Place(name: "Sarajevo", country: "BA", state: nil, lat: 43.852, lon: 18.387)))),
    ]

    @Test("every event decodes from its own data", arguments: samples)
    func roundTrip(event: DomainEvent) throws {
        let data = try JSONValue.parse(event.data.jsonBytes)
        let outcome = try EventCatalog.standard.decode(type: event.kind.type, version: event.kind.version, data: data)
        #expect(outcome == .event(event))
    }

    @Test("point.fetched of NWS without covered is refused, naming the member")
    func pointWithoutCovered() {
        let data: JSONValue = [
            "kind": "nws_point", "key": "45.52,-122.68", "provider": "nws", "url": "https://api.weather.gov/points/1,2",
            "latencyMs": 1, "bytes": 1, "attempt": 1, "fetchedAt": "2026-11-27T08:00:00.000Z",
        ]
        #expect(throws: FieldError(path: "data.covered", problem: "is required for kind nws_point")) {
            try EventCatalog.standard.decode(type: "point.fetched", version: 1, data: data)
        }
    }

    @Test("an unknown type or a newer version is reported, not decoded")
    func unknown() throws {
        #expect(
            try EventCatalog.standard.decode(type: "weather.teleported", version: 1, data: [:])
                == .unknown(EventKind("weather.teleported", 1)))
        #expect(
            try EventCatalog.standard.decode(type: "favorite.added", version: 2, data: [:])
                == .unknown(EventKind("favorite.added", 2)))
    }

    @Test("a known type with a payload that breaks its schema is an error naming the field")
    func malformed() {
        do {
            _ = try EventCatalog.standard.decode(type: "settings.changed", version: 1, data: ["units": "kelvin"])
            Issue.record("accepted units kelvin")
        } catch {
            #expect(error.path == "data.units")
        }
    }

    @Test("an upcaster turns an old version into the current one before decoding")
    func upcasting() throws {
        let catalog = EventCatalog(upcasters: [
            EventKind("settings.changed", 0): .init(to: 1) { old in
                .object(["units": old["system"] ?? .null])
            }
        ])
        let outcome = try catalog.decode(type: "settings.changed", version: 0, data: ["system": "imperial"])
        #expect(outcome == .event(.settingsChanged(SettingsChange(units: .imperial))))
    }

    @Test("field errors say which member and what is wrong")
    func fieldReader() throws {
        let reader = try FieldReader(["lat": 91, "name": "  ", "flag": "yes", "extra": 1], path: "params")
        #expect(throws: FieldError(path: "params.lat", problem: "must be between -90.0 and 90.0")) {
            try reader.double("lat", in: -90...90)
        }
        #expect(throws: FieldError(path: "params.name", problem: "must not be empty")) {
            try reader.nonEmptyString("name")
        }
        #expect(throws: FieldError(path: "params.flag", problem: "must be true or false")) {
            try reader.optionalBool("flag")
        }
        #expect(throws: FieldError.self) { try reader.rejectUnknown(["lat", "name", "flag"]) }
        #expect(throws: FieldError(path: "params", problem: "must be an object")) {
            try FieldReader(.array([]), path: "params")
        }
    }
}
