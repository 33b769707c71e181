import EventLog
import Testing
import WeatherDomain
import WeatherEngine
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

    /// A fetch of `kind` for the place at `lat`, fetched at `minute`, with `temperature` in its report.
    static func fetched(_ kind: WeatherKind, lat: Double, minute: Int64, temperature: Double) -> DomainEvent {
        let place = Place(name: "P\(lat)", country: "NO", state: nil, lat: lat, lon: 10)
        let at = Timestamp(milliseconds: 1_795_000_000_000 + minute * 60_000)
        let call = UpstreamCall(
            provider: "open-meteo", url: "https://api.open-meteo.com/v1/forecast", status: 200, latencyMs: 9,
            bytes: 100, attempt: 1, at: at)
        let condition = Condition.wmo(61)
        let report: WeatherFetched.Report =
            kind == .current
            ? .current(
                CurrentReport(
                    place: place, timezone: "Europe/Oslo", utcOffsetSeconds: 3600,
                    current: CurrentConditions(observedAt: at, temperature: temperature, condition: condition)))
            : .forecast(
                ForecastReport(
                    place: place, timezone: "Europe/Oslo", utcOffsetSeconds: 3600,
                    entries: [ForecastEntry(time: at, temperature: temperature, condition: condition)],
                    daily: [DailySummary(date: "2026-11-18", min: temperature, max: temperature, condition: condition)])
            )
        return .weatherFetched(WeatherFetched(key: place.key, call: call, report: report))
    }

    @Test("replaced fetches are replayed from their audit facts; the state equals a full decode, evictions included")
    func deferredReports() throws {
        func notFound(lat: Double, minute: Int64) -> DomainEvent {
            let call = UpstreamCall(
                provider: "open-meteo", url: "u", status: 404, latencyMs: 1, bytes: 0, attempt: 1,
                at: Timestamp(milliseconds: 1_795_000_000_000 + minute * 60_000))
            return .weatherFetchFailed(
                FetchFailed(
                    key: Place.key(lat: lat, lon: 10), kind: "forecast", call: call, error: "not_found",
                    message: "no such place"))
        }
        var events: [DomainEvent] = []
        for round in 0..<3 {
            for place in 0..<40 {
                let minute = Int64(round * 100 + place)
                events.append(Self.fetched(.forecast, lat: Double(place), minute: minute, temperature: Double(round)))
                events.append(Self.fetched(.current, lat: Double(place), minute: minute, temperature: Double(round)))
            }
            // Between two fetches of the same place: the later fetch clears it, as in a full decode.
            if round == 1 { events.append(notFound(lat: 3, minute: 199)) }
        }
        events.append(notFound(lat: 89.5, minute: 400))
        for place in 0..<(WeatherCache.capacity + 20) {
            let minute = Int64(500 + place)
            events.append(
                Self.fetched(
                    .forecast, lat: Double(place % 90) + Double(place / 90) / 100, minute: minute, temperature: 7))
        }
        var folded = WeatherState(commandWindow: 10)
        for (index, event) in events.enumerated() { folded.apply(event, seq: Int64(index + 1), corr: nil) }
        let directory = TemporaryDataDirectory()
        try directory.writeLog(Self.log(events.map { NewEvent($0, cause: "test", corr: nil) }))
        let replayed = try Replay.run(path: directory.logPath, commandWindow: 10).state
        #expect(replayed.cache.forecast.count == WeatherCache.capacity, "the cache was full and evicted")
        #expect(replayed.cache.notFound.count == 1)
        #expect(replayed == folded)
        #expect(replayed.json == folded.json)
        let through = try Replay.run(path: directory.logPath, commandWindow: 10, through: 100).state
        var prefix = WeatherState(commandWindow: 10)
        for (index, event) in events.prefix(100).enumerated() { prefix.apply(event, seq: Int64(index + 1), corr: nil) }
        #expect(through.json == prefix.json, "a replay that stops early fills in what it read")
    }

    @Test("damage found by a read that starts past the first line is reported at its true line number")
    func lineNumbersFromAStart() throws {
        let events = (1...1100).map { Self.event("history.cleared", 1, ["count": .int(Int64($0))]) }
        var bytes = Self.log(events)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let offset = lines.prefix(1049).reduce(0) { $0 + $1.count + 1 } + 20
        bytes[offset] ^= 0x01
        let directory = TemporaryDataDirectory()
        try directory.writeLog(bytes)
        let start = LogWriter.Position(
            nextSeq: 1025, lastChain: 0, length: Int64(lines.prefix(1024).reduce(0) { $0 + $1.count + 1 }))
        var startChain: UInt32 = 0
        _ = try LogReader.read(path: directory.logPath) { envelope, _ in
            if envelope.seq == 1024 { startChain = envelope.chain }
            return envelope.seq < 1024
        }
        do {
            _ = try LogReader.read(
                path: directory.logPath,
                start: LogWriter.Position(nextSeq: start.nextSeq, lastChain: startChain, length: start.length)
            ) { _, _ in true }
            Issue.record("damage with intact lines after it was not refused")
        } catch let damage as LogDamage {
            #expect(damage.line == 1050)
            #expect(damage.seq == 1050)
        }
    }
}
