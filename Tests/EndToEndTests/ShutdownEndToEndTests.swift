import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: shutdown cuts background work")
struct ShutdownEndToEndTests {
    /// A local Open-Meteo that holds every answer: only cancellation can end a refresh against it, however long a
    /// test process loaded by the whole suite pauses.
    static func slowOpenMeteo() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        server.route(
            "/v1/forecast", query: "current=",
            .init(body: OpenMeteoBodies.current(temperature: 1), held: true)
        )
        return server
    }

    /// weatherd's options against `server`, with a long upstream deadline.
    static func options(_ server: LocalHTTPServer) -> [String] {
        ["--open-meteo-base-url", server.baseURL, "--upstream-timeout", "400"]
    }

    @Test(
        "end of input and SIGTERM during a refresh of 90 favorites: the refresh stops, cut places say cancelled, exit 0"
    )
    func refreshCutAtEndOfInput() async throws {
        let server = try Self.slowOpenMeteo()
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory, Self.options(server))
        try await addFavorites(weatherd, 0..<90)
        try weatherd.send(
            line: #"{"jsonrpc":"2.0","id":"r","method":"refresh","params":{"scope":"favorites"}}"#)
        #expect(await server.requests(atLeast: 1), "the refresh is under way")
        // As an MCP host stops a server: end of input (weatherd would wait for the answer), then SIGTERM.
        try weatherd.closeInput()
        weatherd.signal(SIGTERM)

        // The shutdown's grace, then every fetch is cut; before the fix the process ran on for every place's call.
        #expect(await weatherd.waitForExit() == 0)
        let answer = try #require(try await weatherd.output.response(id: "r"))
        let results = try #require(answer["result"]?["results"]?.arrayValue)
        #expect(results.count == 90)
        let errors = results.compactMap { $0["error"]?.stringValue }
        #expect(errors.count == 90, "no place could finish against an upstream that holds its answers")
        #expect(errors.allSatisfy { $0 == "cancelled" }, "\(Set(errors))")
        #expect(server.requests.count <= 4, "only the first four places started a call: \(server.requests.count)")

        let events = try logEvents(directory)
        let stopped = try #require(events.last)
        #expect(stopped["type"] == "service.stopped")
        #expect(stopped["cause"] == "shutdown")
        try Repository.checkLog(directory.path)
    }

    @Test("SIGTERM during a scheduled refresh of 90 favorites exits 0 with service.stopped written")
    func scheduledRefreshCutBySignal() async throws {
        let server = try Self.slowOpenMeteo()
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory, Self.options(server))
        try await addFavorites(weatherd, 0..<90)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)

        let restarted = try startWeatherd(
            directory, Self.options(server) + ["--refresh-interval", "1"])
        _ = try await restarted.call("service/status")
        #expect(await server.requests(atLeast: 1), "the scheduled refresh is under way")
        restarted.signal(SIGTERM)
        #expect(await restarted.waitForExit() == 0)
        let stopped = try #require(try logEvents(directory).last)
        #expect(stopped["type"] == "service.stopped")
        #expect(stopped["data"]?["reason"] == "signal")
        #expect(server.requests.count <= 8, "the scheduler started no place after shutdown: \(server.requests.count)")
        try Repository.checkLog(directory.path)
    }
}
