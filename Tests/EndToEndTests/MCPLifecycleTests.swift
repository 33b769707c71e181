import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("MCP end to end: handshake, stateless era, cancellation, exit")
struct MCPLifecycleTests {
    @Test(
        "initialize answers the client's version when weatherd speaks it, else 2025-11-25",
        arguments: [
            ("2024-11-05", "2024-11-05"), ("2025-03-26", "2025-03-26"), ("2025-06-18", "2025-06-18"),
            ("2025-11-25", "2025-11-25"), ("1999-01-01", "2025-11-25"),
        ], [false, true])
    func handshake(versions: (requested: String, answered: String), relay: Bool) async throws {
        let (requested, answered) = versions
        let mcp = try MCPHarness.start(relay: relay)
        let before = try await mcp.weatherd.call("tools/list")
        #expect(before["error"]?["code"] == -32600, "MCP methods need the handshake first")
        #expect(try await mcp.weatherd.call("ping")["result"] == [:], "ping works before it")
        #expect(try await mcp.weatherd.call("settings/get")["result"]?["units"] == "metric", "native needs none")
        let response = try await mcp.initialize(requested)
        let result = try #require(response["result"])
        try MCPSchemas.expectValid(result, "InitializeResult", version: answered)
        #expect(result["protocolVersion"] == .string(answered))
        #expect(result["serverInfo"]?["name"] == "weatherd")
        #expect(result["capabilities"]?["resources"]?["subscribe"] == true)
        let tools = try #require(try await mcp.weatherd.call("tools/list")["result"])
        try MCPSchemas.expectValid(tools, "ListToolsResult", version: answered)
        #expect(
            tools["tools"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == [
                "get_current_weather", "get_forecast", "search_cities", "list_favorites", "add_favorite",
                "remove_favorite", "get_alerts", "refresh_weather", "set_location", "get_settings", "set_units",
                "get_warnings", "get_air_quality", "get_nowcast", "get_history", "get_climate",
                "get_forecast_changes",
                "get_forecast_confidence", "compare_models", "get_forecast_accuracy",
            ])
        let hasOutputSchema = tools["tools"]?.arrayValue?.allSatisfy { $0["outputSchema"] != nil } ?? false
        #expect(hasOutputSchema == (answered >= "2025-06-18"))
        let ping = try await mcp.weatherd.call("ping")
        try MCPSchemas.expectValid(try #require(ping["result"]), "EmptyResult", version: answered)
        #expect(try await mcp.weatherd.call("logging/setLevel", ["level": "warning"])["result"] == [:])
        #expect(try await mcp.stop() == 0)
    }

    @Test(
        "2026-07-28: server/discover at once, _meta on every request, resultType, ttlMs and cacheScope",
        arguments: [false, true])
    func stateless(relay: Bool) async throws {
        let mcp = try MCPHarness.start(relay: relay)
        let discover = try #require(try await mcp.weatherd.call("server/discover", ["_meta": statelessMeta])["result"])
        try MCPSchemas.expectValid(discover, "DiscoverResult", version: "2026-07-28")
        #expect(discover["supportedVersions"]?.arrayValue?.first == "2026-07-28")
        let tools = try #require(try await mcp.weatherd.call("tools/list", ["_meta": statelessMeta])["result"])
        try MCPSchemas.expectValid(tools, "ListToolsResult", version: "2026-07-28")
        #expect(tools["resultType"] == "complete")
        #expect(tools["cacheScope"] == "public")
        #expect(tools["ttlMs"]?.intValue != nil)
        #expect(tools["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"] == "weatherd")
        let call = try await mcp.tool("search_cities", ["query": "Berlin"], meta: statelessMeta)
        let result = try #require(call["result"])
        try MCPSchemas.expectValid(result, "CallToolResult", version: "2026-07-28")
        #expect(result["structuredContent"]?["candidates"]?.arrayValue?.count == 2)
        #expect(result["resultType"] == "complete")

        let bare = try await mcp.weatherd.call("tools/list")
        #expect(bare["error"]?["code"] == -32602, "the stateless era needs _meta on every request")
        let noCapabilities = try await mcp.weatherd.call(
            "tools/list", ["_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"]])
        #expect(noCapabilities["error"]?["code"] == -32602)
        var old = try #require(statelessMeta.objectValue)
        old["io.modelcontextprotocol/protocolVersion"] = "2030-01-01"
        let unsupported = try await mcp.weatherd.call("tools/list", ["_meta": .object(old)])
        #expect(unsupported["error"]?["code"] == -32022)
        #expect(unsupported["error"]?["data"]?["requested"] == "2030-01-01")
        #expect(unsupported["error"]?["data"]?["supported"] == ["2026-07-28"])
        let initialize = try await mcp.weatherd.call(
            "initialize",
            ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "x", "version": "1"]])
        #expect(initialize["error"]?["code"] == -32600, "the era is fixed by the first real request")
        #expect(try await mcp.stop() == 0)
    }

    @Test(
        "notifications/cancelled leaves the request unanswered; $/cancelRequest answers -32800; id 0 works",
        arguments: [false, true])
    func cancellation(relay: Bool) async throws {
        // The upstream holds its answers: no pause of a test process loaded by the whole suite ends the wait.
        let mcp = try MCPHarness.start(holdWeather: true, relay: relay)
        try await mcp.initialize()
        try mcp.weatherd.send(
            line: #"{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"get_current_weather","#
                + #""arguments":{"lat":10,"lon":10}}}"#)
        try mcp.weatherd.send(
            line: #"{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"get_forecast","#
                + #""arguments":{"lat":20,"lon":20}}}"#)
        #expect(await eventually { mcp.server.requests.count == 2 }, "both are waiting on the provider")
        try mcp.weatherd.send(
            line: #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0,"reason":"test"}}"#)
        try mcp.weatherd.send(line: #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"slow"}}"#)
        let cancelled = try await mcp.weatherd.output.response(id: "slow")
        #expect(cancelled?["error"]?["code"] == -32800)
        #expect(try await mcp.weatherd.call("ping")["result"] == [:])
        #expect(try await mcp.stop() == 0)
        let answered = try mcp.messages().filter { $0["id"] == 0 }
        #expect(answered.isEmpty, "a request cancelled by notifications/cancelled gets no answer at all")
    }

    @Test("with a tool call waiting on a held upstream answer, end of input then SIGTERM exits cleanly at once")
    func exitWithRequestInFlight() async throws {
        let mcp = try MCPHarness.start(holdWeather: true)
        try await mcp.initialize()
        try mcp.weatherd.send(
            line: #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_current_weather","#
                + #""arguments":{"lat":10,"lon":10}}}"#)
        #expect(await eventually { mcp.server.requests.count == 1 })
        // How MCP hosts stop a server: close its input, then SIGTERM (2 s later; at once here).
        try mcp.weatherd.closeInput()
        mcp.weatherd.signal(SIGTERM)
        // weatherd gives in-flight work a short grace, then cuts it; the upstream never answers, so only that can
        // end the process (the wait is a hang guard; the exit time itself is measured by weatherd-bench).
        #expect(await mcp.weatherd.waitForExit() == 0, "well before the upstream answers")
        let events = try logEvents(mcp.directory)
        #expect(events.last?["type"] == "service.stopped")
        #expect(events.contains { $0["type"] == "weather.fetch_failed" }, "the cut attempt is audited")
        try Repository.checkLog(mcp.directory.path)
    }
}
