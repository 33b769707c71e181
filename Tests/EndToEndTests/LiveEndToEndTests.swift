import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: moves, refreshes and the live feed")
struct LiveEndToEndTests {
    @Test("a move of 5 km or more triggers upstream calls, a small move does not")
    func moves() async throws {
        let server = try LocalHTTPServer()
        server.route("/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 3)))
        server.route("/v1/forecast", query: "hourly=", .init(body: OpenMeteoBodies.forecast()))
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory, ["--open-meteo-base-url", server.baseURL])
        _ = try await weatherd.call("favorites/add", ["name": "Hut", "lat": 46.5, "lon": 8.0])
        let first = try await weatherd.call("location/set", ["lat": 46.948, "lon": 7.447])
        #expect(first["result"]?["refresh"] == true)
        #expect(await eventually { server.requests.count == 4 })
        let small = try await weatherd.call("location/set", ["lat": 46.96, "lon": 7.46])
        #expect(small["result"]?["refresh"] == false)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        #expect(server.requests.count == 4, "the small move started no call, up to the end")
        let log = String(decoding: directory.logBytes(), as: UTF8.self)
        #expect(!log.contains("46.948") && !log.contains("7.447"), "raw coordinates never reach the log")
        try Repository.checkLog(directory.path)
    }

    @Test("events/subscribe from 0 delivers the whole history, then live events, with no gap")
    func liveFeed() async throws {
        let directory = TemporaryDataDirectory()
        let first = try startWeatherd(directory)
        try await addFavorites(first, 0..<20)
        try first.closeInput()
        #expect(await first.waitForExit() == 0)

        let weatherd = try startWeatherd(directory)
        _ = try await weatherd.call("events/subscribe", ["afterSeq": 0])
        try await addFavorites(weatherd, 20..<30)
        let lastSeq = try #require(try await weatherd.call("service/status")["result"]?["lastSeq"]?.intValue)
        let pushed = {
            try weatherd.output.messages().filter { $0["method"] == "events/event" }.compactMap {
                $0["params"]?["seq"]?.intValue
            }
        }
        #expect(try await eventually { try pushed().last == lastSeq })
        #expect(try pushed() == Array(1...lastSeq))
        #expect(try weatherd.output.messages().contains { $0["method"] == "events/caughtUp" })
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
    }
}

@Suite("weatherd end to end: alerts and cancellation")
struct AlertEndToEndTests {
    @Test("a subscribed client receives a severe-weather alert and a temperature-drop alert")
    func alerts() async throws {
        let server = try LocalHTTPServer()
        server.route("/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 22, code: 95)))
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory, ["--open-meteo-base-url", server.baseURL])
        _ = try await weatherd.call("favorites/add", ["name": "Plains", "lat": 35.2, "lon": -97.4])
        _ = try await weatherd.call("alerts/subscribe")
        _ = try await weatherd.call("weather/current", ["favoriteId": "fav-1"])
        server.route("/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 8, code: 3)))
        _ = try await weatherd.call("weather/current", ["favoriteId": "fav-1", "maxAgeSeconds": 0])
        let rules = {
            try weatherd.output.messages().filter { $0["method"] == "alerts/raised" }.map { $0["params"]?["rule"] }
        }
        #expect(try await eventually { try rules().count == 2 })
        #expect(try rules() == ["severe", "temp_drop"])
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        try Repository.checkLog(directory.path)

        let restarted = try startWeatherd(directory, ["--open-meteo-base-url", server.baseURL])
        _ = try await restarted.call("alerts/subscribe")
        let listed = try await restarted.call("alerts/list")
        #expect(listed["result"]?["alerts"]?.arrayValue?.count == 2)
        try restarted.closeInput()
        #expect(await restarted.waitForExit() == 0)
        #expect(
            try restarted.output.messages().allSatisfy { $0["method"] == nil }, "a restart re-raises and pushes nothing"
        )
    }

    @Test("a slow upstream request is cancelled in time and answered once")
    func cancel() async throws {
        let server = try LocalHTTPServer()
        // Held until the server stops: only the cancel and the shutdown end the waits.
        server.route(
            "/v1/forecast", query: "current=",
            .init(body: OpenMeteoBodies.current(temperature: 1), held: true)
        )
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(
            directory, ["--open-meteo-base-url", server.baseURL, "--upstream-timeout", "600"])
        try weatherd.send(line: #"{"jsonrpc":"2.0","id":"slow","method":"weather/current","params":{"lat":1,"lon":1}}"#)
        try weatherd.send(
            line: #"{"jsonrpc":"2.0","id":"other","method":"weather/current","params":{"lat":1,"lon":1}}"#)
        // Cancel once the shared upstream call is under way.
        #expect(await server.requests(atLeast: 1), "the upstream call started")
        try weatherd.send(line: #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"slow"}}"#)
        let answer = try #require(try await weatherd.output.response(id: "slow"))
        #expect(answer["error"]?["code"] == -32800)
        try weatherd.closeInput()
        weatherd.signal(SIGTERM)
        #expect(await weatherd.waitForExit() == 0)
        let order = try weatherd.output.messages().compactMap { $0["id"]?.stringValue }
        #expect(order == ["slow", "other"], "each answered once, the cancelled one while the shared call still ran")
        let types = try logEvents(directory).map { $0["type"]?.stringValue ?? "" }
        #expect(types.last == "service.stopped")
        #expect(
            types.dropLast().last == "weather.fetch_failed",
            "the shared call is audited, cut at shutdown after its grace")
        #expect(server.requests.count == 1, "one call, shared, never retried")
    }
}
