import Testing
import WeatherDomain

@Suite("Snapshot decoders")
struct SnapshotCodecTests {
    let t0 = Timestamp(milliseconds: 1_795_348_800_000)

    func alert(_ number: Int, place: Int) -> DomainEvent {
        .alertRaised(
            RaisedAlert(
                id: "alert-\(number)", rule: .severe, key: "\(place),0",
                place: Place(
                    name: "P\(place)", country: nil, state: nil, lat: Double(place), lon: 0),
                favoriteId: nil, localDate: "2026-11-22",
                raisedAt: Timestamp(milliseconds: t0.milliseconds + Int64(number)),
                message: "storm", details: ["code": 95, "temperature": 3.5]))
    }

    @Test("the alerts slice comes back exactly past the de-dup keys' eviction, and then evolves like the original")
    func alertsPastEviction() throws {
        var state = AlertState()
        for number in 1...10_500 { state.apply(alert(number, place: number)) }
        var decoded = try AlertState(json: state.json)
        #expect(decoded == state)
        #expect(decoded.json.jsonBytes == state.json.jsonBytes)
        for number in 10_501...12_000 {
            state.apply(alert(number, place: number))
            decoded.apply(alert(number, place: number))
        }
        #expect(decoded == state)
        #expect(state.raised.count < 12_000)
    }

    @Test("the command ledger comes back exactly past its window, and forgets the same ids afterwards")
    func ledgerPastWindow() throws {
        var ledger = CommandLedger(window: 50)
        for number in 0..<130 {
            ledger.record(
                "c-\(number % 90)", method: number % 2 == 0 ? .favoritesAdd : .settingsSet,
                result: ["n": .int(Int64(number)), "x": 1.5])
        }
        var decoded = try CommandLedger(json: ledger.json, methods: ledger.methodsJSON, window: 50)
        #expect(decoded == ledger)
        #expect(decoded.json.jsonBytes == ledger.json.jsonBytes)
        for number in 130..<220 {
            ledger.record("c-\(number % 70)", method: .locationSet, result: .int(Int64(number)))
            decoded.record("c-\(number % 70)", method: .locationSet, result: .int(Int64(number)))
        }
        #expect(decoded == ledger)
        #expect(decoded.count == 50)
    }

    @Test("a ledger larger than the window, or with a repeated id, is refused")
    func ledgerRefusals() {
        let pairs: JSONValue = [["a", 1], ["b", 2], ["c", 3]]
        let methods: JSONValue = ["favorites/add", "favorites/add", "favorites/add"]
        #expect(throws: FieldError.self) { try CommandLedger(json: pairs, methods: methods, window: 2) }
        #expect(throws: FieldError.self) {
            try CommandLedger(json: [["a", 1], ["a", 2]], methods: ["settings/set", "settings/set"], window: 5)
        }
        #expect(throws: FieldError.self) { try CommandLedger(json: pairs, methods: ["favorites/add"], window: 5) }
        #expect(throws: FieldError.self) {
            try CommandLedger(json: pairs, methods: ["favorites/add", "no/such", "favorites/add"], window: 5)
        }
    }

    @Test("a whole state with skipped events and a last seq comes back exactly")
    func wholeState() throws {
        var state = WeatherState(commandWindow: 10)
        state.apply(.settingsChanged(SettingsChange(units: .imperial)), seq: 1, corr: "c-1")
        state.skip(EventKind("weather.radar", 3), seq: 2)
        state.skip(EventKind("weather.radar", 3), seq: 3)
        state.apply(alert(1, place: 7), seq: 4, corr: nil)
        let decoded = try WeatherState(snapshot: state.snapshotJSON, commandWindow: 10)
        #expect(decoded == state)
        #expect(decoded.lastSeq == 4)
        #expect(decoded.skippedEvents[EventKind("weather.radar", 3)] == 2)
        #expect(throws: FieldError.self) { try WeatherState(snapshot: ["slices": [:]], commandWindow: 10) }
    }
}
