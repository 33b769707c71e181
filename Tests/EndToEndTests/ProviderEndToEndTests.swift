import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: providers over HTTP on 127.0.0.1")
struct ProviderEndToEndTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Repository.root.appendingPathComponent("Tests/ProvidersTests/Fixtures/\(name)")))
    }

    /// An OWM fixture (captured with `units=standard`) as the API answers `units=metric`: Kelvin to °C.
    static func metric(_ name: String) throws -> [UInt8] {
        rewritingMembers(of: try JSONValue.parse(try fixture(name))) { key, member in
            guard ["temp", "feels_like", "temp_min", "temp_max"].contains(key), let kelvin = member.doubleValue else {
                return nil
            }
            return .double(kelvin - 273.15)
        }.jsonBytes
    }

    /// `value` with every object member, at any depth, replaced by what `replace` gives for its key and value,
    /// or rewritten in turn where `replace` gives nil.
    static func rewritingMembers(of value: JSONValue, _ replace: (String, JSONValue) -> JSONValue?) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.reduce(into: [:]) { object, member in
                    object[member.key] =
                        replace(member.key, member.value) ?? rewritingMembers(of: member.value, replace)
                })
        case .array(let items): return .array(items.map { rewritingMembers(of: $0, replace) })
        default: return value
        }
    }

    /// An OWM fixture in metric units (`metric(_:)`) moved by whole days so that its first time (the
    /// observation, or the forecast's first step) falls within the day before `now`: local times, dates'
    /// weekdays aside, stay as recorded, and a forecast has its steps ahead of `now`.
    static func metric(_ name: String, movedTo now: Date) throws -> [UInt8] {
        let recorded = try JSONValue.parse(try metric(name))
        let first = recorded["dt"]?.intValue ?? recorded["list"]?.arrayValue?.first?["dt"]?.intValue ?? 0
        let days = (Int64(now.timeIntervalSince1970) - first) / 86_400
        return rewritingMembers(of: recorded) { key, member in
            guard ["dt", "sunrise", "sunset"].contains(key), let seconds = member.intValue else { return nil }
            return .int(seconds + days * 86_400)
        }.jsonBytes
    }

    /// The fetch and geocode audit events of a data dir's log.
    static func upstreamEvents(_ directory: TemporaryDataDirectory) throws -> [JSONValue] {
        try logEvents(directory).filter {
            ["weather.fetched", "weather.fetch_failed", "geocode.fetched", "geocode.failed"].contains(
                $0["type"]?.stringValue ?? "")
        }
    }

    @Test(
        "search, add a favorite, weather and forecast, then offline: stale answers; one audit event per upstream request"
    )
    func openMeteoSession() async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/v1/search", .init(body: OpenMeteoBodies.geocode([("Berlin", "DE", "State of Berlin", 52.52, 13.41)])))
        server.route("/v1/forecast", .init(body: OpenMeteoBodies.current(temperature: 4.5)))
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(
            directory,
            ["--open-meteo-base-url", server.baseURL, "--open-meteo-geocoding-base-url", server.baseURL + "/"])
        let search = try await weatherd.call("cities/search", ["query": "Berlin"])
        #expect(search["result"]?["candidates"]?.arrayValue?.first?["country"] == "DE")
        let favorite = try await weatherd.call("favorites/add", ["city": "Berlin"])
        let id = try #require(favorite["result"]?["id"]?.stringValue)
        let current = try await weatherd.call("weather/current", ["favoriteId": .string(id)])
        #expect(current["result"]?["current"]?["temperature"] == 4.5)
        #expect(current["result"]?["source"] == "network")
        let again = try await weatherd.call("weather/current", ["city": "Berlin"])
        #expect(again["result"]?["source"] == "cache")

        // Hours and days from this hour on, so that none of them is past.
        let thisHour = Timestamp(milliseconds: Int64(Date().timeIntervalSince1970) / 3600 * 3_600_000)
        server.route("/v1/forecast", query: "hourly=", .init(body: OpenMeteoBodies.forecast(start: thisHour)))
        let forecast = try await weatherd.call("weather/forecast", ["lat": 52.52, "lon": 13.41])
        #expect(forecast["result"]?["daily"]?.arrayValue?.count == 16, "Open-Meteo's 16 days")

        server.stop()
        let offline = try await weatherd.call("weather/current", ["lat": 52.52, "lon": 13.41, "maxAgeSeconds": 0])
        #expect(offline["result"]?["stale"] == true)
        #expect(offline["result"]?["source"] == "cache")
        let unknown = try await weatherd.call("weather/current", ["lat": 10, "lon": 10])
        #expect(unknown["error"]?["data"]?["kind"] == "offline")

        let status = try await weatherd.call("service/status")
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        let audited = try Self.upstreamEvents(directory)
        let offlineAttempts = audited.filter { $0["data"]?["error"] == "offline" }.count
        #expect(server.requests.count == audited.count - offlineAttempts, "every request the server saw is audited")
        #expect(offlineAttempts == 6, "two fetches, three attempts each")
        #expect(status["result"]?["upstreamCalls"]?["cacheHits"]?.intValue ?? 0 >= 2)
        try Repository.checkLog(directory.path)
    }

    @Test("OpenWeatherMap: the API key reaches the provider and nowhere else")
    func privacy() async throws {
        let key = "k3y-SECRET-0123456789abcdef"
        let server = try LocalHTTPServer()
        server.route("/data/2.5/weather", .init(body: try Self.metric("owm-current-london.json")))
        server.route("/data/2.5/forecast", .init(body: try Self.metric("owm-forecast-london.json")))
        server.route("/geo/1.0/direct", .init(body: try Self.fixture("owm-geo-direct-london.json")))
        let directory = TemporaryDataDirectory()
        let weatherd = try RunningWeatherd(
            arguments: [
                "--standalone", "--data-dir", directory.path, "--log-level", "debug", "--owm-base-url", server.baseURL,
            ] + quietTimers,
            environment: ["OWM_API_KEY": key])
        let current = try await weatherd.call("weather/current", ["city": "London"])
        #expect(current["result"]?["provider"] == "openweathermap")
        #expect(current["result"]?["current"]?["temperature"] == 15.3)
        _ = try await weatherd.call("weather/forecast", ["city": "London", "units": "imperial"])
        _ = try await weatherd.call("map/layers")
        server.route("/data/2.5/weather", .init(status: 401, body: try Self.fixture("owm-error-401.json")))
        let refused = try await weatherd.call("weather/current", ["lat": 1, "lon": 1])
        #expect(refused["error"]?["data"]?["kind"] == "unauthorized")
        let status = try await weatherd.call("service/status")
        #expect(status["result"]?["provider"] == "openweathermap")
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)

        #expect(server.requests.allSatisfy { $0.contains("appid=") }, "the provider does get the key")
        let log = String(decoding: directory.logBytes(), as: UTF8.self)
        let stdout = weatherd.output.lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        #expect(!log.contains(key))
        #expect(!log.contains("appid="))
        #expect(!stdout.contains(key))
        #expect(!weatherd.standardError.contains(key))
        #expect(try Self.upstreamEvents(directory).count == server.requests.count)
        try Repository.checkLog(directory.path)
    }
}
