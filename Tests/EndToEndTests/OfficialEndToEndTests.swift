import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: official warnings and air quality from recorded bodies on 127.0.0.1")
struct OfficialEndToEndTests {
    /// A recorded body whose warnings end far ahead, so that they are in force whenever the test runs.
    static func inForce(_ name: String) throws -> [UInt8] {
        let recorded = try JSONValue.parse(try ProviderEndToEndTests.fixture(name))
        return ProviderEndToEndTests.rewritingMembers(of: recorded) { key, member in
            switch key {
            case "expires": return "2099-01-01T00:00:00+00:00"
            case "ends" where !member.isNull: return "2099-01-02T00:00:00+00:00"
            default: return nil
            }
        }.jsonBytes
    }

    /// The audit events of upstream calls in a data dir's log.
    static let upstreamTypes: Set<String> = [
        "weather.fetched", "weather.fetch_failed", "geocode.fetched", "geocode.failed", "warnings.fetched",
        "air_quality.fetched", "point.fetched", "warnings.listed",
    ]

    @Test(
        "warnings from NWS (with the User-Agent), MeteoAlarm and the FOSS Public Alert Server, air quality, official alerts after a refresh, MCP; every call audited"
    )
    func session() async throws {
        let server = try LocalHTTPServer()
        // The answers say how long they hold (as NWS's do), so the refresh below is served from the cache however
        // long a loaded machine takes to get there.
        let anHour = ["Cache-Control": "max-age=3600"]
        server.route(
            "/alerts/active", .init(headers: anHour, body: try Self.inForce("nws-alerts-point-phoenix-az.json")))
        server.route(
            "/api/v1/warnings/feeds-bosnia-herzegovina",
            .init(headers: anHour, body: try Self.inForce("meteoalarm-feed-updates.json")))
        server.route(
            "/v1/air-quality", .init(body: try ProviderEndToEndTests.fixture("openmeteo-airquality-vienna-pollen.json"))
        )
        server.route("/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 12)))
        server.route("/v1/forecast", query: "hourly=", .init(body: OpenMeteoBodies.forecast()))
        // The FOSS Public Alert Server around Tokyo, its document behind a permanent redirect to the stored file,
        // as the server answers `/alert/{id}`.
        CAPSamples.serveTokyo(on: server, redirect: true)
        let directory = TemporaryDataDirectory()
        let weatherd = try RunningWeatherd(
            arguments: [
                "--standalone", "--data-dir", directory.path, "--log-level", "warning", "--open-meteo-base-url",
                server.baseURL, "--open-meteo-geocoding-base-url", server.baseURL, "--open-meteo-air-quality-base-url",
                server.baseURL, "--meteoalarm-base-url", server.baseURL + "/", "--nws-contact", "e2e@weatherd.test",
            ] + quietTimers, environment: ["NWS_BASE_URL": server.baseURL, "FPAS_BASE_URL": server.baseURL])

        _ = try await weatherd.call(
            "favorites/add", ["name": "Phoenix", "lat": 33.45, "lon": -112.07, "country": "US"])
        _ = try await weatherd.call("favorites/add", ["name": "Sarajevo", "lat": 43.86, "lon": 18.41, "country": "BA"])
        let phoenix = try #require(try await weatherd.call("warnings/list", ["favorite": "Phoenix"])["result"])
        #expect(phoenix["warnings"]?.arrayValue?.count == 2)
        #expect(phoenix["attribution"] == "National Weather Service")
        let nwsIndex = try #require(server.requests.firstIndex { $0.hasPrefix("/alerts/active?point=") })
        #expect(server.requestHeaders[nwsIndex]["user-agent"] == "weatherd/0.1.0 (e2e@weatherd.test)")
        let sarajevo = try #require(try await weatherd.call("warnings/list", ["favorite": "Sarajevo"])["result"])
        #expect(sarajevo["warnings"]?.arrayValue?.map { $0["event"] } == ["Wind Orange Warning"])
        #expect(sarajevo["attribution"] == "EUMETNET – MeteoAlarm")
        let tokyo = try #require(try await weatherd.call("warnings/list", ["lat": 35.68, "lon": 139.69])["result"])
        #expect(server.requests.contains("/points/35.68,139.69"), "NWS asked first, and its 404 hands the point on")
        #expect(tokyo["source"] == "fpas")
        #expect(tokyo["warnings"]?.arrayValue?.map { $0["sender"] } == ["Japan Meteorological Agency"])
        #expect(tokyo["warnings"]?.arrayValue?.first?["matchedBy"] == "polygon")
        #expect(server.requests.contains("/media/tokyo.xml"), "the document read through the server's redirect")
        let air = try #require(try await weatherd.call("weather/airQuality", ["favorite": "Sarajevo"])["result"])
        #expect(air["current"]?["europeanAqi"] == 38.0)
        #expect(air["provider"] == "open-meteo")

        #expect(try await weatherd.call("alerts/subscribe")["result"] == ["subscribed": true])
        _ = try await weatherd.call("refresh", ["scope": "favorites"])
        // The alerts may all be pushed before the refresh's answer is read: look at what came before waiting.
        let raised = {
            try weatherd.output.messages().filter {
                $0["method"] == "alerts/raised" && $0["params"]?["rule"] == "official"
            }
        }
        var official = try raised()
        while official.count < 3, await weatherd.output.wait(for: weatherd.output.lines.count + 1) {
            official = try raised()
        }
        #expect(official.count == 3, "Phoenix's two warnings and Sarajevo's one")
        #expect(official.allSatisfy { $0["params"]?["origin"] == "official" })

        _ = try await weatherd.call(
            "initialize",
            ["protocolVersion": "2025-06-18", "capabilities": [:], "clientInfo": ["name": "e2e", "version": "1"]])
        let tool = try #require(
            try await weatherd.call("tools/call", ["name": "get_warnings", "arguments": ["favorite": "Sarajevo"]])[
                "result"])
        try MCPSchemas.expectValid(tool, "CallToolResult", version: "2025-06-18")
        #expect(
            tool["content"]?.arrayValue?.first?["text"]?.stringValue?.hasPrefix("Sarajevo: 1 official warning") == true)
        #expect(tool["structuredContent"] == sarajevo)

        let verify = try await weatherd.call("state/verify")
        #expect(verify["result"]?["ok"] == true)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        let audited = try logEvents(directory).filter { Self.upstreamTypes.contains($0["type"]?.stringValue ?? "") }
        // The redirect's second request is URLSession's, within the one call the document's event audits.
        #expect(audited.count == server.requests.count - 1, "one audit event per upstream call")
        #expect(
            audited.filter { $0["type"] == "warnings.fetched" }.count == 3,
            "NWS's, MeteoAlarm's and the one CAP document: the refresh's check used the cache")
        #expect(audited.filter { $0["type"] == "air_quality.fetched" }.count == 1)
        try Repository.checkLog(directory.path)
    }

    @Test("with OpenWeatherMap: its air pollution API, now and the hours as two audited calls, no key in the log")
    func openWeatherMapAirQuality() async throws {
        let key = "k3y-AIR-0123456789abcdef"
        let server = try LocalHTTPServer()
        let body = try ProviderEndToEndTests.fixture("owm-airpollution-delhi.json")
        server.route("/data/2.5/air_pollution", .init(body: body))
        server.route("/data/2.5/air_pollution/forecast", .init(body: body))
        let directory = TemporaryDataDirectory()
        let weatherd = try RunningWeatherd(
            arguments: [
                "--standalone", "--data-dir", directory.path, "--log-level", "warning", "--owm-base-url",
                server.baseURL,
            ] + quietTimers,
            environment: ["OWM_API_KEY": key])
        let air = try #require(try await weatherd.call("weather/airQuality", ["lat": 28.61, "lon": 77.21])["result"])
        #expect(air["provider"] == "openweathermap")
        #expect(air["current"]?["owmAqi"] != nil)
        #expect(air["current"]?["europeanAqi"] == nil, "OpenWeatherMap sends no European index; none is invented")
        let again = try #require(try await weatherd.call("weather/airQuality", ["lat": 28.61, "lon": 77.21])["result"])
        #expect(again["source"] == "cache")
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        #expect(
            server.requests.map { $0.split(separator: "?").first ?? "" } == [
                "/data/2.5/air_pollution", "/data/2.5/air_pollution/forecast",
            ])
        #expect(server.requests.allSatisfy { $0.contains("appid=") })
        let fetched = try logEvents(directory).filter { $0["type"] == "air_quality.fetched" }
        #expect(fetched.map { $0["data"]?["kind"] } == ["air_quality", "air_quality_forecast"])
        #expect(!String(decoding: directory.logBytes(), as: UTF8.self).contains(key))
        #expect(!String(decoding: directory.logBytes(), as: UTF8.self).contains("appid="))
        try Repository.checkLog(directory.path)
    }

    @Test("with OpenWeatherMap: when the hours' call fails, the values now are answered and the hours marked missing")
    func openWeatherMapAirQualityWithoutHours() async throws {
        let server = try LocalHTTPServer()
        let body = try ProviderEndToEndTests.fixture("owm-airpollution-delhi.json")
        server.route("/data/2.5/air_pollution", .init(body: body))
        server.route(
            "/data/2.5/air_pollution/forecast", .init(status: 404, body: Array(#"{"cod":"404","message":"x"}"#.utf8)))
        let directory = TemporaryDataDirectory()
        let weatherd = try RunningWeatherd(
            arguments: [
                "--standalone", "--data-dir", directory.path, "--log-level", "warning", "--owm-base-url",
                server.baseURL,
            ] + quietTimers,
            environment: ["OWM_API_KEY": "k"])
        let response = try await weatherd.call("weather/airQuality", ["lat": 28.61, "lon": 77.21])
        let air = try #require(response["result"], "\(response)")
        #expect(air["current"]?["owmAqi"] != nil, "the values now are answered")
        #expect(air["hourly"] == [])
        #expect(air["hourlyMissing"]?["kind"] == "not_found")
        let message = try #require(air["hourlyMissing"]?["message"]?.stringValue)
        #expect(!message.contains("no such place"), "the place was found: \(message)")
        #expect(message.contains("no forecast hours"), "\(message)")
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        let types = try logEvents(directory).compactMap { $0["type"]?.stringValue }
        #expect(types.filter { $0 == "air_quality.fetched" }.count == 1)
        #expect(types.filter { $0 == "weather.fetch_failed" }.count == 1, "the hours' call is audited as failed")
        try Repository.checkLog(directory.path)
    }
}
