import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherTesting

/// The `weather.fetched` v1 schema against payloads made from recorded bodies: the new members are valid,
/// the lines written before them still are, and so is the form compaction leaves.
@Suite("weather.fetched v1: the schema of the grown payload")
struct WeatherFetchedSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let schema: JSONSchema

    init() throws {
        schema = try JSONSchema(
            contentsOf: Self.root.appendingPathComponent("Events/schemas/weather.fetched.v1.json").path)
    }

    static let call = UpstreamCall(
        provider: "open-meteo", url: "https://api.open-meteo.com/v1/forecast?latitude=44.22&longitude=12.04",
        status: 200, latencyMs: 95, bytes: 61_204, attempt: 1, at: Timestamp(milliseconds: 1_791_670_500_000))
    static let forli = Place(name: "Forlì", country: "IT", state: nil, lat: 44.22, lon: 12.04)

    /// The payloads of the fetches weatherd makes from the recorded bodies of both providers.
    static func fetched() throws -> [(String, WeatherFetched)] {
        let openMeteo = OpenMeteoProvider()
        let owm = OpenWeatherMapProvider(apiKey: "k", requestUnits: .standard)
        var forecast = try openMeteo.decodeForecast(
            try Fixture.bytes("openmeteo-forecast-forli-hourly-current-daily"), place: forli)
        // As the fetch logs it: the hours from the one running at the call.
        forecast.hourly = ForecastReport.hoursKept(forecast.hourly, at: call.at)
        let current = try openMeteo.decodeCurrent(
            try Fixture.bytes("openmeteo-forecast-forli-hourly-current-daily"), place: forli)
        let daysOnly = try openMeteo.decodeForecast(
            try Fixture.bytes("openmeteo-forecast-forli-current-daily"), place: forli)
        let london = Place(name: nil, country: nil, state: nil, lat: 51.51, lon: -0.13)
        let owmForecast = try owm.decodeForecast(try Fixture.bytes("owm-forecast-london"), place: london)
        let owmCurrent = try owm.decodeCurrent(try Fixture.bytes("owm-current-london"), place: london)
        var owmCall = call
        owmCall.provider = "openweathermap"
        owmCall.url = "https://api.openweathermap.org/data/2.5/forecast?lat=51.51&lon=-0.13&units=standard"
        return [
            ("Open-Meteo forecast", WeatherFetched(key: forli.key, call: call, report: .forecast(forecast))),
            ("Open-Meteo current", WeatherFetched(key: forli.key, call: call, report: .current(current))),
            ("Open-Meteo days only", WeatherFetched(key: forli.key, call: call, report: .forecast(daysOnly))),
            ("OWM forecast", WeatherFetched(key: london.key, call: owmCall, report: .forecast(owmForecast))),
            ("OWM current", WeatherFetched(key: london.key, call: owmCall, report: .current(owmCurrent))),
        ]
    }

    @Test("the payloads of recorded bodies are valid, with every new member where the provider gave it")
    func newPayloads() throws {
        let all = try Self.fetched()
        for (name, fetched) in all {
            #expect(schema.validate(fetched.json) == [], "\(name)")
            #expect(try WeatherFetched(json: fetched.json) == fetched, "\(name) reads back as written")
        }
        let forecast = try #require(all.first?.1.json)
        let hours = try #require(forecast["hourly"]?.arrayValue)
        #expect(hours.count == 72)
        #expect(hours[0]["isDay"] == false)
        #expect(hours[0]["dewPoint"] == 13.1)
        #expect(hours[0]["pressure"] == nil, "absent, not 0")
        let days = try #require(forecast["daily"]?.arrayValue)
        #expect(days[1]["pop"] == 0.36)
        #expect(days[1]["uvIndex"] == 3.95)
        #expect(all[2].1.json["hourly"] == nil, "no hourly member without hours")
        #expect(all[3].1.json["hourly"] == nil)
    }

    @Test("a payload written before the new members is still valid, and reads back the same")
    func oldPayload() throws {
        let lines = try String(
            contentsOf: Self.root.appendingPathComponent("Events/golden/v1-weather.jsonl"), encoding: .utf8
        ).split(separator: "\n")
        let fetches = try lines.map { try JSONValue.parse(Array($0.utf8)) }.filter { $0["type"] == "weather.fetched" }
        #expect(fetches.count == 2)
        for line in fetches {
            let data = try #require(line["data"])
            #expect(schema.validate(data) == [])
            #expect(try WeatherFetched(json: data).json == data)
        }
    }

    @Test("the compacted form, with hourly among the removed members, is valid; a report beside it is not")
    func compacted() throws {
        let fetched = try #require(try Self.fetched().first?.1)
        var members = try #require(fetched.json.objectValue)
        let removed = WeatherFetched.payloadMembers.filter { members[$0] != nil }.sorted()
        #expect(removed == ["daily", "entries", "hourly"])
        for name in removed { members[name] = nil }
        members["compacted"] = [
            "bytes": 61_204, "members": .array(removed.map { .string($0) }),
            "sha256": .string(String(repeating: "ab", count: 32)),
        ]
        #expect(schema.validate(.object(members)) == [])
        var withHours = members
        withHours["hourly"] = fetched.json["hourly"]
        #expect(!schema.validate(.object(withHours)).isEmpty)
    }

    @Test(
        "the compacted form that keeps each day's summary is valid; a fuller day, days without reduced, or days on a current fetch are not"
    )
    func compactedWithDays() throws {
        let all = try Self.fetched()
        let forecast = try #require(all.first?.1.json.objectValue)
        let days = try #require(forecast["daily"]?.arrayValue)
        #expect(days.contains { $0["uvIndex"] != nil })
        let kept: Set<String> = ["date", "min", "max", "condition", "pop", "precipitation"]
        let reducedDays = JSONValue.array(
            days.map { .object(($0.objectValue ?? [:]).filter { kept.contains($0.key) }) })
        let sha256 = JSONValue.string(String(repeating: "ab", count: 32))
        var members = forecast
        members["entries"] = nil
        members["hourly"] = nil
        members["daily"] = reducedDays
        members["compacted"] = [
            "bytes": 61_204, "members": ["entries", "hourly"], "reduced": ["daily"], "sha256": sha256,
        ]
        #expect(schema.validate(.object(members)) == [])

        var fullDays = members
        fullDays["daily"] = .array(days)
        #expect(!schema.validate(.object(fullDays)).isEmpty)
        var unsaid = members
        unsaid["compacted"] = ["bytes": 61_204, "members": ["entries", "hourly"], "sha256": sha256]
        #expect(!schema.validate(.object(unsaid)).isEmpty, "days kept must be said in reduced")
        var saidOnly = members
        saidOnly["daily"] = nil
        #expect(!schema.validate(.object(saidOnly)).isEmpty, "reduced names days that are not there")

        var current = try #require(all[1].1.json.objectValue)
        #expect(current["kind"] == "current")
        current["current"] = nil
        current["daily"] = reducedDays
        current["compacted"] = ["bytes": 702, "members": ["current"], "reduced": ["daily"], "sha256": sha256]
        #expect(!schema.validate(.object(current)).isEmpty)
    }

    @Test(
        "the schema refuses what weatherd never writes",
        arguments: [
            ("hourly", "cloudCover", JSONValue.double(101)), ("hourly", "isDay", JSONValue.int(1)),
            ("hourly", "pop", JSONValue.double(8)), ("hourly", "colour", JSONValue.string("red")),
            ("daily", "uvIndex", JSONValue.double(-1)), ("daily", "precipitation", JSONValue.double(-0.1)),
        ])
    func refusals(member: String, key: String, value: JSONValue) throws {
        let fetched = try #require(try Self.fetched().first?.1)
        var data = try #require(fetched.json.objectValue)
        var items = try #require(data[member]?.arrayValue)
        var first = try #require(items.first?.objectValue)
        first[key] = value
        items[0] = .object(first)
        data[member] = .array(items)
        #expect(!schema.validate(.object(data)).isEmpty)
    }

    @Test("a current fetch may not carry hourly steps")
    func hourlyOnlyInForecasts() throws {
        let all = try Self.fetched()
        var current = try #require(all[1].1.json.objectValue)
        current["hourly"] = all[0].1.json["hourly"]
        #expect(!schema.validate(.object(current)).isEmpty)
    }
}
