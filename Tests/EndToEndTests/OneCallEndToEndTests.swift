import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: OpenWeatherMap One Call 3.0 over HTTP on 127.0.0.1")
struct OneCallEndToEndTests {
    /// The recorded One Call body (metric) moved by whole days so that its observation falls within the day
    /// before `now`: its hours then run from before now to at least a day ahead, and none of its days but the
    /// first can be past, whatever the time of day the test runs at. Local times stay as recorded.
    static func body(movedTo now: Date) throws -> (bytes: [UInt8], body: JSONValue) {
        let recorded = try JSONValue.parse(try ProviderEndToEndTests.fixture("owm-onecall3-new-york-no-alerts.json"))
        let observed = try #require(recorded["current"]?["dt"]?.intValue)
        let days = (Int64(now.timeIntervalSince1970) - observed) / 86_400
        let moved = ProviderEndToEndTests.rewritingMembers(of: recorded) { key, member in
            guard ["dt", "sunrise", "sunset", "moonrise", "moonset"].contains(key), let seconds = member.intValue
            else { return nil }
            return .int(seconds + days * 86_400)
        }
        return (moved.jsonBytes, moved)
    }

    @Test(
        "--owm-api onecall3: current, hourly and daily from /data/3.0/onecall, one audited call each, no key in the log"
    )
    func oneCall() async throws {
        let key = "k3y-SECRET-onecall-0123456789"
        let (bytes, body) = try Self.body(movedTo: Date())
        let server = try LocalHTTPServer()
        server.route("/data/3.0/onecall", .init(body: bytes))
        let directory = TemporaryDataDirectory()
        let weatherd = try RunningWeatherd(
            arguments: [
                "--standalone", "--data-dir", directory.path, "--log-level", "debug", "--owm-base-url",
                server.baseURL, "--owm-api", "onecall3",
            ] + quietTimers,
            environment: ["OWM_API_KEY": key])
        let place: [String: JSONValue] = ["lat": 40.78, "lon": -73.97]

        let current = try #require(try await weatherd.call("weather/current", .object(place))["result"])
        #expect(current["provider"] == "openweathermap")
        #expect(current["source"] == "network")
        #expect(current["location"]?["timezone"] == "America/New_York")
        #expect(current["location"]?["utcOffsetSeconds"] == -18_000)
        let now = try #require(current["current"])
        #expect(now["temperature"] == -0.27)
        #expect(now["dewPoint"] == -7.54)
        #expect(now["uvIndex"] == 0)
        #expect(now["cloudCover"] == 75)
        #expect(now["tempMin"] == -11.86)
        #expect(now["tempMax"] == -0.27)
        #expect(now["windGust"] == nil, "One Call's current has none here: absent, not 0")
        #expect(now["precipitation"] == nil)
        #expect(now["condition"]?["code"] == 803)

        var hourlyParams = place
        hourlyParams["type"] = "hourly"
        let hourly = try #require(try await weatherd.call("weather/forecast", .object(hourlyParams))["result"])
        #expect(hourly["type"] == "hourly")
        let hours = try #require(hourly["entries"]?.arrayValue)
        #expect((23...48).contains(hours.count), "the hours not past of the 48, within the next 48 hours")
        #expect(hours.allSatisfy { $0["dewPoint"] != nil && $0["uvIndex"] != nil && $0["pop"] != nil })
        let recordedHours = try #require(body["hourly"]?.arrayValue)
        let lastHour = try #require(recordedHours.last?["dt"]?.intValue)
        #expect(hours.last?["time"] == .string(Timestamp(milliseconds: lastHour * 1000).description))

        var dailyParams = place
        dailyParams["type"] = "daily"
        let daily = try #require(try await weatherd.call("weather/forecast", .object(dailyParams))["result"])
        #expect(daily["source"] == "cache", "the forecast fetched for the hours")
        let days = try #require(daily["daily"]?.arrayValue)
        #expect((7...8).contains(days.count), "One Call's 8 days, from today on")
        let recordedDays = try #require(body["daily"]?.arrayValue)
        for day in days {
            let date = try #require(day["date"]?.stringValue)
            let recorded = try #require(
                recordedDays.first {
                    LocalDate.string(
                        Timestamp(milliseconds: ($0["dt"]?.intValue ?? 0) * 1000), zone: .fixed(-18_000)) == date
                })
            #expect(day["min"] == recorded["temp"]?["min"], "\(date)")
            #expect(day["max"] == recorded["temp"]?["max"], "\(date)")
        }

        var twiceParams = place
        twiceParams["type"] = "twiceDaily"
        let twice = try #require(try await weatherd.call("weather/forecast", .object(twiceParams))["result"])
        let halves = try #require(twice["entries"]?.arrayValue)
        #expect(halves.count >= 2, "a day or night ahead at least, from 48 hours")
        var threeParams = place
        threeParams["type"] = "threeHourly"
        let three = try #require(try await weatherd.call("weather/forecast", .object(threeParams))["result"])
        #expect(!(try #require(three["entries"]?.arrayValue)).isEmpty)

        server.route(
            "/data/3.0/onecall", .init(status: 401, body: try ProviderEndToEndTests.fixture("owm-error-401.json")))
        let refused = try await weatherd.call("weather/current", ["lat": 1, "lon": 1])
        #expect(refused["error"]?["data"]?["kind"] == "unauthorized")
        server.route("/data/3.0/onecall", .init(body: Array("<html>502</html>".utf8)))
        let garbage = try await weatherd.call("weather/forecast", ["lat": 2, "lon": 2])
        #expect(garbage["error"]?["data"]?["kind"] == "bad_upstream_response")
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)

        let calls = server.requests
        #expect(calls.count == 4, "current, the forecast, the refused and the garbled call: \(calls)")
        #expect(calls.allSatisfy { $0.contains("/data/3.0/onecall?") && $0.contains("exclude=minutely,alerts") })
        #expect(calls.allSatisfy { $0.contains("appid=") }, "the provider does get the key")
        let audited = try ProviderEndToEndTests.upstreamEvents(directory)
        #expect(audited.count == calls.count, "one audit event per upstream call")
        for event in audited {
            let url = try #require(event["data"]?["url"]?.stringValue)
            #expect(url.hasPrefix(server.baseURL + "/data/3.0/onecall?lat="), "\(url)")
            #expect(url.hasSuffix("&units=metric&exclude=minutely,alerts"), "\(url)")
            #expect(event["data"]?["provider"] == "openweathermap")
        }
        #expect(
            audited.map { $0["type"] } == [
                "weather.fetched", "weather.fetched", "weather.fetch_failed", "weather.fetch_failed",
            ])
        let log = String(decoding: directory.logBytes(), as: UTF8.self)
        let stdout = weatherd.output.lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        #expect(!log.contains(key))
        #expect(!log.contains("appid"))
        #expect(!stdout.contains(key))
        #expect(!weatherd.standardError.contains(key))
        try Repository.checkLog(directory.path)
    }
}
