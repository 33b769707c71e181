import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("Fetching, caching and the audit of every call, in process")
struct FetchTests {
    static var quick: FetchPolicy { .inProcess }

    static let berlin: JSONValue = ["lat": 52.52, "lon": 13.41]

    func events(_ service: InProcessWeatherd, _ types: [String]) async throws -> [JSONValue] {
        let result = try await service.result("events/query", ["types": .array(types.map { .string($0) })])
        return result["events"]?.arrayValue ?? []
    }

    @Test("current weather by coordinates: converted at the edge, audited in the log")
    func current() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 5.5, code: 61)))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            let metric = try await service.result("weather/current", Self.berlin)
            #expect(metric["current"]?["temperature"] == 5.5)
            #expect(metric["theme"] == "rainy")
            #expect(metric["source"] == "network")
            #expect(metric["stale"] == false)
            #expect(metric["location"]?["utcOffsetSeconds"] == 3600)
            #expect(metric["observedAt"] == "2026-11-22T12:00:00.000Z")
            #expect(metric["fetchedAt"] != nil)
            let imperial = try await service.result(
                "weather/current", ["lat": 52.52, "lon": 13.41, "units": "imperial"])
            #expect(imperial["current"]?["temperature"] == 41.9)
            #expect(imperial["source"] == "cache", "a repeat within the TTL makes no call")
            #expect(network.requests.count == 1)
            let fetched = try await events(service, ["weather.fetched"])
            #expect(fetched.count == 1)
            #expect(fetched.first?["data"]?["status"] == 200)
            #expect(fetched.first?["data"]?["provider"] == "open-meteo")
            #expect(fetched.first?["data"]?["url"]?.stringValue?.hasPrefix("http://weather.test/v1/forecast?") == true)
        }
    }

    @Test("maxAgeSeconds shortens the TTL: 0 always calls")
    func maxAge() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 1)))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            _ = try await service.result("weather/current", Self.berlin)
            let again = try await service.result("weather/current", ["lat": 52.52, "lon": 13.41, "maxAgeSeconds": 0])
            #expect(again["source"] == "network")
            #expect(network.requests.count == 2)
        }
    }

    @Test("forecasts stay fresh an hour, current conditions 10 minutes (--forecast-ttl, --cache-ttl)")
    func ttlPerKind() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 3)))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        let clock = ManualClock()
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: Self.quick) { service in
            let calls = { (kind: String) in network.requests.filter { $0.contains(kind) }.count }
            _ = try await service.result("weather/current", Self.berlin)
            _ = try await service.result("weather/forecast", Self.berlin)
            clock.advance(milliseconds: 11 * 60_000)
            #expect(try await service.result("weather/current", Self.berlin)["source"] == "network")
            #expect(try await service.result("weather/forecast", Self.berlin)["source"] == "cache", "11 min old")
            clock.advance(milliseconds: 50 * 60_000)
            #expect(try await service.result("weather/forecast", Self.berlin)["source"] == "network", "61 min old")
            #expect(calls("current=") == 2)
            #expect(calls("hourly=") == 2)
            let status = try await service.result("service/status")
            #expect(status["upstreamCalls"]?["calls"] == 4)
            #expect(status["upstreamCalls"]?["cacheHits"] == 1, "the forecast asked again after 11 minutes")
            #expect(status["cacheTtlSeconds"] == 600)
            #expect(status["forecastTtlSeconds"] == 3600)
        }
    }

    @Test("identical concurrent requests share one upstream call")
    func singleFlight() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", .held(InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 2))))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            for id in 0..<10 {
                let request: JSONValue = [
                    "jsonrpc": "2.0", "id": .string("w\(id)"), "method": "weather/current", "params": Self.berlin,
                ]
                await service.receive(request.jsonBytes)
            }
            #expect(await network.requests(atLeast: 1))
            network.release()
            #expect(await service.output.wait(for: 10))
            let answers = try service.output.messages()
            #expect(answers.allSatisfy { $0["result"]?["current"]?["temperature"] == 2 })
            #expect(network.requests.count == 1)
            let status = try await service.result("service/status")
            let calls = try #require(status["upstreamCalls"])
            #expect(
                calls["sharedCalls"]?.intValue.map { $0 + (calls["cacheHits"]?.intValue ?? 0) } == 9,
                "each of the other nine joined the call in flight or read what it cached")
        }
    }

    @Test("offline: the last data is served, marked stale, and every attempt is audited")
    func staleWhenOffline() async throws {
        let network = InMemoryTransport()
        let clock = ManualClock()
        network.route(
            "/v1/forecast", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 7)),
            .failure(TransportError(.offline, "connection refused")))
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: Self.quick) { service in
            let first = try await service.result("weather/current", Self.berlin)
            clock.advance(milliseconds: 11 * 60_000)
            let stale = try await service.result("weather/current", Self.berlin)
            #expect(stale["source"] == "cache")
            #expect(stale["stale"] == true)
            #expect(stale["fetchedAt"] == first["fetchedAt"])
            #expect(stale["current"]?["temperature"] == 7)
            let failures = try await events(service, ["weather.fetch_failed"])
            #expect(failures.count == 3, "three attempts, each an event")
            #expect(failures.allSatisfy { $0["data"]?["error"] == "offline" && $0["data"]?["status"] == nil })
            #expect(failures.map { $0["data"]?["attempt"] } == [1, 2, 3])
        }
    }

    static let errorCases: [(InMemoryTransport.Reply, Int64, String, Int)] = [
        (InMemoryTransport.status(401, #"{"cod":401,"message":"Invalid API key"}"#), 1005, "unauthorized", 1),
        (InMemoryTransport.status(404, #"{"cod":"404","message":"city not found"}"#), 1000, "not_found", 1),
        (InMemoryTransport.status(429, "{}", headers: ["Retry-After": "120"]), 1006, "rate_limited", 1),
        (InMemoryTransport.status(503), 1008, "upstream_error", 3),
        (InMemoryTransport.ok(Array("<html>busy</html>".utf8)), 1009, "bad_upstream_response", 1),
        (.failure(TransportError(.offline, "refused")), 1004, "offline", 3),
        (.failure(TransportError.tooLarge(limit: 16 << 20)), 1009, "bad_upstream_response", 1),
    ]

    @Test("each upstream failure becomes its application error, retried only when it may pass", arguments: errorCases)
    func errors(reply: InMemoryTransport.Reply, code: Int64, kind: String, attempts: Int) async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", reply)
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            let response = try await service.call("weather/current", Self.berlin)
            #expect(response["error"]?["code"]?.intValue == code)
            #expect(response["error"]?["data"]?["kind"]?.stringValue == kind)
            #expect(network.requests.count == attempts)
            #expect(try await events(service, ["weather.fetch_failed"]).count == attempts)
        }
    }

    @Test("a body past --max-body-bytes is audited as a bad_upstream_response naming the limit, and not retried")
    func tooLarge() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", .failure(TransportError.tooLarge(limit: 16 << 20)))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            let response = try await service.call("weather/current", Self.berlin)
            #expect(response["error"]?["data"]?["kind"] == "bad_upstream_response")
            let message = try #require(response["error"]?["message"]?.stringValue)
            #expect(message.contains("16 MiB") && message.contains("--max-body-bytes"), "\(message)")
            let failed = try await events(service, ["weather.fetch_failed"])
            #expect(failed.count == 1)
            #expect(failed.first?["data"]?["error"] == "bad_upstream_response")
            #expect(failed.first?["data"]?["message"]?.stringValue == message)
            #expect(failed.first?["data"]?["status"] == nil)
        }
    }

    @Test("the deadline holds against a provider that does not answer")
    func deadline() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", .held(InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 1))))
        var policy = Self.quick
        policy.deadline = .milliseconds(300)
        let clock = ManualClock()
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: policy) { service in
            let deadline = clock.now.advanced(by: .milliseconds(300))
            let request: JSONValue = [
                "jsonrpc": "2.0", "id": "held", "method": "weather/current", "params": Self.berlin,
            ]
            await service.receive(request.jsonBytes)
            #expect(await network.requests(atLeast: 1))
            await clock.sleepers(atLeast: 1, until: deadline)
            clock.advance(by: .milliseconds(299))
            #expect(service.output.lines.isEmpty, "no answer a millisecond before the deadline")
            clock.advance(by: .milliseconds(1))
            let response = try #require(try await service.output.response(id: "held"))
            #expect(response["error"]?["data"]?["kind"] == "timeout")
            let failed = try await events(service, ["weather.fetch_failed"])
            #expect(failed.first?["data"]?["error"] == "timeout")
            #expect(failed.first?["data"]?["latencyMs"] == 300, "the attempt lasted the deadline")
            network.release()
        }
    }

    @Test("a not_found and a Retry-After are remembered: no call until they expire")
    func negativeCache() async throws {
        let network = InMemoryTransport()
        let clock = ManualClock()
        network.route("/v1/search", InMemoryTransport.status(404))
        network.route("/v1/forecast", InMemoryTransport.status(429, "{}", headers: ["retry-after": "120"]))
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: Self.quick) { service in
            _ = try await service.call("cities/search", ["query": "Atlantis"])
            let again = try await service.call("cities/search", ["query": " atlantis "])
            #expect(again["error"]?["data"]?["kind"] == "not_found")
            _ = try await service.call("weather/current", Self.berlin)
            clock.advance(milliseconds: 60_000)
            let limited = try await service.call("weather/current", ["lat": 10, "lon": 10])
            #expect(limited["error"]?["data"]?["kind"] == "rate_limited")
            #expect(network.requests.count == 2)
            clock.advance(milliseconds: 61_000)
            _ = try await service.call("weather/current", ["lat": 10, "lon": 10])
            #expect(network.requests.count == 3)
        }
    }

    @Test("the token bucket holds: calls beyond it within the deadline are refused without a request")
    func rateLimit() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 1)))
        var policy = Self.quick
        policy.callsPerMinute = 2
        policy.deadline = .milliseconds(200)
        try await InProcessWeatherd.with(network: network, fetch: policy) { service in
            _ = try await service.result("weather/current", ["lat": 1, "lon": 1])
            _ = try await service.result("weather/current", ["lat": 2, "lon": 2])
            let third = try await service.call("weather/current", ["lat": 3, "lon": 3])
            #expect(third["error"]?["data"]?["kind"] == "rate_limited")
            #expect(network.requests.count == 2)
        }
    }

    @Test("by city: geocoded once, recorded in the history, and the forecast has daily summaries by local date")
    func cityAndForecast() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/search",
            InMemoryTransport.ok(
                OpenMeteoBodies.geocode([
                    ("Berlin", "DE", "State of Berlin", 52.52, 13.41), ("Berlin", "US", "New Hampshire", 44.47, -71.19),
                ])))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 3)))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            let forecast = try await service.result("weather/forecast", ["city": "Berlin"])
            #expect(forecast["location"]?["name"] == "Berlin")
            #expect(forecast["location"]?["country"] == "DE")
            let entries = try #require(forecast["entries"]?.arrayValue)
            #expect(entries.count == 40)
            let daily = try #require(forecast["daily"]?.arrayValue)
            #expect(daily.count == 16)
            #expect(daily.first?["date"] == "2026-11-22")
            #expect(daily.first?["min"] == -10.25, "Open-Meteo's own daily low, not its steps' 1 °C")
            #expect(daily.first?["max"] == 30.75, "Open-Meteo's own daily high, not its steps' 4 °C")
            let sun = try #require(
                SolarDay.compute(lat: 52.52, lon: 13.41, localDate: "2026-11-22", zone: .fixed(3600)))
            let times: [(String, Timestamp?)] = [
                ("dawn", sun.dawn), ("sunrise", sun.sunrise), ("zenith", sun.zenith), ("sunset", sun.sunset),
                ("dusk", sun.dusk),
            ]
            for (key, time) in times {
                let time = try #require(time, "\(key) in Berlin on 2026-11-22")
                #expect(daily.first?[key] == .string(time.description), "\(key)")
                #expect(daily.first?[key]?.stringValue?.hasPrefix("2026-11-22T") == true, "\(key) is a UTC time")
            }
            #expect(daily.first?["polar"] == nil)
            #expect(
                daily.first?["moonDay"] == 13.2, "new moon 2026-11-09 07:02 UTC, local noon 2026-11-22 11:00 UTC")
            #expect(
                daily.first?["moonPhase"] == 0.429,
                "full moon 2026-11-24 14:54 UTC: 13.16 of the 15.33 days from new to full moon, halved")
            #expect(Set(daily.compactMap { $0["date"]?.stringValue }).count == 16)
            _ = try await service.result("weather/current", ["city": "berlin"])
            _ = try await service.result("weather/current", ["city": "Berlin"])
            let history = try await service.result("history/list")
            #expect(history["history"]?.arrayValue?.count == 1)
            let recorded = try await service.result("events/query", ["types": ["history.recorded"]])
            #expect(
                recorded["events"]?.arrayValue?.count == 1, "a place at the top of the history is not recorded again")
            #expect(history["history"]?.arrayValue?.first?["state"] == "State of Berlin")
            #expect(network.requests.filter { $0.contains("/v1/search") }.count == 1)
            let search = try await service.result("cities/search", ["query": "Berlin", "limit": 1])
            #expect(search["candidates"]?.arrayValue?.count == 1)
            let short = try await service.call("cities/search", ["query": "Be"])
            #expect(short["error"]?["code"] == -32602)
        }
    }

    @Test("in a polar night the daily entries say so: solar noon and polar, no sunrise, sunset, dawn or dusk")
    func polarNightForecast() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            // Longyearbyen: the Sun stays below the horizon from 26 October to 16 February, and more than
            // 6° below it for over a month around midwinter (Lonely Planet, "Midnight Sun & Polar Night").
            let forecast = try await service.result(
                "weather/forecast", ["lat": 78.2232, "lon": 15.6267, "detail": "summary"])
            let daily = try #require(forecast["daily"]?.arrayValue)
            #expect(daily.count == 16)
            for day in daily {
                #expect(day["polar"] == "night")
                #expect(day["zenith"]?.stringValue?.hasSuffix("Z") == true)
                for key in ["sunrise", "sunset", "dawn", "dusk"] { #expect(day[key] == nil, "\(key)") }
                let phase = try #require(day["moonPhase"]?.doubleValue)
                #expect((0..<1).contains(phase))
            }
        }
    }

    @Test("favorites/add by city takes the geocoder's name and country; map/favorites is GeoJSON with the weather")
    func favoritesByCityAndMap() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/search", InMemoryTransport.ok(OpenMeteoBodies.geocode([("Reykjavík", "IS", nil, 64.15, -21.94)])))
        network.route("/v1/forecast", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: -3, code: 75)))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            let favorite = try await service.result("favorites/add", ["city": "reykjavik", "commandId": "r"])
            #expect(favorite["name"] == "Reykjavík")
            #expect(favorite["country"] == "IS")
            let repeated = try await service.result("favorites/add", ["city": "reykjavik", "commandId": "r"])
            #expect(repeated == favorite)
            _ = try await service.result("weather/current", ["favoriteId": .string(favorite["id"]?.stringValue ?? "")])
            let map = try await service.result("map/favorites")
            #expect(map["type"] == "FeatureCollection")
            let feature = try #require(map["features"]?.arrayValue?.first)
            #expect(feature["geometry"]?["coordinates"] == [-21.94, 64.15])
            #expect(feature["properties"]?["weather"]?["temperature"] == -3)
            #expect(feature["properties"]?["weather"]?["theme"] == "snowy")
            let layers = try await service.result("map/layers")
            #expect(layers["layers"]?.arrayValue?.count == 3)
            #expect(layers.jsonString.contains("{z}/{x}/{y}"))
            #expect(layers.jsonString.contains("{apiKey}"))
        }
    }

    @Test("the cache is rebuilt from the log: after a restart with the provider unreachable it still answers")
    func cacheAfterRestart() async throws {
        let directory = TemporaryDataDirectory()
        let clock = ManualClock()
        let online = InMemoryTransport()
        online.route("/v1/forecast", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 12)))
        let first = try InProcessWeatherd(directory: directory, clock: clock, network: online, fetch: Self.quick)
        _ = try await first.result("weather/current", Self.berlin)
        await first.stop()
        clock.advance(milliseconds: 3_600_000)
        let offline = InMemoryTransport()
        let second = try InProcessWeatherd(directory: directory, clock: clock, network: offline, fetch: Self.quick)
        let answer = try await second.result("weather/current", Self.berlin)
        #expect(answer["stale"] == true)
        #expect(answer["current"]?["temperature"] == 12)
        let verify = try await second.result("state/verify")
        #expect(verify["ok"] == true)
        await second.stop()
    }
}

@Suite("Cancellation, in process")
struct CancellationTests {
    @Test("$/cancelRequest answers a slow request once with -32800 at once, while the shared call goes on for others")
    func cancelSlowFetch() async throws {
        let network = InMemoryTransport()
        // Held until the test releases it: the shared call's answer, not the deadline, ends it.
        network.route("/v1/forecast", .held(InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 6))))
        try await InProcessWeatherd.with(network: network) { service in
            let slow: JSONValue = [
                "jsonrpc": "2.0", "id": "slow", "method": "weather/current", "params": ["lat": 1, "lon": 1],
            ]
            let other: JSONValue = [
                "jsonrpc": "2.0", "id": "other", "method": "weather/current", "params": ["lat": 1, "lon": 1],
            ]
            await service.receive(slow.jsonBytes)
            await service.receive(other.jsonBytes)
            #expect(await network.requests(atLeast: 1))
            await service.receive(Array(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"slow"}}"#.utf8))
            let cancelled = try #require(try await service.output.response(id: "slow"))
            #expect(
                try service.output.messages().allSatisfy { $0["id"] != "other" },
                "answered while the shared upstream call is still held, not with it")
            #expect(cancelled["error"]?["code"] == -32800)
            network.release()
            let answered = try #require(try await service.output.response(id: "other"))
            #expect(answered["result"]?["current"]?["temperature"] == 6.0)
            await service.server.drain()
            let lines = try service.output.messages()
            #expect(lines.filter { $0["id"] == "slow" }.count == 1, "answered exactly once")
            #expect(lines.count == 2, "the cancel notification itself produces no output")
            #expect(network.requests.count == 1)
        }
    }
}
