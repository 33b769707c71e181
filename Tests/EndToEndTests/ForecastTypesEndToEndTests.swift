import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: forecast types")
struct ForecastTypesEndToEndTests {
    @Test("OpenWeatherMap: 3-hourly, daily and twice-daily answers; hourly is refused naming the types it has")
    func openWeatherMap() async throws {
        let server = try LocalHTTPServer()
        // Moved so that its first step (15:00) lies within the next day: the recorded rain (its second and third
        // steps) is then still ahead whatever the time of day the test runs at, and none of it is past.
        server.route(
            "/data/2.5/forecast",
            .init(
                body: try ProviderEndToEndTests.metric(
                    "owm-forecast-london.json", movedTo: Date().addingTimeInterval(86_400))))
        let directory = TemporaryDataDirectory()
        let weatherd = try RunningWeatherd(
            arguments: [
                "--standalone", "--data-dir", directory.path, "--log-level", "warning", "--owm-base-url",
                server.baseURL,
            ] + quietTimers,
            environment: ["OWM_API_KEY": "k"])
        let place: [String: JSONValue] = ["lat": 51.51, "lon": -0.13]

        let threeHourly = try #require(try await weatherd.call("weather/forecast", .object(place))["result"])
        #expect(threeHourly["type"] == "threeHourly")
        let steps = try #require(threeHourly["entries"]?.arrayValue)
        #expect(!steps.isEmpty)
        let rainy = try #require(steps.first { $0["precipitation"] != nil }, "the recorded steps with rain.3h")
        #expect(rainy["condition"]?["ha"] == "rainy")
        #expect(steps.allSatisfy { $0["cloudCover"] != nil && $0["isDay"] != nil && $0["windGust"] != nil })
        #expect(steps.allSatisfy { $0["dewPoint"] == nil && $0["uvIndex"] == nil }, "OWM 2.5 has neither")

        var hourlyParams = place
        hourlyParams["type"] = "hourly"
        let hourly = try await weatherd.call("weather/forecast", .object(hourlyParams))
        let error = try #require(hourly["error"])
        #expect(error["code"] == -32602)
        #expect(error["data"]?["kind"] == "unsupported_forecast_type")
        #expect(error["data"]?["supported"] == ["threeHourly", "daily", "twiceDaily"])
        let message = try #require(error["message"]?.stringValue)
        #expect(message.contains("openweathermap gives no hourly forecast"), "\(message)")
        #expect(message.contains("threeHourly, daily, twiceDaily"), "\(message)")

        var dailyParams = place
        dailyParams["type"] = "daily"
        let daily = try #require(try await weatherd.call("weather/forecast", .object(dailyParams))["result"])
        #expect(daily["entries"] == nil)
        let days = try #require(daily["daily"]?.arrayValue)
        #expect((4...6).contains(days.count), "every local date the 40 steps reach, from today on")
        #expect(days.allSatisfy { $0["min"] != nil && $0["max"] != nil && $0["sunrise"] != nil })

        var twiceParams = place
        twiceParams["type"] = "twiceDaily"
        let twice = try #require(try await weatherd.call("weather/forecast", .object(twiceParams))["result"])
        let halves = try #require(twice["entries"]?.arrayValue)
        #expect(halves.count >= 6, "at least four days of 3-hourly steps ahead")
        for (earlier, later) in zip(halves, halves.dropFirst()) {
            #expect(earlier["end"] == later["time"])
            #expect(earlier["isDay"] != later["isDay"])
        }
        #expect(server.requests.filter { $0.contains("/data/2.5/forecast") }.count == 1, "one call, then the cache")
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        try Repository.checkLog(directory.path)
    }

    @Test("MCP get_forecast takes type: twice-daily halves as entries; a type it does not know is refused")
    func mcpType() async throws {
        let mcp = try MCPHarness.start()
        try await mcp.initialize("2025-06-18")
        let response = try await mcp.tool(
            "get_forecast", ["lat": 52.52, "lon": 13.41, "type": "twiceDaily", "detail": "full", "days": 16])
        let result = try #require(response["result"])
        try MCPSchemas.expectValid(result, "CallToolResult", version: "2025-06-18")
        #expect(result["isError"] == nil, "\(result)")
        let structured = try #require(result["structuredContent"])
        #expect(structured["type"] == "twiceDaily")
        #expect(structured["entries"]?.arrayValue?.allSatisfy { $0["isDay"] != nil && $0["end"] != nil } == true)
        let unknown = try await mcp.tool("get_forecast", ["lat": 52.52, "lon": 13.41, "type": "weekly"])
        #expect(unknown["error"]?["code"] == -32602)
        #expect(try await mcp.stop() == 0)
        try Repository.checkLog(mcp.directory.path)
    }
}
