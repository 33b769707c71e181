import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("MCP over HTTP at /mcp: sessions, answers as JSON, notifications as a stream, the same tools as on stdio")
struct MCPOverHTTPTests {
    static let json = "Content-Type: application/json"
    static let accept = "Accept: application/json, text/event-stream"

    /// POSTs one message to /mcp (in `session` when given).
    static func post(_ port: Int, _ message: JSONValue, session: String? = nil, headers: [String] = [])
        async throws -> HTTPTestClient.Answer
    {
        var lines = [HTTPAPITests.bearer, json, accept] + headers
        if let session { lines.append("Mcp-Session-Id: \(session)") }
        return try await HTTPAPITests.ask(port, "POST", "/mcp", headers: lines, body: message.jsonString)
    }

    static func initialize(_ port: Int) async throws -> (String, JSONValue) {
        let answer = try await post(
            port,
            [
                "jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": [
                    "protocolVersion": "2025-06-18", "capabilities": [:],
                    "clientInfo": ["name": "test", "version": "1"],
                ],
            ])
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/json")
        let session = try #require(answer.headers["mcp-session-id"])
        return (session, try JSONValue.parse(answer.body))
    }

    @Test("initialize opens a session; initialized is 202; tools/list and tools/call answer as on stdio")
    func session() async throws {
        try await HTTPAPITests.serving { service, port in
            let (session, initialized) = try await Self.initialize(port)
            #expect(session.count == 32 && session.allSatisfy(\.isHexDigit))
            #expect(initialized["result"]?["protocolVersion"] == "2025-06-18")
            #expect(initialized["id"] == 1)
            let notified = try await Self.post(
                port, ["jsonrpc": "2.0", "method": "notifications/initialized"], session: session)
            #expect(notified.status == 202)
            #expect(notified.body.isEmpty)
            let listed = try await Self.post(
                port, ["jsonrpc": "2.0", "id": "tools", "method": "tools/list"], session: session,
                headers: ["MCP-Protocol-Version: 2025-06-18"])
            #expect(listed.status == 200)
            #expect(listed.headers["mcp-session-id"] == session)
            let tools = try JSONValue.parse(listed.body)["result"]?["tools"]?.arrayValue?.compactMap(\.["name"])
            // The same tools as a stdio client of the same version is given.
            _ = try await service.result(
                "initialize", ["protocolVersion": "2025-06-18", "capabilities": [:], "clientInfo": ["name": "stdio"]])
            let stdio = try await service.result("tools/list")["tools"]?.arrayValue?.compactMap(\.["name"])
            #expect(tools == stdio)
            #expect(tools?.contains("get_current_weather") == true)
            let called = try await Self.post(
                port,
                [
                    "jsonrpc": "2.0", "id": 7, "method": "tools/call",
                    "params": ["name": "get_current_weather", "arguments": ["lat": 52.52, "lon": 13.41]],
                ], session: session)
            let result = try JSONValue.parse(called.body)["result"]
            #expect(result?["isError"] != true)
            #expect(result?["structuredContent"]?["current"]?["temperature"] == .double(3))
        }
    }

    @Test("GET /mcp streams the session's notifications: a subscribed resource's update; one stream per session")
    func notifications() async throws {
        try await HTTPAPITests.serving { service, port in
            let (session, _) = try await Self.initialize(port)
            _ = try await Self.post(port, ["jsonrpc": "2.0", "method": "notifications/initialized"], session: session)
            let subscribed = try await Self.post(
                port,
                ["jsonrpc": "2.0", "id": 2, "method": "resources/subscribe", "params": ["uri": "weather://favorites"]],
                session: session)
            #expect(try JSONValue.parse(subscribed.body)["result"] == [:])
            let client = try HTTPTestClient(port: port)
            await client.send(HTTPTestClient.get("/mcp", [HTTPAPITests.bearer, "Mcp-Session-Id: \(session)"]))
            let head = try #require(await client.head())
            #expect(head.status == 200)
            #expect(head.headers["content-type"] == "text/event-stream")
            let second = try await HTTPAPITests.ask(
                port, "GET", "/mcp", headers: [HTTPAPITests.bearer, "Mcp-Session-Id: \(session)"])
            #expect(second.status == 409)
            _ = try await service.result("favorites/add", ["name": "Home", "lat": 52.52, "lon": 13.41])
            let text = await client.streamed { $0.hasSuffix("\n\n") }
            let event = try #require(ServerSentEvents.parse(text).first)
            #expect(event.event == "message")
            #expect(event.json?["method"] == "notifications/resources/updated")
            #expect(event.json?["params"]?["uri"] == "weather://favorites")
        }
    }

    @Test("refused: an unknown or ended session (404), an unknown protocol version (400), another origin, no token")
    func refusals() async throws {
        try await HTTPAPITests.serving { _, port in
            let ping: JSONValue = ["jsonrpc": "2.0", "id": 3, "method": "ping"]
            let unknown = try await Self.post(port, ping, session: String(repeating: "0", count: 32))
            #expect(unknown.status == 404)
            #expect(try JSONValue.parse(unknown.body)["error"]?["message"]?.stringValue?.contains("initialize") == true)
            let (session, _) = try await Self.initialize(port)
            #expect(try await Self.post(port, ping, session: session).status == 200)
            let ended = try await HTTPAPITests.ask(
                port, "DELETE", "/mcp", headers: [HTTPAPITests.bearer, "Mcp-Session-Id: \(session)"])
            #expect(ended.status == 204)
            #expect(try await Self.post(port, ping, session: session).status == 404)
            let version = try await Self.post(port, ping, headers: ["MCP-Protocol-Version: 1999-01-01"])
            #expect(version.status == 400)
            let foreign = try await Self.post(port, ping, headers: ["Origin: http://evil.example"])
            #expect(foreign.status == 403)
            let anonymous = try await HTTPAPITests.ask(
                port, "POST", "/mcp", headers: [Self.json], body: ping.jsonString)
            #expect(anonymous.status == 401)
            let notJSON = try await HTTPAPITests.ask(
                port, "POST", "/mcp", headers: [HTTPAPITests.bearer, Self.json], body: "{")
            #expect(notJSON.status == 400)
            #expect(try JSONValue.parse(notJSON.body)["error"]?["code"] == -32700)
        }
    }
}
