import EventLog
import Testing
import WeatherDomain
import WeatherService
import WeatherTesting

@Suite("Replay")
struct ReplayTests {
    static func log(_ events: [NewEvent]) -> [UInt8] {
        var bytes: [UInt8] = []
        var chain: UInt32 = 0
        for (index, event) in events.enumerated() {
            chain =
                EnvelopeCodec.encode(
                    seq: Int64(index + 1), ts: Timestamp(milliseconds: 0), event: event, previousChain: chain,
                    into: &bytes
                ).chain
        }
        return bytes
    }

    static func event(_ type: String, _ v: Int, _ data: JSONValue) -> NewEvent {
        NewEvent(type: type, v: v, cause: "test", corr: nil, data: data.jsonBytes)
    }

    @Test("unknown types and newer versions are kept, skipped and counted")
    func unknownKept() throws {
        let directory = TemporaryDataDirectory()
        try directory.writeLog(
            Self.log([
                Self.event("weather.teleported", 1, ["to": "Mars"]),
                Self.event("settings.changed", 7, ["units": "furlongs"]),
                Self.event("settings.changed", 1, ["units": "imperial"]),
            ]))
        let result = try Replay.run(path: directory.logPath, commandWindow: 10)
        #expect(result.state.settings.units == .imperial)
        #expect(result.state.lastSeq == 3)
        #expect(
            result.state.skippedEvents == [EventKind("weather.teleported", 1): 1, EventKind("settings.changed", 7): 1])
    }

    @Test("an intact line of a known type whose payload breaks its schema refuses replay, naming its seq")
    func schemaBreak() throws {
        let directory = TemporaryDataDirectory()
        try directory.writeLog(
            Self.log([
                Self.event("settings.changed", 1, ["units": "imperial"]),
                Self.event("settings.changed", 1, ["units": "kelvin"]),
            ]))
        do {
            _ = try Replay.run(path: directory.logPath, commandWindow: 10)
            Issue.record("a payload that breaks its schema was replayed")
        } catch let error as ReplayError {
            #expect(error.seq == 2)
            #expect(error.description.contains("data.units"))
        }
    }

    @Test("replay and a second replay of the same log reach the same state (the digest is stable)")
    func deterministic() throws {
        let directory = TemporaryDataDirectory()
        try directory.writeLog(
            Self.log([
                Self.event(
                    "favorite.added", 1,
                    Favorite(
                        id: "fav-1", name: "A", country: nil, lat: 1, lon: 2, addedAt: Timestamp(milliseconds: 5),
                        notify: true
                    ).json),
                Self.event("history.cleared", 1, ["count": 0]),
            ]))
        let first = try Replay.run(path: directory.logPath, commandWindow: 10).state
        let second = try Replay.run(path: directory.logPath, commandWindow: 10).state
        #expect(first == second)
        #expect(Digest.fnv1a(first.json.jsonBytes) == Digest.fnv1a(second.json.jsonBytes))
        #expect(first.favorites.items.map(\.id) == ["fav-1"])
    }
}
