import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("weather/forecast types, fields and the past, in process")
struct ForecastTypeTests {
    static let berlin: JSONValue = ["lat": 52.52, "lon": 13.41]
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A network answering Open-Meteo's forecast with the synthetic body (hours from 2026-11-22T12:00Z).
    static func network() -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 3)))
        return network
    }

    static func forecast(
        _ service: InProcessWeatherd, _ extra: [String: JSONValue] = [:]
    ) async throws -> JSONValue {
        try await service.result("weather/forecast", .object(Self.berlin.objectValue!.merging(extra) { $1 }))
    }

    static func sun(_ date: String) throws -> SolarDay {
        try #require(SolarDay.compute(lat: 52.52, lon: 13.41, localDate: date, zone: .fixed(3600)))
    }

    @Test("threeHourly, the default: 3-hourly steps with every field, each standing for its three hours")
    func threeHourly() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: FetchTests.quick) { service in
            let answer = try await Self.forecast(service)
            #expect(answer["type"] == "threeHourly")
            #expect(answer["entries"] == (try await Self.forecast(service, ["type": "threeHourly"]))["entries"])
            let entries = try #require(answer["entries"]?.arrayValue)
            #expect(entries.count == 40)
            let first = try #require(entries.first)
            // 15:00 local (+01:00), the first multiple of 3 h after the body's first hour, 13:00.
            #expect(first["time"] == "2026-11-22T14:00:00.000Z")
            #expect(first["temperature"] == 1.0)
            #expect(first["feelsLike"] == 0.0)
            #expect(first["dewPoint"] == -3.0)
            #expect(first["humidity"] == 70.0)
            #expect(first["pressure"] == 1010.0)
            #expect(first["cloudCover"] == 75.0)
            #expect(first["visibility"] == 24.0, "24 000 m in km, the metric system's unit")
            #expect(first["windSpeed"] == 3.0)
            #expect(first["windGust"] == 7.5)
            #expect(first["windDirection"] == 180.0)
            #expect(first["uvIndex"] == 1.5)
            #expect(first["precipitation"] == 0.6, "three hours of 0.2 mm")
            #expect(first["pop"] == 0.4)
            #expect(first["isDay"] == true)
            #expect(first["condition"]?["ha"] == "rainy")
            #expect(first["condition"]?["theme"] == "rainy")
            let evening = entries[2]
            #expect(evening["isDay"] == false, "21:00 local")
            let units = try #require(answer["units"])
            #expect(units["precipitation"] == "mm")
            #expect(units["cloudCover"] == "%")
            #expect(units["visibility"] == "km")
        }
    }

    @Test("hourly: the next 48 hours, hour by hour")
    func hourly() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: FetchTests.quick) { service in
            let answer = try await Self.forecast(service, ["type": "hourly"])
            #expect(answer["type"] == "hourly")
            let entries = try #require(answer["entries"]?.arrayValue)
            #expect(entries.count == 48)
            #expect(entries.first?["time"] == "2026-11-22T12:00:00.000Z", "the hour running now")
            #expect(entries.last?["time"] == "2026-11-24T11:00:00.000Z")
            #expect(entries.first?["precipitation"] == 0.2)
            #expect(entries.first?["temperature"] == 0.0)
            #expect(entries[1]["temperature"] == 0.5)
            #expect(entries.map { $0["isDay"] }.filter { $0 == true }.count == 24, "06:00–18:00 local, twice")
            let fahrenheit = try await Self.forecast(service, ["type": "hourly", "units": "imperial"])
            #expect(fahrenheit["entries"]?.arrayValue?.first?["dewPoint"] == 24.8, "-4 °C")
            #expect(fahrenheit["entries"]?.arrayValue?.first?["windGust"] == 16.78, "7.5 m/s in mph")
        }
    }

    @Test(
        "hourly: a forecast fetched late in the evening, served stale 11 h later, still has the next 48 hours (hours from the fetch on)"
    )
    func hourlyFromTheFetch() async throws {
        // As Open-Meteo answers: 16 days of hours from local midnight (+01:00) of 2026-11-22.
        let midnight = Timestamp(milliseconds: 1_795_302_000_000)
        let network = InMemoryTransport()
        network.route(
            "/v1/forecast", query: "hourly=",
            InMemoryTransport.ok(OpenMeteoBodies.forecast(start: midnight, hours: 384)),
            .failure(TransportError(.offline, "connection refused")))
        // 23:00 local: 23 of the day's hours have passed.
        let clock = ManualClock(start: Timestamp(milliseconds: midnight.milliseconds + 23 * 3_600_000))
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: FetchTests.quick) { service in
            let fresh = try #require(try await Self.forecast(service, ["type": "hourly"])["entries"]?.arrayValue)
            #expect(fresh.count == 48)
            // 10:00 the next morning: the provider cannot be reached, the forecast is served stale.
            clock.advance(milliseconds: 11 * 3_600_000)
            let answer = try await Self.forecast(service, ["type": "hourly"])
            #expect(answer["stale"] == true)
            let hours = try #require(answer["entries"]?.arrayValue)
            #expect(hours.count == 48, "the next 48 hours, not only to the end of tomorrow")
            #expect(hours.first?["time"] == .string(clock.timestamp().description), "the hour running now")
        }
    }

    @Test("daily: no steps, up to 16 days of the provider's own figures with the Sun and Moon")
    func daily() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: FetchTests.quick) { service in
            let answer = try await Self.forecast(service, ["type": "daily"])
            #expect(answer["type"] == "daily")
            #expect(answer["entries"] == nil)
            let days = try #require(answer["daily"]?.arrayValue)
            #expect(days.count == 16)
            let today = try #require(days.first)
            #expect(today["date"] == "2026-11-22")
            #expect(today["min"] == -10.25, "the provider's low, not the hours' 0 °C")
            #expect(today["max"] == 30.75, "the provider's high, not the hours' 5.5 °C")
            #expect(today["precipitation"] == 4.8)
            #expect(today["pop"] == 0.65)
            #expect(today["uvIndex"] == 2.5)
            #expect(today["condition"]?["ha"] == "rainy")
            #expect(today["sunrise"] == .string(try #require(try Self.sun("2026-11-22").sunrise).description))
            #expect(today["moonPhase"] != nil)
            #expect(days.last?["date"] == "2026-12-07")
            let three = try await Self.forecast(service, ["type": "daily", "days": 3])
            #expect(three["daily"]?.arrayValue?.count == 3)
            let refused = try await service.call("weather/forecast", ["lat": 52.52, "lon": 13.41, "days": 17])
            #expect(refused["error"]?["code"] == -32602)
            let unknown = try await service.call("weather/forecast", ["lat": 52.52, "lon": 13.41, "type": "weekly"])
            #expect(unknown["error"]?["code"] == -32602)
            #expect(unknown["error"]?["message"]?.stringValue?.contains("twiceDaily") == true)
        }
    }

    @Test("twiceDaily: day and night halves split by the place's sunrise and sunset")
    func twiceDaily() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: FetchTests.quick) { service in
            let answer = try await Self.forecast(service, ["type": "twiceDaily"])
            #expect(answer["type"] == "twiceDaily")
            let halves = try #require(answer["entries"]?.arrayValue)
            let first = try #require(halves.first)
            // 13:00 local: the day that began at sunrise, seen from the first hour on.
            #expect(first["date"] == "2026-11-22")
            #expect(first["isDay"] == true)
            #expect(first["time"] == .string(try #require(try Self.sun("2026-11-22").sunrise).description))
            #expect(first["end"] == .string(try #require(try Self.sun("2026-11-22").sunset).description))
            // The body's hours begin at 12:00Z at 0 °C and rise 0.5 °C an hour, 0.2 mm each.
            let sunset = try #require(try Self.sun("2026-11-22").sunset)
            let hoursBeforeSunset = (sunset.milliseconds - 1_795_348_800_000 + 3_599_999) / 3_600_000
            #expect(first["min"] == 0.0)
            #expect(first["max"] == .double(Double(hoursBeforeSunset - 1) * 0.5))
            #expect(first["precipitation"] == .double(Rounding.round(Double(hoursBeforeSunset) * 0.2, decimals: 2)))
            #expect(first["condition"]?["ha"] == "rainy")
            let night = halves[1]
            #expect(night["isDay"] == false)
            #expect(night["date"] == "2026-11-22")
            #expect(night["end"] == .string(try #require(try Self.sun("2026-11-23").sunrise).description))
            for (earlier, later) in zip(halves, halves.dropFirst()) {
                #expect(earlier["end"] == later["time"])
                #expect(earlier["isDay"] != later["isDay"])
            }
            #expect(halves.count >= 9, "the hours, then the 3-hourly steps, cover five days")
        }
    }

    @Test("the past: a step, a half or a day is left out once it ended, in every type; days count from today")
    func pastRule() async throws {
        let clock = ManualClock()
        try await InProcessWeatherd.with(clock: clock, network: Self.network(), fetch: FetchTests.quick) { service in
            _ = try await Self.forecast(service)
            // 2026-11-23T18:00Z: 19:00 local on the 23rd, after sunset; the hour from 17:00Z ended just now.
            clock.advance(milliseconds: 30 * 3_600_000)
            let daily = try #require(try await Self.forecast(service, ["type": "daily"])["daily"]?.arrayValue)
            #expect(daily.first?["date"] == "2026-11-23", "the 22nd ended at its local midnight")
            #expect(daily.count == 15)
            let steps = try #require(try await Self.forecast(service)["entries"]?.arrayValue)
            #expect(steps.first?["time"] == "2026-11-23T17:00:00.000Z", "18:00–21:00 local is running")
            let hours = try #require(try await Self.forecast(service, ["type": "hourly"])["entries"]?.arrayValue)
            #expect(hours.first?["time"] == "2026-11-23T18:00:00.000Z", "the hour that ended at 18:00Z is past")
            let halves = try #require(try await Self.forecast(service, ["type": "twiceDaily"])["entries"]?.arrayValue)
            #expect(halves.first?["date"] == "2026-11-23")
            #expect(halves.first?["isDay"] == false, "the day half ended at sunset")

            let today = try await Self.forecast(service, ["days": 1])
            #expect(today["daily"]?.arrayValue?.map { $0["date"] } == ["2026-11-23"])
            #expect(
                today["entries"]?.arrayValue?.map { $0["time"] } == [
                    "2026-11-23T17:00:00.000Z", "2026-11-23T20:00:00.000Z",
                ],
                "the steps of the local day kept, by local date")
            let todayHours = try await Self.forecast(service, ["days": 1, "type": "hourly"])
            #expect(todayHours["entries"]?.arrayValue?.count == 5, "19:00 to 23:00 local")
        }
    }

    /// The recorded Forlì bodies, served as Open-Meteo answers.
    static func forliNetwork() throws -> InMemoryTransport {
        let fixtures = root.appendingPathComponent("Tests/ProvidersTests/Fixtures")
        let withHours = Array(
            try Data(contentsOf: fixtures.appendingPathComponent("openmeteo-forecast-forli-hourly-current-daily.json")))
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(withHours))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(withHours))
        return network
    }

    @Test("a recorded body: HA names by night, the days' own highs, and what the provider lacks is absent")
    func recordedBody() async throws {
        // 00:30 in Forlì (+02:00) on 11 October 2026, a quarter of an hour after the body's current time.
        let clock = ManualClock(start: try #require(Timestamp(rfc3339: "2026-10-10T22:30:00Z")))
        try await InProcessWeatherd.with(clock: clock, network: try Self.forliNetwork(), fetch: FetchTests.quick) {
            service in
            let place: JSONValue = ["lat": 44.22, "lon": 12.04]
            let current = try #require(try await service.result("weather/current", place)["current"])
            #expect(current["dewPoint"] == 12.9)
            #expect(current["isDay"] == false)
            #expect(current["condition"]?["ha"] == "cloudy")
            #expect(current["precipitation"] == 0.0, "a real 0 mm stays")
            for missing in ["pressure", "cloudCover", "visibility", "uvIndex", "pop"] {
                #expect(current[missing] == nil, "\(missing) is absent, not 0")
            }
            var params = try #require(place.objectValue)
            params["type"] = "hourly"
            let hourly = try await service.result("weather/forecast", .object(params))
            let first = try #require(hourly["entries"]?.arrayValue?.first)
            #expect(first["time"] == "2026-10-10T22:00:00.000Z")
            #expect(first["condition"]?["ha"] == "clear-night", "mainly clear at midnight")
            #expect(first["pressure"] == nil)
            #expect(first["cloudCover"] == 5.0)
            let days = try #require(hourly["daily"]?.arrayValue)
            #expect(days.map { $0["max"] } == [23.3, 21.6, 20.3, 20.9, 22.5, 22.0, 22.8])
            #expect(days.map { $0["min"] } == [12.2, 14.7, 10.7, 8.7, 9.2, 10.7, 11.0])
            #expect(days[0]["condition"]?["ha"] == "fog")
            #expect(days[1]["pop"] == 0.36)
        }
    }

    @Test("hourly steps and the days' figures survive a restart: from the snapshot and from a replay of the log")
    func restart() async throws {
        let directory = TemporaryDataDirectory()
        let clock = ManualClock()
        let first = try InProcessWeatherd(
            directory: directory, clock: clock, network: Self.network(), fetch: FetchTests.quick)
        let hourly: JSONValue = ["lat": 52.52, "lon": 13.41, "type": "hourly"]
        let before = try await first.result("weather/forecast", hourly)
        await first.stop()
        for fromSnapshot in [true, false] {
            if !fromSnapshot { try FileManager.default.removeItem(atPath: directory.path + "/snapshots") }
            let again = try InProcessWeatherd(
                directory: directory, clock: clock, network: InMemoryTransport(), fetch: FetchTests.quick)
            let status = try await again.result("service/status")
            #expect((status["startup"]?["snapshotSeq"] != .null) == fromSnapshot)
            let after = try await again.result("weather/forecast", ["lat": 52.52, "lon": 13.41, "type": "hourly"])
            #expect(after["entries"] == before["entries"])
            #expect(after["daily"] == before["daily"])
            #expect(after["source"] == "cache")
            #expect(try await again.result("state/verify")["ok"] == true)
            await again.stop()
        }
    }
}
