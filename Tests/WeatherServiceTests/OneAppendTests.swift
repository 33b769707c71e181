import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request's events go out in one append and one fdatasync, whatever slices they change, and they are the events
/// weatherd wrote before it batched them.
@Suite("One append per request")
struct OneAppendTests {
    /// The geocoder's places and the weather, by route.
    static func network() -> InMemoryTransport {
        let network = InMemoryTransport()
        let places: [(String, String, String?, Double, Double)] = [
            ("Berlin", "DE", "State of Berlin", 52.52, 13.41), ("Paris", "FR", "Île-de-France", 48.85, 2.35),
            ("Oslo", "NO", "Oslo", 59.91, 10.75), ("Bern", "CH", "Bern", 46.95, 7.45),
            ("Rome", "IT", "Lazio", 41.9, 12.5),
        ]
        for place in places {
            network.route(
                "/v1/search", query: "name=\(place.0)&", InMemoryTransport.ok(OpenMeteoBodies.geocode([place])))
        }
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 4)))
        network.route(
            "/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast(hours: 6, days: 2)))
        return network
    }

    /// The log's writes in order, each as its lines (decoded), from the file's bytes and the sizes of its appends.
    static func writes(_ file: FaultInjectingFile) throws -> [[JSONValue]] {
        let contents = file.contents
        var start = 0
        return try file.appendSizes.map { size in
            defer { start += size }
            return try contents[start..<(start + size)].split(separator: 10).map { try JSONValue.parse(Array($0)) }
        }
    }

    /// One request of the session, and the event types of the one write it makes (none: it makes no write).
    struct Step: Sendable {
        var method: String
        var params: JSONValue
        var types: [String]
    }

    /// Requests that each record several events (and one that moves the location first, whose background refresh
    /// the session waits out), in the order the session sends them.
    static let steps: [Step] = [
        Step(
            method: "weather/current", params: ["city": "Berlin"],
            types: ["geocode.fetched", "history.recorded", "weather.fetched"]),
        Step(
            method: "weather/forecast", params: ["city": "Paris"],
            types: ["geocode.fetched", "history.recorded", "weather.fetched"]),
        Step(
            method: "favorites/add", params: ["city": "Oslo", "commandId": "add-oslo"],
            types: ["geocode.fetched", "history.recorded", "favorite.added"]),
        Step(method: "favorites/add", params: ["city": "Oslo", "commandId": "add-oslo"], types: []),
        Step(
            method: "refresh", params: ["city": "Berlin"],
            types: ["history.recorded", "weather.fetched", "weather.fetched"]),
        Step(method: "location/set", params: ["lat": 46.96, "lon": 7.46], types: []),
        Step(method: "location/set", params: ["address": "Bern"], types: ["geocode.fetched", "location.changed"]),
        Step(
            method: "favorites/add", params: ["city": "Rome"], types: ["geocode.fetched", "history.recorded"]),
    ]

    /// Runs the session; for each step its answer (result or error), the writes it made and the syncs they took.
    static func session(_ service: InProcessWeatherd, _ file: FaultInjectingFile) async throws
        -> [(answer: JSONValue, writes: [[JSONValue]], syncs: Int)]
    {
        // Rome is a favorite already, so that adding it by city is refused once its geocoding is recorded.
        _ = try await service.result("favorites/add", ["name": "Roma", "lat": 41.9, "lon": 12.5])
        var outcomes: [(answer: JSONValue, writes: [[JSONValue]], syncs: Int)] = []
        for step in steps {
            let (writes, syncs) = (try Self.writes(file).count, file.syncCount)
            let answer = try await service.call(step.method, step.params)
            await service.engine.drainBackground()
            await service.engine.alertsCaughtUp()
            outcomes.append((answer, Array(try Self.writes(file)[writes...]), file.syncCount - syncs))
        }
        return outcomes
    }

    @Test(
        "each request's events, across the cache, the history, the favorites and the location, are one write and one fsync"
    )
    func oneWritePerRequest() async throws {
        let file = FaultInjectingFile()
        try await InProcessWeatherd.with(file: file, network: Self.network()) { service in
            let outcomes = try await Self.session(service, file)
            for (step, outcome) in zip(Self.steps, outcomes) {
                let label = "\(step.method) \(step.params.jsonString)"
                if step.method == "location/set", step.types.isEmpty {
                    #expect(outcome.answer["result"]?["refresh"] == true, "the first move refreshes: \(label)")
                    continue
                }
                let requestWrites = outcome.writes.filter { write in
                    write.contains { $0["cause"]?.stringValue?.contains("rpc:") == true }
                }
                #expect(
                    requestWrites.map { $0.compactMap { $0["type"]?.stringValue } }
                        == (step.types.isEmpty ? [] : [step.types]),
                    "\(label)")
                #expect(outcome.writes.count == requestWrites.count, "nothing else was written: \(label)")
                #expect(outcome.syncs == requestWrites.count, "one fsync: \(label)")
            }
            #expect(outcomes[2].answer["result"] == outcomes[3].answer["result"], "a repeated commandId answers alike")
            #expect(outcomes[2].answer["result"]?["name"] == "Oslo")
            #expect(outcomes[7].answer["error"]?["data"]?["kind"] == "already_exists")
            #expect(outcomes[6].answer["result"]?["name"] == "Bern")
            #expect(outcomes[6].answer["result"]?["refresh"] == false, "within 5 km of the first move")
            let history = try await service.result("history/list")["history"]?.arrayValue ?? []
            #expect(history.compactMap { $0["name"]?.stringValue } == ["Rome", "Berlin", "Oslo", "Paris"])
        }
    }

    @Test("a cache-miss weather/current by city costs one fsync, not three")
    func cacheMissCurrent() async throws {
        let file = FaultInjectingFile()
        try await InProcessWeatherd.with(file: file, network: Self.network()) { service in
            let syncs = file.syncCount
            let answer = try await service.result("weather/current", ["city": "Berlin"])
            #expect(answer["source"] == "network")
            #expect(answer["location"]?["name"] == "Berlin")
            #expect(file.syncCount - syncs == 1)
            let types = try Self.writes(file).map { $0.compactMap { $0["type"]?.stringValue } }
            #expect(types == [["geocode.fetched", "history.recorded", "weather.fetched"]])
            let seqs = try Self.writes(file)[0].compactMap { $0["seq"]?.intValue }
            #expect(seqs == [1, 2, 3], "the geocoding, then the history entry it made, then the weather")
        }
    }

    /// Where the recorded events of the session are: written by weatherd before it appended a request's events as
    /// one (one append per event), and compared with every later run.
    static let recorded = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/one-append-session.jsonl")

    @Test("the events are those weatherd wrote one append at a time: same types, order, causes and data")
    func sameEventsAsBefore() async throws {
        let file = FaultInjectingFile()
        try await InProcessWeatherd.with(file: file, network: Self.network()) { service in
            _ = try await Self.session(service, file)
            let lines = try Self.writes(file).joined().filter { $0["cause"]?.stringValue?.contains("rpc:") == true }
                .map { event -> JSONValue in
                    var kept: [String: JSONValue] = [:]
                    for key in ["type", "v", "cause", "corr", "data"] { kept[key] = event[key] }
                    return .object(kept)
                }
            if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1",
                !FileManager.default.fileExists(atPath: Self.recorded.path)
            {
                let text = lines.map(\.jsonString).joined(separator: "\n") + "\n"
                try text.write(to: Self.recorded, atomically: true, encoding: .utf8)
                Issue.record("recorded \(Self.recorded.path): look at it before committing it")
                return
            }
            let golden = try String(contentsOf: Self.recorded, encoding: .utf8).split(separator: "\n")
                .map { try JSONValue.parse(String($0)) }
            #expect(lines.count == golden.count)
            for (index, (line, expected)) in zip(lines, golden).enumerated() {
                #expect(line == expected, "event \(index + 1) of the session")
            }
        }
    }

    @Test("a request that joins a call whose events wait in another request's batch gets them appended at once")
    func joinerFlushesTheStartersBatch() async throws {
        let network = Self.network()
        network.route(
            "/v1/forecast", query: "current=", .held(InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 9))))
        let file = FaultInjectingFile()
        try await InProcessWeatherd.with(file: file, network: network) { service in
            let byCity: JSONValue = [
                "jsonrpc": "2.0", "id": "city", "method": "weather/current", "params": ["city": "Rome"],
            ]
            await service.receive(byCity.jsonBytes)
            #expect(await network.requests(atLeast: 2), "the geocoding, then the held weather call")
            #expect(try Self.writes(file).isEmpty, "the geocoding's events wait in the request's batch")
            let joiner: JSONValue = [
                "jsonrpc": "2.0", "id": "point", "method": "weather/current", "params": ["lat": 41.9, "lon": 12.5],
            ]
            await service.receive(joiner.jsonBytes)
            #expect(
                try await eventually { try Self.writes(file).count == 1 },
                "the joiner appended what the batch held so far")
            network.release()
            let first = try #require(try await service.output.response(id: "city"))
            let second = try #require(try await service.output.response(id: "point"))
            #expect(first["result"]?["current"]?["temperature"] == 9)
            #expect(second["result"]?["current"]?["temperature"] == 9)
            #expect(network.requests.filter { $0.contains("current=") }.count == 1, "one call, shared")
            let types = try Self.writes(file).map { $0.compactMap { $0["type"]?.stringValue } }
            #expect(types == [["geocode.fetched", "history.recorded"], ["weather.fetched"]])
        }
    }

    @Test("a joint append the log refuses at any of its bytes changes no state: the log is cut back, nothing recorded")
    func refusedBatch() async throws {
        // The bytes of the request's one append, from a run whose log takes it, and where its lines end.
        let accepted = FaultInjectingFile()
        try await InProcessWeatherd.with(file: accepted, network: Self.network()) { service in
            _ = try await service.result("weather/current", ["city": "Berlin"])
        }
        let size = try #require(accepted.appendSizes.first)
        let lineEnds = accepted.contents[..<size].indices.filter { accepted.contents[$0] == 10 }.map { $0 + 1 }
        #expect(lineEnds.count == 3, "the geocoding, the history entry and the weather, in one append")
        let cuts = Set([0, 1, size / 2, size - 1] + lineEnds.dropLast() + lineEnds.dropLast().map { $0 + 1 })
        for partial in cuts.sorted() {
            let file = FaultInjectingFile()
            try await InProcessWeatherd.with(file: file, network: Self.network()) { service in
                file.failAppend(.init(partialBytes: partial, errno: ENOSPC))
                let failed = try await service.call("weather/current", ["city": "Berlin"])
                #expect(failed["error"]?["data"]?["kind"] == "storage_failure", "cut at byte \(partial)")
                #expect(file.contents.isEmpty, "the log is cut back to its last durable byte: cut at byte \(partial)")
                #expect(try await service.result("history/list")["history"]?.arrayValue?.isEmpty == true)
                let status = try await service.result("service/status")
                #expect(status["readOnly"] == true)
                #expect(status["lastSeq"] == 0, "cut at byte \(partial)")
            }
        }
    }
}
