import Testing
import WeatherDomain

@Suite("Reducers and decisions")
struct ReducerTests {
    let t0 = Timestamp(milliseconds: 1_795_348_800_000)

    func add(_ state: inout FavoritesState, _ name: String, _ lat: Double, _ lon: Double) throws -> Favorite {
        let events = try FavoritesDecisions.add(state, name: name, country: nil, lat: lat, lon: lon, now: t0)
        for event in events { state.apply(event) }
        guard case .favoriteAdded(let favorite) = try #require(events.first) else {
            throw FieldError(path: "events", problem: "expected favorite.added")
        }
        return favorite
    }

    @Test("favorites: added most recent first, renamed, removed, ids never reused")
    func favorites() throws {
        var state = FavoritesState()
        let berlin = try add(&state, "Berlin", 52.52, 13.405)
        let paris = try add(&state, "Paris", 48.8566, 2.3522)
        #expect(state.items.map(\.id) == ["fav-2", "fav-1"])
        #expect(
            berlin
                == Favorite(
                    id: "fav-1", name: "Berlin", country: nil, lat: 52.52, lon: 13.405, addedAt: t0, notify: true))

        for event in try FavoritesDecisions.update(state, id: "fav-1", name: "Home", notify: false) {
            state.apply(event)
        }
        #expect(state.favorite(id: "fav-1")?.name == "Home")
        #expect(state.favorite(id: "fav-1")?.notify == false)

        for event in try FavoritesDecisions.remove(state, id: paris.id) { state.apply(event) }
        #expect(state.items.map(\.id) == ["fav-1"])
        let rome = try add(&state, "Rome", 41.9, 12.5)
        #expect(rome.id == "fav-3")
    }

    @Test("favorites: refusals carry a stable kind")
    func refusals() throws {
        var state = FavoritesState()
        _ = try add(&state, "Berlin", 52.52, 13.405)
        #expect(throws: DomainError.self) { try FavoritesDecisions.remove(state, id: "fav-9") }
        do {
            _ = try FavoritesDecisions.add(
                state, name: "Berlin again", country: nil, lat: 52.5201, lon: 13.4049, now: t0)
            Issue.record("a second favorite at the same place was accepted")
        } catch {
            #expect(error.kind == "already_exists")
        }
        do {
            _ = try FavoritesDecisions.update(state, id: "fav-2", name: "x", notify: nil)
            Issue.record("updating a missing favorite was accepted")
        } catch {
            #expect(error.kind == "not_found")
        }
        #expect(try FavoritesDecisions.update(state, id: "fav-1", name: "Berlin", notify: true).isEmpty)
    }

    @Test("history: most recent first, one entry per place, 20 kept")
    func history() {
        var state = HistoryState()
        for index in 0..<25 {
            state.apply(
                .historyRecorded(
                    HistoryEntry(
                        name: "City \(index)", country: "DE", state: nil, lat: Double(index), lon: 0,
                        searchedAt: Timestamp(milliseconds: Int64(index)))))
        }
        #expect(state.entries.count == 20)
        #expect(state.entries.first?.name == "City 24")
        #expect(state.entries.last?.name == "City 5")
        state.apply(
            .historyRecorded(
                HistoryEntry(
                    name: "city 10", country: "de", state: nil, lat: 10, lon: 0, searchedAt: Timestamp(milliseconds: 99)
                )))
        #expect(state.entries.count == 20)
        #expect(state.entries.first?.name == "city 10")
        #expect(state.entries.filter { $0.name.lowercased() == "city 10" }.count == 1)
        let again = HistoryEntry(
            name: "City 10", country: "DE", state: nil, lat: 10, lon: 0, searchedAt: Timestamp(milliseconds: 200))
        #expect(HistoryDecisions.record(state, again).isEmpty, "the place at the top stays there without an event")
        let moved = HistoryEntry(
            name: "City 10", country: "DE", state: nil, lat: 10.5, lon: 0, searchedAt: Timestamp(milliseconds: 200))
        #expect(HistoryDecisions.record(state, moved) == [.historyRecorded(moved)], "new coordinates are recorded")
        let older = HistoryEntry(
            name: "City 24", country: "DE", state: nil, lat: 24, lon: 0, searchedAt: Timestamp(milliseconds: 200))
        #expect(HistoryDecisions.record(state, older) == [.historyRecorded(older)], "a place below the top moves up")
        #expect(HistoryDecisions.clear(state) == [.historyCleared(count: 20)])
        state.apply(.historyCleared(count: 20))
        #expect(state.entries.isEmpty)
        #expect(HistoryDecisions.clear(state).isEmpty)
    }

    @Test("settings: a change is an event, the same value is none")
    func settings() {
        var state = SettingsState()
        #expect(state.units == .metric)
        #expect(SettingsDecisions.set(state, units: .metric).isEmpty)
        let events = SettingsDecisions.set(state, units: .imperial)
        #expect(events == [.settingsChanged(SettingsChange(units: .imperial))])
        for event in events { state.apply(event) }
        #expect(state.units == .imperial)
    }

    @Test("the whole state folds every slice and remembers command results")
    func wholeState() throws {
        var state = WeatherState(commandWindow: 2)
        let favorite = Favorite(
            id: "fav-1", name: "Oslo", country: "NO", lat: 59.9, lon: 10.7, addedAt: t0, notify: true)
        state.apply(.favoriteAdded(favorite), seq: 1, corr: "c-1")
        state.apply(.settingsChanged(SettingsChange(units: .standard)), seq: 2, corr: "c-2")
        state.apply(.locationChanged(Location(lat: 59.91, lon: 10.75, name: nil, setAt: t0)), seq: 3, corr: nil)
        #expect(state.lastSeq == 3)
        #expect(state.commands.result(for: "c-1") == favorite.json)
        #expect(state.commands.result(for: "c-2") == SettingsChange(units: .standard).answer)
        #expect(state.commands.result(for: "c-2")?["resolved"]?["temperature"] == "K")
        state.apply(.historyCleared(count: 0), seq: 4, corr: "c-3")
        #expect(state.commands.result(for: "c-1") == nil, "the window of 2 forgets the oldest")
        #expect(state.commands.count == 2)
        #expect(state.location.current?.lat == 59.91)
    }
}
