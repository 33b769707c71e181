import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("MCP tool results: the summary line, detail, the 25,000-character cap and set_location, in process")
struct MCPResultTests {
    static var quick: FetchPolicy { .inProcess }

    /// Open-Meteo answers; with `failingAfterFirst`, current weather only once, then 503s.
    static func network(failingAfterFirst: Bool = false) -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route(
            "/v1/search",
            InMemoryTransport.ok(OpenMeteoBodies.geocode([("Kathmandu", "NP", "Bagmati", 27.7172, 85.324)])))
        let current = InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 4.4))
        if failingAfterFirst {
            network.route("/v1/forecast", query: "current=", current, InMemoryTransport.status(503))
        } else {
            network.route("/v1/forecast", query: "current=", current)
        }
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        return network
    }

    static func initialize(_ service: InProcessWeatherd) async throws {
        _ = try await service.result(
            "initialize",
            ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "tests", "version": "1"]])
    }

    static func tool(_ service: InProcessWeatherd, _ name: String, _ arguments: JSONValue = [:]) async throws
        -> JSONValue
    {
        try await service.result("tools/call", ["name": .string(name), "arguments": arguments])
    }

    /// The text blocks of a tool result.
    static func texts(_ result: JSONValue) -> [String] {
        result["content"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
    }

    /// Checks the shape every successful result has: a one-line summary, then the JSON of structuredContent,
    /// within 25,000 characters; returns the summary.
    @discardableResult
    static func expectUniform(_ result: JSONValue, _ label: String) throws -> String {
        #expect(result["isError"] == nil, "\(label): \(result)")
        let texts = Self.texts(result)
        #expect(texts.count == 2, "\(label): a summary and the JSON")
        let summary = try #require(texts.first)
        #expect(!summary.isEmpty && !summary.contains("\n"), "\(label): one line")
        #expect(try JSONValue.parse(Array((texts.last ?? "").utf8)) == result["structuredContent"], "\(label)")
        #expect(texts.reduce(0) { $0 + $1.count } <= 25_000, "\(label)")
        return summary
    }

    @Test(
        "current weather: the line gives the place, the values with the answer's units, the wind's compass point, the local time and freshness"
    )
    func currentLine() async throws {
        let clock = ManualClock()
        let network = Self.network(failingAfterFirst: true)
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: Self.quick) { service in
            try await Self.initialize(service)
            _ = try await service.result("favorites/add", ["name": "Office", "lat": 52.52, "lon": 13.41])
            let metric = try await Self.tool(service, "get_current_weather", ["favorite": "Office"])
            // 4.4 °C, overcast, 4.2 m/s from 250°, observed at 12:00 UTC at UTC+1.
            #expect(
                try Self.expectUniform(metric, "metric") == "Office: 4 °C, overcast, wind 4 m/s WSW, as of 13:00, fresh"
            )
            let imperial = try await Self.tool(
                service, "get_current_weather", ["favorite": "Office", "units": "imperial"])
            #expect(
                try Self.expectUniform(imperial, "imperial")
                    == "Office: 40 °F, overcast, wind 9 mph WSW, as of 13:00, fresh")

            clock.advance(milliseconds: 30 * 60_000)
            let stale = try await Self.tool(
                service, "get_current_weather", ["lat": 52.52, "lon": 13.41, "maxAgeSeconds": 0])
            #expect(try Self.expectUniform(stale, "stale").hasSuffix("as of 13:00, stale, 30 min old"))
            #expect(stale["structuredContent"]?["stale"] == true)
        }
    }

    @Test("detail: summary keeps the line's values, standard is the native answer, full adds the forecast's steps")
    func details() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: Self.quick) { service in
            try await Self.initialize(service)
            let place: JSONValue = ["lat": 52.52, "lon": 13.41]
            let standard = try await Self.tool(service, "get_current_weather", place)
            let native = try await service.result("weather/current", place)
            try Self.expectUniform(standard, "standard")
            let withoutSource = { (answer: JSONValue?) in answer?.objectValue?.filter { $0.key != "source" } }
            #expect(withoutSource(standard["structuredContent"]) == withoutSource(native), "the native answer")
            let summary = try await Self.tool(
                service, "get_current_weather", ["lat": 52.52, "lon": 13.41, "detail": "summary"])
            try Self.expectUniform(summary, "summary")
            let minimal = try #require(summary["structuredContent"])
            #expect(minimal["current"]?["temperature"] == native["current"]?["temperature"])
            #expect(minimal["current"]?["windDirection"] == 250.0)
            #expect(minimal["current"]?["humidity"] == nil, "what the line does not say is left out")
            #expect(minimal["location"] == native["location"])

            let forecast: JSONValue = ["lat": 52.52, "lon": 13.41, "days": 3]
            let days = try await Self.tool(service, "get_forecast", forecast)
            let line = try Self.expectUniform(days, "forecast")
            #expect(line.hasPrefix("52.52° N, 13.41° E, 3 days: "), "\(line)")
            #expect(days["structuredContent"]?["entries"] == nil)
            #expect(days["structuredContent"]?["daily"]?.arrayValue?.count == 3)
            let full = try await Self.tool(
                service, "get_forecast",
                ["lat": 52.52, "lon": 13.41, "days": 1, "detail": "full", "type": "twiceDaily"])
            let fullLine = try Self.expectUniform(full, "full")
            // The line says what the JSON beside it holds: the day's figures, the steps counted, the fetch time.
            let answer = try #require(full["structuredContent"])
            let firstDay = try #require(answer["daily"]?.arrayValue?.first)
            let low = try #require(firstDay["min"]?.doubleValue), high = try #require(firstDay["max"]?.doubleValue)
            let steps = try #require(answer["entries"]?.arrayValue?.count)
            let fetched = try #require(answer["fetchedAt"]?.stringValue.flatMap { Timestamp(rfc3339: $0) })
            let offset = try #require(answer["location"]?["utcOffsetSeconds"]?.intValue)
            let minute = (fetched.milliseconds / 60_000 + offset / 60) % 1440
            let twoDigits = { (value: Int64) in value < 10 ? "0\(value)" : "\(value)" }
            let clock = "\(twoDigits(minute / 60)):\(twoDigits(minute % 60))"
            #expect(
                fullLine.hasSuffix(
                    " \(Int(low.rounded()))–\(Int(high.rounded())) °C \(firstDay["condition"]?["text"]?.stringValue ?? "")"
                        + "; \(steps) twiceDaily steps, fetched \(clock), fresh"), "\(fullLine)")
            #expect(fullLine.hasPrefix("52.52° N, 13.41° E, 1 day: "), "\(fullLine)")
            #expect(full["structuredContent"]?["type"] == "twiceDaily")
            #expect(full["structuredContent"]?["entries"]?.arrayValue?.isEmpty == false)
            let brief = try await Self.tool(service, "get_forecast", ["lat": 52.52, "lon": 13.41, "detail": "summary"])
            try Self.expectUniform(brief, "brief")
            let day = try #require(brief["structuredContent"]?["daily"]?.arrayValue?.first)
            #expect(day["min"] != nil && day["max"] != nil && day["condition"] != nil)
            #expect(day["sunrise"] == nil, "a summary day keeps only what the line says")
        }
    }

    @Test("a full hourly forecast of 16 days is cut to 25,000 characters: valid JSON, fewer steps, truncated: true")
    func capForecast() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: Self.quick) { service in
            try await Self.initialize(service)
            // In kelvin, whose figures are the longest.
            let native = try await service.result(
                "weather/forecast",
                ["lat": 52.52, "lon": 13.41, "detail": "full", "type": "hourly", "units": "standard"])
            #expect(native.jsonString.count > 25_000, "the uncut answer is longer than the cap")
            let result = try await Self.tool(
                service, "get_forecast",
                ["lat": 52.52, "lon": 13.41, "days": 16, "detail": "full", "type": "hourly", "units": "standard"])
            let summary = try Self.expectUniform(result, "hourly")
            let structured = try #require(result["structuredContent"])
            #expect(structured["truncated"] == true)
            #expect(summary.contains("Truncated to 25000 characters"), "\(summary)")
            let entries = try #require(structured["entries"]?.arrayValue)
            let all = try #require(native["entries"]?.arrayValue)
            #expect(!entries.isEmpty && entries.count < all.count)
            #expect(entries == Array(all.prefix(entries.count)), "the first steps are kept, in order")
            #expect(structured["location"] == native["location"])
        }
    }

    @Test("a long favorites page is cut to 25,000 characters, and its nextCursor continues where the cut was")
    func capFavorites() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: Self.quick) { service in
            try await Self.initialize(service)
            let count = 300
            for index in 0..<count {
                let name = "Favorite number \(index) with a name long enough to fill a page quickly"
                _ = try await service.result(
                    "favorites/add",
                    ["name": .string(name), "lat": .double(Double(index) * 0.1 - 15), "lon": 20])
            }
            var seen: [JSONValue] = []
            var cursor: JSONValue? = nil
            var pages = 0
            repeat {
                var arguments: [String: JSONValue] = ["limit": 1000]
                if let cursor { arguments["cursor"] = cursor }
                let result = try await Self.tool(service, "list_favorites", .object(arguments))
                let summary = try Self.expectUniform(result, "page \(pages)")
                let structured = try #require(result["structuredContent"])
                if pages == 0 {
                    #expect(structured["truncated"] == true)
                    #expect(summary.contains("nextCursor continues"))
                }
                seen += structured["favorites"]?.arrayValue ?? []
                cursor = structured["nextCursor"]
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages > 1)
            let ids = seen.compactMap { $0["id"]?.stringValue }
            #expect(ids.count == count && Set(ids).count == count, "every favorite once, none skipped")
        }
    }

    @Test("set_location sets the location as location/set does; the weather tools then use it; errors name MCP tools")
    func setLocation() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: Self.quick) { service in
            try await Self.initialize(service)
            let none = try await Self.tool(service, "get_current_weather")
            #expect(none["isError"] == true)
            #expect(Self.texts(none).first?.contains("Call set_location first") == true)

            let set = try await Self.tool(service, "set_location", ["address": "Kathmandu"])
            let summary = try Self.expectUniform(set, "set_location")
            #expect(
                summary == "Current location set to Kathmandu (27.72, 85.32); refreshing the weather of every place")
            #expect(set["structuredContent"]?["name"] == "Kathmandu")
            let here = try await service.result("location/get")
            #expect(here["lat"] == 27.72 && here["name"] == "Kathmandu")
            await service.engine.drainBackground()
            let weather = try await Self.tool(service, "get_current_weather")
            #expect(try Self.expectUniform(weather, "here").hasPrefix("Kathmandu: "))

            let moved = try await Self.tool(service, "set_location", ["lat": 27.71, "lon": 85.33])
            #expect(try Self.expectUniform(moved, "small move").hasSuffix("a move under 5 km, so no refresh"))
            let both = try await Self.tool(service, "set_location", ["address": "x", "lat": 1, "lon": 1])
            #expect(both["isError"] == true, "invalid arguments are a tool error from 2025-11-25 on")
            #expect(Self.texts(both).first?.contains("either address, or lat and lon") == true)
        }
    }

    @Test("the other tools begin with a line that fits their result", arguments: [false, true])
    func otherLines(empty: Bool) async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: Self.quick) { service in
            try await Self.initialize(service)
            if !empty {
                _ = try await Self.tool(
                    service, "add_favorite", ["name": "Hut", "lat": 46.5, "lon": 8.0, "country": "CH"])
                _ = try await Self.tool(service, "add_favorite", ["name": "Office", "lat": 52.52, "lon": 13.41])
            }
            let list = try Self.expectUniform(try await Self.tool(service, "list_favorites"), "list")
            #expect(list == (empty ? "No favorites on this page." : "2 favorites: Office, Hut"))
            let search = try Self.expectUniform(
                try await Self.tool(service, "search_cities", ["query": "Kathmandu"]), "search")
            #expect(search == "1 place matches \"Kathmandu\": Kathmandu (NP, Bagmati)")
            let refresh = try Self.expectUniform(try await Self.tool(service, "refresh_weather"), "refresh")
            #expect(
                refresh
                    == (empty ? "Nothing to refresh: no current location and no favorites." : "Refreshed 2 of 2 places")
            )
            if !empty {
                let removed = try Self.expectUniform(
                    try await Self.tool(service, "remove_favorite", ["favorite": "Hut"]), "remove")
                #expect(removed == "Removed fav-1: Hut (CH) at 46.5, 8.0")
            }
        }
    }
}
