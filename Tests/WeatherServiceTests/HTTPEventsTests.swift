import Foundation
import Synchronization
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting
import WeatherWire

/// Server-Sent Events read apart from the server's code: blocks split at blank lines, comments dropped.
enum ServerSentEvents {
    struct Event: Equatable {
        var id: String?
        var event: String?
        var data: String
        var json: JSONValue? { try? JSONValue.parse(data) }
    }

    static func parse(_ text: String) -> [Event] {
        text.components(separatedBy: "\n\n").compactMap { block -> Event? in
            var event = Event(data: "")
            var fields = 0
            for line in block.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix(":") {
                let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
                let value = parts.count == 2 ? String(parts[1].drop { $0 == " " }) : ""
                switch parts[0] {
                case "id": event.id = value
                case "event": event.event = value
                case "data": event.data += value
                default: continue
                }
                fields += 1
            }
            return fields == 0 ? nil : event
        }
    }
}

@Suite("GET /v1/events: the log as Server-Sent Events, resumed by Last-Event-ID, filtered, kept alive")
struct HTTPEventsTests {
    static func open(_ port: Int, _ target: String, _ headers: [String] = []) async throws
        -> (HTTPTestClient, HTTPTestClient.Answer)
    {
        let client = try HTTPTestClient(port: port)
        await client.send(HTTPTestClient.get(target, [HTTPAPITests.bearer] + headers))
        return (client, try #require(await client.head()))
    }

    static func caughtUp(_ text: String) -> Bool { text.contains("event: caughtUp") && text.hasSuffix("\n\n") }

    @Test("from ?after=0: every event of the log with its seq as id, then caughtUp, then live events in order")
    func catchUpThenLive() async throws {
        try await HTTPAPITests.serving { service, port in
            _ = try await service.result("favorites/add", ["name": "A", "lat": 1, "lon": 2])
            _ = try await service.result("settings/set", ["units": "imperial"])
            let lastSeq = try #require(try await service.result("service/status")["lastSeq"]?.intValue)
            let (client, head) = try await Self.open(port, "/v1/events?after=0")
            #expect(head.status == 200)
            #expect(head.headers["content-type"] == "text/event-stream")
            #expect(head.headers["transfer-encoding"] == "chunked")
            #expect(head.headers["cache-control"] == "no-cache")
            let events = ServerSentEvents.parse(await client.streamed(until: Self.caughtUp))
            #expect(events.dropLast().map(\.id) == (1...lastSeq).map { String($0) })
            let logged = try await service.result("events/query", ["afterSeq": 0, "limit": 1000])["events"]
            #expect(events.dropLast().map(\.json) == logged?.arrayValue?.map { Optional($0) })
            #expect(events.dropLast().map(\.event) == logged?.arrayValue?.map { $0["type"]?.stringValue })
            #expect(events.last?.event == "caughtUp")
            #expect(events.last?.json?["lastSeq"] == .int(lastSeq))
            #expect(events.last?.id == String(lastSeq))
            // Live: the next change comes as soon as it is committed.
            _ = try await service.result("favorites/add", ["name": "B", "lat": 3, "lon": 4])
            let live = ServerSentEvents.parse(await client.streamed { $0.hasSuffix("\n\n") })
            #expect(live.map(\.id) == [String(lastSeq + 1)])
            #expect(live.first?.event == "favorite.added")
            #expect(live.first?.json?["data"]?["name"] == "B")
        }
    }

    @Test("Last-Event-ID resumes after that seq with no gap; ?types= keeps only those types")
    func resumeAndFilter() async throws {
        try await HTTPAPITests.serving { service, port in
            for (index, name) in ["A", "B", "C"].enumerated() {
                _ = try await service.result(
                    "favorites/add", ["name": .string(name), "lat": .int(Int64(index)), "lon": 1])
                _ = try await service.result("settings/set", ["units": index % 2 == 0 ? "imperial" : "metric"])
            }
            let (all, _) = try await Self.open(port, "/v1/events?after=0")
            let every = ServerSentEvents.parse(await all.streamed(until: Self.caughtUp)).dropLast()
            let resumeAfter = try #require(every.first { $0.event == "favorite.added" }?.id)
            let (resumed, _) = try await Self.open(
                port, "/v1/events?after=0&types=favorite.added,settings.changed", ["Last-Event-ID: \(resumeAfter)"])
            let events = ServerSentEvents.parse(await resumed.streamed(until: Self.caughtUp)).dropLast()
            let expected = every.filter { event in
                Int(event.id ?? "") ?? 0 > Int(resumeAfter) ?? 0
                    && ["favorite.added", "settings.changed"].contains(event.event)
            }
            #expect(events.map(\.id) == expected.map(\.id))
            #expect(events.count == 5, "two of the three favorites and the three unit changes after the first")
        }
    }

    @Test("a quiet stream gets a heartbeat comment every 15 s of the engine's clock")
    func heartbeat() async throws {
        try await HTTPAPITests.serving { service, port in
            let (client, _) = try await Self.open(port, "/v1/events")
            _ = await client.streamed(until: Self.caughtUp)
            await service.clock.timerArmed(.seconds(15))
            service.clock.advance(by: .seconds(15))
            let beat = await client.streamed { $0.hasSuffix("\n\n") }
            #expect(beat == ": heartbeat\n\n")
            #expect(ServerSentEvents.parse(beat).isEmpty, "a comment is no event")
        }
    }

    @Test("refused: a Last-Event-ID that is no seq, an unknown param, another method, no token")
    func refusals() async throws {
        try await HTTPAPITests.serving { _, port in
            let badID = try await HTTPAPITests.ask(
                port, "GET", "/v1/events", headers: [HTTPAPITests.bearer, "Last-Event-ID: x"])
            #expect(badID.status == 400)
            #expect(badID.headers["content-type"] == "application/problem+json")
            #expect(badID.text.contains("Last-Event-ID must be a seq"))
            let unknown = try await HTTPAPITests.ask(port, "GET", "/v1/events?since=1")
            #expect(unknown.status == 400)
            let post = try await HTTPAPITests.ask(port, "POST", "/v1/events")
            #expect(post.status == 405)
            #expect(post.headers["allow"] == "GET, HEAD")
            let anonymous = try await HTTPAPITests.ask(port, "GET", "/v1/events?after=0", headers: [])
            #expect(anonymous.status == 401)
        }
    }

    /// A stream's sink that records what is written and has room for `rooms` pieces, then none (a client
    /// that stopped reading and let the connection's timeout pass).
    final class StallingSink: HTTPStreamSink {
        private let state: Mutex<(written: [UInt8], rooms: Int)>
        init(rooms: Int) { state = Mutex(([], rooms)) }
        var text: String { state.withLock { String(decoding: $0.written, as: UTF8.self) } }
        func write(_ bytes: [UInt8]) { state.withLock { $0.written += bytes } }
        func room() async -> Bool {
            state.withLock { state in
                state.rooms -= 1
                return state.rooms >= 0
            }
        }
    }

    @Test("a client that stops reading holds its feed; when it has no room it is sent event: cut naming the last seq")
    func cutWhenNotReading() async throws {
        try await InProcessWeatherd.with { service in
            service.engine.ready.open()
            let face = HTTPFace(engine: service.engine, access: HTTPAccess(token: HTTPToken(testToken)))
            let request = HTTPRequest(
                method: "GET", target: "/v1/events",
                headers: HTTPHeaders([
                    ("Host", "127.0.0.1"), ("Authorization", "Bearer \(testToken)"),
                ]))
            let response = await face.answer(request, try request.parsedTarget())
            let stream = try #require(response.stream)
            let sink = StallingSink(rooms: 2)
            let feeding = Task { await stream.body(sink) }
            #expect(await eventually { sink.text.contains("event: caughtUp") })
            // Live from now: the feed asks for room before each event; the third finds none.
            var seqs: [Int64] = []
            for index in 0..<3 {
                let added = try await service.call(
                    "favorites/add", ["name": .string("F\(index)"), "lat": .int(Int64(index)), "lon": 1])
                #expect(added["result"] != nil)
                seqs.append(try await service.result("service/status")["lastSeq"]?.intValue ?? 0)
            }
            await feeding.value
            let events = ServerSentEvents.parse(sink.text).filter { $0.event != "caughtUp" }
            #expect(events.map(\.id) == [String(seqs[0]), String(seqs[1]), nil])
            #expect(events.last?.event == "cut")
            #expect(events.last?.json?["lastSeq"] == .int(seqs[1]), "the last event it was sent")
        }
    }
}
