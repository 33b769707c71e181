import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("MCP: how sure the forecast is, how the models agree and how good the forecasts have been, in process")
struct ConfidenceMCPTests {
    @Test("get_forecast_confidence: a sentence per day in the reader's units, then the answer of weather/confidence")
    func confidence() async throws {
        let network = ConfidenceFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(ConfidenceFixture.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await OfficialMCPTests.initialize(service)
            let listed = try await service.result("tools/list")["tools"]?.arrayValue?.compactMap(\.["name"])
            for name in ["get_forecast_confidence", "compare_models", "get_forecast_accuracy"] {
                #expect(listed?.contains(.string(name)) == true, "\(name) listed")
            }
            var arguments = ConfidenceFixture.berlin
            arguments["days"] = 2
            arguments["units"] = "imperial"
            let result = try await OfficialMCPTests.tool(service, "get_forecast_confidence", .object(arguments))
            #expect(result["isError"] != true)
            let text = try #require(OfficialMCPTests.texts(result).first)
            // Directly: on day 1 member m's high is m/5 + 23/3 °C, m = 0…50; the 10th and 90th percentiles are
            // members 5 and 45, in whole °F.
            let fahrenheit = { (celsius: Double) in Int((celsius * 9 / 5 + 32).rounded()) }
            let band = "\(fahrenheit(1 + 23.0 / 3))–\(fahrenheit(9 + 23.0 / 3)) °F"
            #expect(
                text.hasPrefix("52.52° N, 13.41° E (ecmwf_ifs025 ensemble, 51 members): today high \(band), "),
                "\(text)")
            #expect(text.contains("51 % of members wet, low confidence"), "26 of 51 members wet, a 10 °C band")
            #expect(text.contains("; tomorrow high "))
            #expect(text.hasSuffix("The 10–90 % range of the members, not a calibrated probability."))
            let structured = try #require(result["structuredContent"])
            #expect(structured["days"]?.arrayValue?.count == 2)
            #expect(structured["units"]?["temperature"] == "°F")
            let direct = try await service.result("weather/confidence", .object(arguments))
            #expect(structured["days"] == direct["days"] && structured["hours"] == direct["hours"])
            #expect(ConfidenceFixture.calls(network, "/v1/ensemble").count == 1, "the tool and the method share a call")
        }
    }

    @Test("compare_models: each day's ranges and the furthest model, the missing ones named; a refusal is a tool error")
    func compareModels() async throws {
        let network = ConfidenceFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(ConfidenceFixture.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await OfficialMCPTests.initialize(service)
            var arguments = ConfidenceFixture.berlin
            arguments["days"] = 2
            let result = try await OfficialMCPTests.tool(service, "compare_models", .object(arguments))
            let text = try #require(OfficialMCPTests.texts(result).first)
            // Directly: day 1's highs are 8, 8.5, 12 and 7.5 °C (GEM's day 2 is missing), its lows 1, 1.5, 5, 0.5.
            #expect(
                text.hasPrefix(
                    "52.52° N, 13.41° E, 5 models: today highs 8–12 °C, lows 1–5 °C, icon_seamless furthest from the others; "
                        + "tomorrow highs 9–13 °C, lows 1–5 °C, icon_seamless furthest from the others."),
                "\(text)")
            #expect(text.hasSuffix(" Missing at this place: ukmo_seamless."))
            #expect(result["structuredContent"]?["missingModels"] == ["ukmo_seamless"])
            arguments["models"] = ["best_match", "gfs_seamless"]
            let refused = try await service.call(
                "tools/call", ["name": "compare_models", "arguments": .object(arguments)])
            let message =
                refused["result"]?["content"]?.arrayValue?.first?["text"]?.stringValue
                ?? refused["error"]?["message"]?.stringValue
            #expect(message?.contains("best_match") == true, "\(refused)")
            #expect(ConfidenceFixture.calls(network, "models=").count == 1, "the refusal calls nothing")
        }
    }

    @Test("get_forecast_accuracy: the sentence first, and how much history there is; the answer as structuredContent")
    func accuracy() async throws {
        let network = ConfidenceFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(ConfidenceFixture.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await OfficialMCPTests.initialize(service)
            let result = try await OfficialMCPTests.tool(
                service, "get_forecast_accuracy", .object(ConfidenceFixture.berlin))
            let text = try #require(OfficialMCPTests.texts(result).first)
            let structured = try #require(result["structuredContent"])
            let sentence = try #require(structured["sentence"]?.stringValue)
            #expect(sentence.hasPrefix("No forecast weatherd fetched here"), "\(sentence)")
            #expect(text.hasPrefix("52.52° N, 13.41° E: \(sentence)"), "\(text)")
            #expect(structured["providers"] == [])
            #expect(network.requests.allSatisfy { !$0.contains("/v1/archive") }, "nothing to verify, nothing fetched")
        }
    }
}
