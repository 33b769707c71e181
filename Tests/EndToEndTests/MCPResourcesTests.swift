import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("MCP end to end: resources, subscriptions and completion")
struct MCPResourcesTests {
    @Test("resources and templates list, read, and an unknown URI is -32002", arguments: [false, true])
    func read(relay: Bool) async throws {
        let mcp = try MCPHarness.start(relay: relay)
        try await mcp.initialize("2025-06-18")
        _ = try await mcp.tool("add_favorite", ["city": "Berlin"])
        _ = try await mcp.tool("get_current_weather", ["favorite": "Berlin"])
        let list = try #require(try await mcp.weatherd.call("resources/list")["result"])
        try MCPSchemas.expectValid(list, "ListResourcesResult", version: "2025-06-18")
        let uris = list["resources"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
        #expect(uris == ["weather://favorites", "weather://alerts", "weather://warnings", "weather://current/fav-1"])
        #expect(list["resources"]?.arrayValue?.last?["annotations"]?["lastModified"]?.stringValue != nil)
        let templates = try #require(try await mcp.weatherd.call("resources/templates/list")["result"])
        try MCPSchemas.expectValid(templates, "ListResourceTemplatesResult", version: "2025-06-18")
        #expect(
            templates["resourceTemplates"]?.arrayValue?.compactMap { $0["uriTemplate"]?.stringValue } == [
                "weather://current/{place}", "weather://forecast/{place}", "weather://nowcast/{place}",
            ])

        let favorites = try #require(
            try await mcp.weatherd.call("resources/read", ["uri": "weather://favorites"])["result"])
        try MCPSchemas.expectValid(favorites, "ReadResourceResult", version: "2025-06-18")
        let content = try #require(favorites["contents"]?.arrayValue?.first)
        #expect(content["mimeType"] == "application/json")
        let text = try JSONValue.parse(Array((content["text"]?.stringValue ?? "").utf8))
        #expect(text["favorites"]?.arrayValue?.first?["name"] == "Berlin")
        let current = try #require(
            try await mcp.weatherd.call("resources/read", ["uri": "weather://forecast/52.52,13.41"])["result"])
        try MCPSchemas.expectValid(current, "ReadResourceResult", version: "2025-06-18")
        let forecast = try JSONValue.parse(
            Array((current["contents"]?.arrayValue?.first?["text"]?.stringValue ?? "").utf8))
        #expect(forecast["daily"]?.arrayValue?.isEmpty == false)
        let unknown = try await mcp.weatherd.call("resources/read", ["uri": "weather://nowhere"])
        #expect(unknown["error"]?["code"] == -32002)
        #expect(unknown["error"]?["data"]?["uri"] == "weather://nowhere")
        #expect(try await mcp.stop() == 0)
    }

    @Test(
        "resources/subscribe: updated after a favorite change and after a new fetch, never before the answer",
        arguments: [false, true])
    func handshakeSubscriptions(relay: Bool) async throws {
        let mcp = try MCPHarness.start(relay: relay)
        try await mcp.initialize()
        let subscribed = try await mcp.weatherd.call("resources/subscribe", ["uri": "weather://favorites"])
        try MCPSchemas.expectValid(try #require(subscribed["result"]), "EmptyResult", version: "2025-11-25")
        _ = try await mcp.weatherd.call("resources/subscribe", ["uri": "weather://current/52.52,13.41"])
        _ = try await mcp.weatherd.call("favorites/add", ["name": "Home", "lat": 1, "lon": 2])
        _ = try await mcp.tool("get_current_weather", ["lat": 52.52, "lon": 13.41])
        let updated = {
            try mcp.messages().filter { $0["method"] == "notifications/resources/updated" }
        }
        #expect(try await eventually { try updated().count == 2 })
        let uris = try Set(updated().compactMap { $0["params"]?["uri"]?.stringValue })
        #expect(uris == ["weather://favorites", "weather://current/52.52,13.41"])
        for notification in try updated() {
            try MCPSchemas.expectValid(notification, "ResourceUpdatedNotification", version: "2025-11-25")
        }
        _ = try await mcp.weatherd.call("resources/unsubscribe", ["uri": "weather://favorites"])
        _ = try await mcp.weatherd.call("favorites/add", ["name": "Away", "lat": 3, "lon": 4])
        _ = try await mcp.weatherd.call("ping")
        #expect(try await mcp.stop() == 0)
        #expect(try updated().count == 2, "nothing after unsubscribing")
    }

    @Test(
        "2026-07-28: subscriptions/listen is acknowledged, then tagged updates; unknown URI is -32602",
        arguments: [false, true])
    func listen(relay: Bool) async throws {
        let mcp = try MCPHarness.start(relay: relay)
        let listen: JSONValue = [
            "jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen",
            "params": [
                "_meta": statelessMeta,
                "notifications": ["resourceSubscriptions": ["weather://favorites", "weather://nowhere"]],
            ],
        ]
        try mcp.weatherd.send(line: listen.jsonString)
        let acknowledged = {
            try mcp.messages().first { $0["method"] == "notifications/subscriptions/acknowledged" }
        }
        #expect(try await eventually { try acknowledged() != nil })
        let ack = try #require(try acknowledged())
        try MCPSchemas.expectValid(ack, "SubscriptionsAcknowledgedNotification", version: "2026-07-28")
        #expect(ack["params"]?["_meta"]?["io.modelcontextprotocol/subscriptionId"] == "listen-1")
        #expect(ack["params"]?["notifications"]?["resourceSubscriptions"] == ["weather://favorites"])
        let added = try await mcp.tool("add_favorite", ["name": "Home", "lat": 1, "lon": 2], meta: statelessMeta)
        try MCPSchemas.expectValid(try #require(added["result"]), "CallToolResult", version: "2026-07-28")
        let updates = { try mcp.messages().filter { $0["method"] == "notifications/resources/updated" } }
        #expect(try await eventually { try updates().count == 1 })
        let update = try #require(try updates().first)
        try MCPSchemas.expectValid(update, "ResourceUpdatedNotification", version: "2026-07-28")
        #expect(update["params"]?["_meta"]?["io.modelcontextprotocol/subscriptionId"] == "listen-1")
        let read = try await mcp.weatherd.call(
            "resources/read", ["uri": "weather://favorites", "_meta": statelessMeta])
        let result = try #require(read["result"])
        try MCPSchemas.expectValid(result, "ReadResourceResult", version: "2026-07-28")
        #expect(result["cacheScope"] == "private")
        let unknown = try await mcp.weatherd.call("resources/read", ["uri": "weather://x", "_meta": statelessMeta])
        #expect(unknown["error"]?["code"] == -32602)
        try mcp.weatherd.send(
            line: #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"listen-1"}}"#)
        _ = try await mcp.weatherd.call("favorites/add", ["name": "Away", "lat": 3, "lon": 4])
        _ = try await mcp.weatherd.call("settings/get")
        #expect(try await mcp.stop() == 0)
        #expect(try updates().count == 1, "a cancelled stream gets nothing more")
        #expect(try mcp.messages().allSatisfy { $0["id"] != "listen-1" }, "and no answer")
    }

    @Test(
        "a second subscriptions/listen with the id of an open stream is refused; shutdown ends the first",
        arguments: [false, true])
    func listenSameId(relay: Bool) async throws {
        let mcp = try MCPHarness.start(relay: relay)
        let listen: JSONValue = [
            "jsonrpc": "2.0", "id": 5, "method": "subscriptions/listen",
            "params": ["_meta": statelessMeta, "notifications": ["resourceSubscriptions": ["weather://favorites"]]],
        ]
        try mcp.weatherd.send(line: listen.jsonString)
        #expect(
            try await eventually {
                try mcp.messages().contains { $0["method"] == "notifications/subscriptions/acknowledged" }
            })
        try mcp.weatherd.send(line: listen.jsonString)
        #expect(try await eventually { try mcp.messages().contains { $0["id"] == 5 } })
        let refused = try #require(try mcp.messages().first { $0["id"] == 5 })
        #expect(refused["error"]?["code"] == -32600)
        #expect(try await mcp.stop() == 0, "shutdown is not held up by the refused duplicate")
        let answers = try mcp.messages().filter { $0["id"] == 5 }
        #expect(answers.count == 2, "the refusal, then the first stream's result at shutdown")
        #expect(answers.last?["result"]?["resultType"] == "complete")
    }

    @Test("a listen stream still open at shutdown ends with its result", arguments: [false, true])
    func listenClosedAtShutdown(relay: Bool) async throws {
        let mcp = try MCPHarness.start(relay: relay)
        let listen: JSONValue = [
            "jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen",
            "params": ["_meta": statelessMeta, "notifications": ["resourceSubscriptions": ["weather://alerts"]]],
        ]
        try mcp.weatherd.send(line: listen.jsonString)
        #expect(await eventually { (try? mcp.messages().count) == 1 })
        #expect(try await mcp.stop() == 0)
        let closed = try #require(try mcp.messages().first { $0["id"] == 9 }?["result"])
        try MCPSchemas.expectValid(closed, "SubscriptionsListenResult", version: "2026-07-28")
        #expect(closed["_meta"]?["io.modelcontextprotocol/subscriptionId"] == 9)
    }

    @Test("completion of place: favorites first, then cities from 3 characters on", arguments: [false, true])
    func completion(relay: Bool) async throws {
        let mcp = try MCPHarness.start(relay: relay)
        try await mcp.initialize()
        _ = try await mcp.tool("add_favorite", ["name": "Bergen", "lat": 60.39, "lon": 5.32])
        let complete = { (value: String) async throws -> JSONValue in
            try await mcp.weatherd.call(
                "completion/complete",
                [
                    "ref": ["type": "ref/resource", "uri": "weather://current/{place}"],
                    "argument": ["name": "place", "value": .string(value)],
                ])
        }
        let short = try #require(try await complete("Be")["result"])
        try MCPSchemas.expectValid(short, "CompleteResult", version: "2025-11-25")
        #expect(short["completion"]?["values"] == ["Bergen"], "no city search under 3 characters")
        let long = try #require(try await complete("Ber")["result"])
        #expect(long["completion"]?["values"] == ["Bergen", "Berlin", "Bern"])
        let prompt = try await mcp.weatherd.call(
            "completion/complete",
            ["ref": ["type": "ref/prompt", "name": "x"], "argument": ["name": "a", "value": ""]])
        #expect(prompt["error"]?["code"] == -32602)
        #expect(try await mcp.stop() == 0)
    }
}
