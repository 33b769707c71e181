import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("MCP end to end: tools")
struct MCPToolsTests {
    @Test("every tool's happy path answers structuredContent and the same JSON as text", arguments: [false, true])
    func happyPaths(relay: Bool) async throws {
        let mcp = try MCPHarness.start(relay: relay)
        try await mcp.initialize("2025-06-18")
        var calls: [(String, JSONValue)] = [
            ("search_cities", ["query": "Berlin", "limit": 2]),
            ("add_favorite", ["city": "Berlin"]),
            ("add_favorite", ["name": "Hut", "lat": 46.5, "lon": 8.0, "country": "CH"]),
            ("list_favorites", [:]),
            ("get_current_weather", ["favorite": "berlin", "units": "imperial"]),
            ("get_forecast", ["lat": 52.52, "lon": 13.41, "days": 2, "detail": "full"]),
            ("get_forecast", ["favorite": "fav-2"]),
            ("refresh_weather", ["scope": "favorites"]),
            ("get_alerts", [:]),
            ("set_location", ["lat": 52.52, "lon": 13.41]),
        ]
        calls.append(("remove_favorite", ["favorite": "Hut"]))
        var results: [String: JSONValue] = [:]
        for (name, arguments) in calls {
            let response = try await mcp.tool(name, arguments)
            let result = try #require(response["result"], "\(name): \(response)")
            try MCPSchemas.expectValid(result, "CallToolResult", version: "2025-06-18")
            #expect(result["isError"] == nil, "\(name): \(result)")
            let structured = try #require(result["structuredContent"]?.objectValue, "\(name) has an object")
            #expect(try toolText(response) == .object(structured), "the text block is the same JSON")
            let texts = result["content"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
            #expect(texts.count == 2 && texts.first?.contains("\n") == false, "\(name): a summary line first")
            results[name] = result["structuredContent"]
        }
        #expect(results["search_cities"]?["candidates"]?.arrayValue?.count == 2)
        #expect(results["list_favorites"]?["favorites"]?.arrayValue?.count == 2)
        #expect(results["get_current_weather"]?["units"]?["temperature"] == "°F")
        #expect(results["get_forecast"]?["entries"] == nil, "summary detail leaves the 3-hourly entries out")
        #expect(results["refresh_weather"]?["results"]?.arrayValue?.count == 2)
        #expect(results["remove_favorite"]?["name"] == "Hut")
        #expect(results["get_alerts"]?["alerts"] != nil)
        #expect(results["set_location"]?["lat"] == 52.52)
        #expect(try await mcp.stop() == 0)
    }

    @Test(
        "weatherd's errors are isError results that say what to do; unknown tools are -32602", arguments: [false, true])
    func errors(relay: Bool) async throws {
        let mcp = try MCPHarness.start(relay: relay)
        try await mcp.initialize("2025-06-18")
        let noLocation = try #require(try await mcp.tool("get_current_weather")["result"])
        try MCPSchemas.expectValid(noLocation, "CallToolResult", version: "2025-06-18")
        #expect(noLocation["isError"] == true)
        let text = noLocation["content"]?.arrayValue?.first?["text"]?.stringValue ?? ""
        #expect(
            text
                == "No current location is set. Call set_location first, or give the tool a city, lat and lon, or a favorite."
        )
        let missing = try #require(try await mcp.tool("remove_favorite", ["favorite": "Atlantis"])["result"])
        #expect(missing["isError"] == true)
        let missingText = missing["content"]?.arrayValue?.first?["text"]?.stringValue ?? ""
        #expect(missingText == #"No favorite has the id or name "Atlantis". list_favorites shows the ids and names."#)
        for error in [text, missingText] {
            #expect(Self.rpcNames.allSatisfy { !error.contains($0) }, "names no JSON-RPC method or flag: \(error)")
            let sentences = error.split(separator: ".").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            #expect(Set(sentences).count == sentences.count, "says each thing once: \(error)")
        }
        #expect(try await mcp.tool("get_snow")["error"]?["code"] == -32602)
        let invalid = try await mcp.tool("get_forecast", ["days": 17])
        #expect(invalid["error"]?["code"] == -32602, "before 2025-11-25 invalid arguments are a protocol error")
        #expect(try await mcp.tool("search_cities", ["query": "Be", "extra": 1])["error"]?["code"] == -32602)
        #expect(try await mcp.stop() == 0)

        let newer = try MCPHarness.start(relay: relay)
        try await newer.initialize("2025-11-25")
        let asToolError = try #require(try await newer.tool("get_forecast", ["days": 17])["result"])
        try MCPSchemas.expectValid(asToolError, "CallToolResult", version: "2025-11-25")
        #expect(asToolError["isError"] == true, "from 2025-11-25 on they are a tool error (SEP-1303)")
        #expect(try await newer.stop() == 0)
    }

    @Test(
        "refresh_weather sends strictly increasing progress for each place, all before its result",
        arguments: [false, true])
    func progress(relay: Bool) async throws {
        let mcp = try MCPHarness.start(relay: relay)
        try await mcp.initialize("2025-03-26")
        for index in 0..<3 {
            _ = try await mcp.weatherd.call(
                "favorites/add", ["name": .string("P\(index)"), "lat": .int(Int64(index)), "lon": 0])
        }
        let response = try await mcp.tool("refresh_weather", [:], meta: ["progressToken": "tok-1"])
        try MCPSchemas.expectValid(try #require(response["result"]), "CallToolResult", version: "2025-03-26")
        let lines = try mcp.messages()
        let resultIndex = try #require(lines.firstIndex { $0["id"] == response["id"] })
        let progress = lines.enumerated().filter { $0.element["method"] == "notifications/progress" }
        #expect(progress.count == 3)
        #expect(progress.allSatisfy { $0.offset < resultIndex }, "every progress line precedes the result")
        let values = progress.compactMap { $0.element["params"]?["progress"]?.doubleValue }
        #expect(values == values.sorted() && Set(values).count == values.count, "strictly increasing")
        for (_, notification) in progress {
            #expect(notification["params"]?["progressToken"] == "tok-1")
            #expect(notification["params"]?["total"] == 3)
            try MCPSchemas.expectValid(notification, "ProgressNotification", version: "2025-03-26")
        }
        #expect(try await mcp.stop() == 0)
    }

    @Test("add, remove and refresh through MCP leave the same events as the native methods", arguments: [false, true])
    func sameEvents(relay: Bool) async throws {
        let native = try MCPHarness.start(relay: relay)
        _ = try await native.weatherd.call("favorites/add", ["name": "Hut", "lat": 46.5, "lon": 8.0])
        _ = try await native.weatherd.call("favorites/add", ["city": "Berlin"])
        _ = try await native.weatherd.call("refresh", ["scope": "favorites"])
        #expect(await Self.officialChecksRan(native.directory))
        _ = try await native.weatherd.call("favorites/remove", ["id": "fav-1"])
        #expect(try await native.stop() == 0)

        let mcp = try MCPHarness.start(relay: relay)
        try await mcp.initialize()
        _ = try await mcp.tool("add_favorite", ["name": "Hut", "lat": 46.5, "lon": 8.0])
        _ = try await mcp.tool("add_favorite", ["city": "Berlin"])
        _ = try await mcp.tool("refresh_weather", ["scope": "favorites"])
        #expect(await Self.officialChecksRan(mcp.directory))
        _ = try await mcp.tool("remove_favorite", ["favorite": "Hut"])
        #expect(try await mcp.stop() == 0)

        // The binary's timers are off (`quietTimers`): no daily summary depends on the hour the test runs at.
        let comparable = { (directory: TemporaryDataDirectory) throws -> [JSONValue] in
            try logEvents(directory).filter { !($0["type"]?.stringValue ?? "").hasPrefix("service.") }.map {
                ["type": $0["type"] ?? .null, "v": $0["v"] ?? .null, "data": Self.timeless($0["data"] ?? .null)]
            }
        }
        let nativeEvents = try comparable(native.directory)
        #expect(nativeEvents.count >= 8)
        let mcpEvents = try comparable(mcp.directory)
        let changes = { (events: [JSONValue]) in
            events.filter { $0["type"]?.stringValue?.hasPrefix("favorite.") == true }
        }
        #expect(changes(mcpEvents) == changes(nativeEvents), "the changes, in order")
        let sorted = { (events: [JSONValue]) in events.map(\.jsonString).sorted() }
        #expect(sorted(mcpEvents) == sorted(nativeEvents), "every event (the refresh's fetches run concurrently)")
    }

    /// Whether the refresh's official checks, which run in the background after it answers, have been recorded for
    /// both favorites (Hut at 46.5,8.0 also asks NWS's points): the runs remove Hut only after its check, so that
    /// neither run's events depend on which came first.
    static func officialChecksRan(_ directory: TemporaryDataDirectory) async -> Bool {
        await eventually {
            let events = (try? logEvents(directory)) ?? []
            let keys = { (type: String) in
                Set(events.filter { $0["type"]?.stringValue == type }.compactMap { $0["data"]?["key"]?.stringValue })
            }
            return keys("warnings.fetched").isSuperset(of: ["46.5,8.0", "52.52,13.41"])
                && keys("point.fetched").contains("46.5,8.0")
        }
    }

    /// What only the JSON-RPC face or whoever runs weatherd can use: an MCP error text names none of it.
    static let rpcNames = [
        "weather/", "favorites/", "location/", "cities/", "alerts/", "settings/", "history/", "--",
    ]

    /// `data` without the members that differ run to run (times, latencies, the stand-in's port).
    static func timeless(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.filter { !["addedAt", "at", "latencyMs", "url", "searchedAt", "fetchedAt"].contains($0.key) }
                    .mapValues(timeless))
        case .array(let items): return .array(items.map(timeless))
        default: return value
        }
    }
}
