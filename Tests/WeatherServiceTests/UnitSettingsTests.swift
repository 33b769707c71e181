import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@testable import WeatherCLI

@Suite("Per-quantity units on every output, in process")
struct UnitSettingsTests {
    static let berlin: JSONValue = ["lat": 52.52, "lon": 13.41]

    static func merged(_ extra: [String: JSONValue]) -> JSONValue {
        .object(Self.berlin.objectValue!.merging(extra) { $1 })
    }

    /// Approximately equal: both sides come from answers rounded to two decimals.
    static func close(_ actual: JSONValue?, _ expected: Double, within tolerance: Double = 0.051) -> Bool {
        guard let actual = actual?.doubleValue else { return false }
        return abs(actual - expected) <= tolerance
    }

    @Test(
        "settings/set converts each override's quantity in weather/current and weather/forecast, and names the unit",
        arguments: [
            ("temperature", "°C", "dewPoint", -4.0, "temperature", 3.0),
            ("temperature", "°F", "dewPoint", 24.8, "temperature", 37.4),
            ("temperature", "K", "dewPoint", 269.15, "temperature", 276.15),
            ("windSpeed", "m/s", "windSpeed", 3.0, "windGust", 9.5),
            ("windSpeed", "km/h", "windSpeed", 10.8, "windGust", 34.2),
            ("windSpeed", "mph", "windSpeed", 6.71, "windGust", 21.25),
            ("windSpeed", "kn", "windSpeed", 5.83, "windGust", 18.47),
            ("windSpeed", "Bft", "windGust", 4.0, "windGust", 5.0),
            ("pressure", "hPa", "pressure", 1010.0, "pressure", 1012.5),
            ("pressure", "inHg", "pressure", 29.83, "pressure", 29.9),
            ("pressure", "mmHg", "pressure", 757.56, "pressure", 759.44),
            ("precipitation", "mm", "precipitation", 0.2, "", 0),
            ("precipitation", "in", "precipitation", 0.01, "", 0),
            ("visibility", "km", "visibility", 24.0, "", 0),
            ("visibility", "mi", "visibility", 14.91, "", 0),
        ] as [(String, String, String, Double, String, Double)])
    func eachOverride(
        member: String, unit: String, stepKey: String, stepValue: Double, currentKey: String, currentValue: Double
    ) async throws {
        try await InProcessWeatherd.with(network: ForecastTypeTests.network(), fetch: FetchTests.quick) { service in
            let settings = try await service.result("settings/set", .object([member: .string(unit)]))
            #expect(settings[member] == .string(unit))
            #expect(settings["resolved"]?[member] == .string(unit))
            let forecast = try await service.result("weather/forecast", Self.merged(["type": "hourly"]))
            #expect(forecast["units"]?[member] == .string(unit))
            let first = try #require(forecast["entries"]?.arrayValue?.first)
            #expect(first[stepKey] == .double(stepValue), "\(stepKey) in \(unit)")
            let current = try await service.result("weather/current", Self.berlin)
            #expect(current["units"]?[member] == .string(unit))
            if !currentKey.isEmpty {
                #expect(current["current"]?[currentKey] == .double(currentValue), "\(currentKey) in \(unit)")
            }
        }
    }

    /// The members of an answer object that hold a quantity, by the quantity.
    static let keys: [Quantity: [String]] = [
        .temperature: ["temperature", "feelsLike", "dewPoint", "min", "max"], .windSpeed: ["windSpeed", "windGust"],
        .pressure: ["pressure"], .precipitation: ["precipitation"], .visibility: ["visibility"],
    ]

    /// How many quantities of `chosen` (°F, km/h, mmHg, in, mi) were checked against `metric`'s.
    static func checkConverted(_ metric: JSONValue, _ chosen: JSONValue, _ label: String) -> Int {
        let conversions: [Quantity: (Double) -> Double] = [
            .temperature: { $0 * 9 / 5 + 32 }, .windSpeed: { $0 * 3.6 }, .pressure: { $0 * 0.750_062 },
            .precipitation: { $0 / 25.4 }, .visibility: { $0 / 1.609_344 },
        ]
        var checked = 0
        for (quantity, keys) in Self.keys {
            for key in keys {
                guard let value = metric[key]?.doubleValue else {
                    #expect(chosen[key] == nil, "\(label).\(key)")
                    continue
                }
                let expected = conversions[quantity]!(value)
                #expect(Self.close(chosen[key], expected, within: 0.051), "\(label).\(key): \(value) → \(expected)")
                checked += 1
            }
        }
        return checked
    }

    @Test(
        "every forecast type gives every quantity in the stored overrides; a request's own units system is honoured whole",
        arguments: ForecastType.allCases)
    func forecastTypes(type: ForecastType) async throws {
        try await InProcessWeatherd.with(network: ForecastTypeTests.network(), fetch: FetchTests.quick) { service in
            _ = try await service.result(
                "settings/set",
                [
                    "units": "metric", "temperature": "°F", "windSpeed": "km/h", "pressure": "mmHg",
                    "precipitation": "in", "visibility": "mi",
                ])
            let chosen = try await service.result("weather/forecast", Self.merged(["type": .string(type.rawValue)]))
            let metric = try await service.result(
                "weather/forecast", Self.merged(["type": .string(type.rawValue), "units": "metric"]))
            #expect(
                chosen["units"]
                    == [
                        "system": "metric", "temperature": "°F", "windSpeed": "km/h", "pressure": "mmHg",
                        "precipitation": "in", "visibility": "mi", "humidity": "%", "pop": "0..1", "cloudCover": "%",
                    ])
            #expect(metric["units"] == Units.metric.choice.json, "an explicit system ignores the overrides")
            var checked = 0
            for (m, c) in zip(metric["daily"]?.arrayValue ?? [], chosen["daily"]?.arrayValue ?? []) {
                checked += Self.checkConverted(m, c, "daily")
            }
            let entries = zip(metric["entries"]?.arrayValue ?? [], chosen["entries"]?.arrayValue ?? [])
            #expect((chosen["entries"]?.arrayValue?.isEmpty ?? true) == (type == .daily))
            for (m, c) in entries { checked += Self.checkConverted(m, c, "entries") }
            #expect(checked > 10, "\(type.rawValue) has quantities to compare")
        }
    }

    @Test("settings/get answers the system, each override or null, and the unit of every quantity; null clears")
    func getAndClear() async throws {
        try await InProcessWeatherd.with { service in
            let initial = try await service.result("settings/get")
            #expect(initial["units"] == "metric")
            for quantity in Quantity.allCases { #expect(initial[quantity.rawValue] == .null) }
            #expect(initial["resolved"] == Units.metric.choice.json)
            _ = try await service.result("settings/set", ["units": "imperial", "windSpeed": "kn", "visibility": "km"])
            let set = try await service.result("settings/get")
            #expect(set["units"] == "imperial" && set["windSpeed"] == "kn" && set["visibility"] == "km")
            #expect(set["temperature"] == .null)
            #expect(set["resolved"]?["temperature"] == "°F" && set["resolved"]?["windSpeed"] == "kn")
            let cleared = try await service.result("settings/set", ["windSpeed": nil])
            #expect(cleared["windSpeed"] == .null && cleared["visibility"] == "km")
            #expect(cleared["resolved"]?["windSpeed"] == "mph")
            #expect(try await service.result("settings/get") == cleared)
            let repeated = try await service.result("settings/set", ["windSpeed": nil])
            #expect(repeated == cleared, "a change that changes nothing answers the settings")
        }
    }

    @Test(
        "an unknown unit is -32602 naming the member and listing its units; an empty change is refused",
        arguments: [
            ("temperature", "C", "\"°C\", \"°F\", \"K\""),
            ("windSpeed", "knots", "\"m/s\", \"km/h\", \"mph\", \"kn\", \"Bft\""),
            ("pressure", "mbar", "\"hPa\", \"inHg\", \"mmHg\""), ("precipitation", "cm", "\"mm\", \"in\""),
            ("visibility", "m", "\"km\", \"mi\""), ("units", "kelvin", "\"metric\", \"imperial\", \"standard\""),
        ])
    func badUnit(member: String, value: String, allowed: String) async throws {
        try await InProcessWeatherd.with { service in
            let answer = try await service.call("settings/set", .object([member: .string(value)]))
            #expect(answer["error"]?["code"] == -32602)
            let message = answer["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains("params.\(member)"), "\(message)")
            #expect(message.contains(allowed), "\(message)")
            let empty = try await service.call("settings/set", [:])
            #expect(empty["error"]?["code"] == -32602)
            #expect(try await service.result("settings/get")["resolved"] == Units.metric.choice.json)
        }
    }

    @Test("map/favorites gives each favorite's temperature in the reader's unit and names it")
    func map() async throws {
        try await InProcessWeatherd.with(network: ForecastTypeTests.network(), fetch: FetchTests.quick) { service in
            _ = try await service.result("favorites/add", ["name": "Berlin", "lat": 52.52, "lon": 13.41])
            _ = try await service.result("weather/current", ["favorite": "Berlin"])
            let metric = try await service.result("map/favorites")
            #expect(metric["units"]?["temperature"] == "°C")
            let feature = try #require(metric["features"]?.arrayValue?.first)
            #expect(feature["properties"]?["weather"]?["temperature"] == 3.0)
            #expect(feature["properties"]?["weather"]?["units"] == ["temperature": "°C"])
            for (unit, value) in [("°F", 37.4), ("K", 276.15)] {
                _ = try await service.result("settings/set", ["units": "imperial", "temperature": .string(unit)])
                let map = try await service.result("map/favorites")
                let weather = map["features"]?.arrayValue?.first?["properties"]?["weather"]
                #expect(weather?["temperature"] == .double(value))
                #expect(weather?["units"]?["temperature"] == .string(unit))
                #expect(map["units"]?["temperature"] == .string(unit) && map["units"]?["pressure"] == "inHg")
            }
        }
    }

    /// A favorite whose current temperature falls from 17 °C to -3 °C, and the alert that drop raises, as
    /// alerts/list and the push give it.
    static func dropAlert(settings: JSONValue, reader: [String: JSONValue] = [:]) async throws -> (
        listed: JSONValue, pushed: JSONValue?
    ) {
        let network = InMemoryTransport()
        let clock = ManualClock()
        network.route(
            "/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 17)),
            InMemoryTransport.ok(OpenMeteoBodies.current(temperature: -3)))
        var listed: JSONValue = .null
        var pushed: JSONValue?
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            _ = try await service.result("settings/set", settings)
            _ = try await service.result("favorites/add", ["name": "Plains", "lat": 10, "lon": 20])
            _ = try await service.result("alerts/subscribe", .object(reader))
            _ = try await service.result("weather/current", ["favorite": "fav-1"])
            clock.advance(milliseconds: 11 * 60_000)
            _ = try await service.result("weather/current", ["favorite": "fav-1"])
            #expect(try await eventually { try !AlertTests.pushed(service).isEmpty })
            pushed = try AlertTests.pushed(service).first
            listed = try #require(
                try await service.result("alerts/list", .object(reader))["alerts"]?.arrayValue?.first)
        }
        return (listed, pushed)
    }

    @Test(
        "a reader naming its units reads alerts in them, listed and pushed, whatever the settings",
        arguments: [
            ("imperial", "The temperature fell 36 °F, to 26.6 °F.", "°F"),
            ("metric", "The temperature fell 20 °C, to -3 °C.", "°C"),
        ])
    func readerUnits(_ units: String, _ message: String, _ unit: String) async throws {
        let settings: JSONValue = ["units": units == "imperial" ? "metric" : "imperial"]
        let (listed, pushed) = try await Self.dropAlert(settings: settings, reader: ["units": .string(units)])
        #expect(listed["message"] == .string(message))
        #expect(listed["units"]?["temperature"] == .string(unit))
        #expect(pushed?["message"] == .string(message))
        #expect(pushed?["units"]?["system"] == .string(units))
    }

    @Test("an imperial user's temperature-drop alert reads in °F, the drop converted as a difference")
    func imperialDrop() async throws {
        let (listed, pushed) = try await Self.dropAlert(settings: ["units": "imperial"])
        #expect(listed["rule"] == "temp_drop")
        #expect(listed["message"] == "The temperature fell 36 °F, to 26.6 °F.")
        #expect(listed["details"]?["drop"] == 36.0 && listed["details"]?["temperature"] == 26.6)
        #expect(listed["details"]?["previous"] == 62.6)
        #expect(listed["units"]?["temperature"] == "°F")
        #expect(pushed?["message"] == listed["message"] && pushed?["units"] == listed["units"])
    }

    @Test("a metric user with km/h reads the temperature-drop alert in °C and its units say km/h")
    func celsiusDrop() async throws {
        let (listed, pushed) = try await Self.dropAlert(settings: ["units": "metric", "windSpeed": "km/h"])
        #expect(listed["message"] == "The temperature fell 20 °C, to -3 °C.")
        #expect(listed["details"]?["drop"] == 20.0 && listed["details"]?["temperature"] == -3.0)
        #expect(listed["units"]?["temperature"] == "°C" && listed["units"]?["windSpeed"] == "km/h")
        #expect(pushed?["message"] == listed["message"])
    }

    @Test("the alert a °C reader saw reads in °F once the reader's temperature unit is °F")
    func alertFollowsTheReader() async throws {
        let (listed, _) = try await Self.dropAlert(settings: ["units": "metric", "temperature": "°F"])
        #expect(listed["message"] == "The temperature fell 36 °F, to 26.6 °F.")
        #expect(listed["units"]?["system"] == "metric" && listed["units"]?["temperature"] == "°F")
    }

    static func tool(_ service: InProcessWeatherd, _ name: String, _ arguments: JSONValue = [:]) async throws
        -> JSONValue
    {
        try await OfficialMCPTests.tool(service, name, arguments)
    }

    @Test("MCP: set_units and get_settings answer the settings with a summary; weather texts carry the chosen units")
    func mcp() async throws {
        try await InProcessWeatherd.with(network: ForecastTypeTests.network(), fetch: FetchTests.quick) { service in
            try await OfficialMCPTests.initialize(service)
            let names = try await service.result("tools/list")["tools"]?.arrayValue?.compactMap(\.["name"])
            #expect(names?.contains("get_settings") == true && names?.contains("set_units") == true)
            let set = try await Self.tool(
                service, "set_units",
                ["units": "imperial", "temperature": "°C", "windSpeed": "Bft", "pressure": "mmHg", "visibility": "km"])
            #expect(set["isError"] == nil)
            let texts = OfficialMCPTests.texts(set)
            #expect(texts.count == 2)
            let summary = try #require(texts.first)
            #expect(
                summary
                    == "Units: imperial system; temperature in °C (own choice), wind speed in Bft (own choice), "
                    + "pressure in mmHg (own choice), precipitation in in, visibility in km (own choice).")
            #expect(!summary.contains("settings/"), "no JSON-RPC method named")
            #expect(set["structuredContent"]?["resolved"]?["precipitation"] == "in")
            let got = try await Self.tool(service, "get_settings")
            #expect(got["structuredContent"] == set["structuredContent"])
            #expect(got["structuredContent"] == (try await service.result("settings/get")))

            let weather = try await Self.tool(service, "get_current_weather", Self.berlin)
            // The summary line is in the reader's units too: °C and Beaufort here, not the system's °F and mph.
            let line = try #require(OfficialMCPTests.texts(weather).first)
            let text = try #require(OfficialMCPTests.texts(weather).last)
            let decoded = try JSONValue.parse(Array(text.utf8))
            let force = try #require(decoded["current"]?["windSpeed"]?.doubleValue)
            #expect(line.contains("3 °C") && line.contains("wind \(Int(force)) Bft"), "\(line)")
            #expect(!line.contains("°F") && !line.contains("mph"), "\(line)")
            #expect(decoded["units"]?["temperature"] == "°C" && decoded["units"]?["windSpeed"] == "Bft")
            #expect(decoded["current"]?["temperature"] == 3.0)
            #expect(decoded["current"]?["windGust"] == 5.0, "9.5 m/s is force 5")
            #expect(decoded["current"]?["pressure"] == 759.44)
            let forecast = try await Self.tool(
                service, "get_forecast", Self.merged(["detail": "full", "type": "hourly"]))
            let steps = try JSONValue.parse(Array((OfficialMCPTests.texts(forecast).last ?? "").utf8))
            let forecastLine = try #require(OfficialMCPTests.texts(forecast).first)
            #expect(forecastLine.contains("°C") && !forecastLine.contains("°F"), "\(forecastLine)")
            #expect(steps["units"]?["visibility"] == "km" && steps["units"]?["precipitation"] == "in")
            #expect(steps["entries"]?.arrayValue?.first?["visibility"] == 24.0)
            #expect(steps["entries"]?.arrayValue?.first?["precipitation"] == 0.01)

            let cleared = try await Self.tool(service, "set_units", ["windSpeed": nil, "visibility": nil])
            #expect(cleared["structuredContent"]?["resolved"]?["windSpeed"] == "mph")
            #expect(cleared["structuredContent"]?["resolved"]?["visibility"] == "mi")
            // Before 2025-11-25, invalid arguments are a protocol error (-32602), as for every tool.
            let bad = try await service.call(
                "tools/call", ["name": "set_units", "arguments": ["windSpeed": "furlongs"]])
            #expect(bad["error"]?["code"] == -32602)
            let problem = bad["error"]?["message"]?.stringValue ?? ""
            #expect(problem.contains("arguments.windSpeed") && problem.contains("\"Bft\""), "\(problem)")
            let nothing = try await service.call("tools/call", ["name": "set_units", "arguments": [:]])
            #expect(nothing["error"]?["code"] == -32602)
            #expect(try await service.result("settings/get") == cleared["structuredContent"])
        }
    }

    @Test("MCP: get_alerts gives the alert's message and figures in the reader's units")
    func mcpAlerts() async throws {
        let network = InMemoryTransport()
        let clock = ManualClock()
        network.route(
            "/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 17)),
            InMemoryTransport.ok(OpenMeteoBodies.current(temperature: -3)))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await OfficialMCPTests.initialize(service)
            _ = try await Self.tool(service, "set_units", ["units": "imperial"])
            _ = try await service.result("favorites/add", ["name": "Plains", "lat": 10, "lon": 20])
            _ = try await service.result("weather/current", ["favorite": "fav-1"])
            clock.advance(milliseconds: 11 * 60_000)
            _ = try await service.result("weather/current", ["favorite": "fav-1"])
            await service.engine.alertsCaughtUp()
            #expect(try await service.result("alerts/list")["alerts"]?.arrayValue?.isEmpty == false)
            let result = try await Self.tool(service, "get_alerts")
            let text = try #require(OfficialMCPTests.texts(result).last)
            #expect(text.contains("The temperature fell 36 °F, to 26.6 °F."))
            #expect(!text.contains("°C"))
        }
    }

    @Test("the CLI's one line prints what the answer's units object names: km/h, Bft, inHg, in")
    func oneLine() async throws {
        try await InProcessWeatherd.with(network: ForecastTypeTests.network(), fetch: FetchTests.quick) { service in
            _ = try await service.result("settings/set", ["windSpeed": "km/h"])
            let metric = try await service.result("weather/current", Self.berlin)
            let now = Timestamp(milliseconds: 1_795_348_800_000)
            #expect(try OneLine("%t %w %P").render(current: metric, forecast: nil, now: now) == "+3°C →15km/h 1013hPa")
            _ = try await service.result("settings/set", ["units": "imperial", "windSpeed": "Bft"])
            let imperial = try await service.result("weather/current", Self.berlin)
            #expect(
                try OneLine("%t %w %P").render(current: imperial, forecast: nil, now: now) == "+37°F →3Bft 29.9inHg")
        }
    }

    @Test("the settings survive a restart, from the log and from a snapshot")
    func restart() async throws {
        let directory = TemporaryDataDirectory()
        let first = try InProcessWeatherd(directory: directory, snapshotEvery: 1_000)
        let set = try await first.result(
            "settings/set", ["units": "standard", "temperature": "°C", "windSpeed": "kn", "precipitation": "in"])
        await first.stop()

        let snapshots = SnapshotStore(directory: DataDirectory(path: directory.path))
        for entry in try snapshots.list() { try FileManager.default.removeItem(atPath: entry.path) }
        let replayed = try InProcessWeatherd(directory: directory, snapshotEvery: 1)
        #expect(try await replayed.result("service/status")["startup"]?["snapshotSeq"] == .null)
        #expect(try await replayed.result("settings/get") == set, "replayed from the log")
        _ = try await replayed.result("settings/set", ["pressure": "inHg"])
        await replayed.stop()
        #expect(try !snapshots.list().isEmpty)

        let fromSnapshot = try InProcessWeatherd(directory: directory)
        #expect(try await fromSnapshot.result("service/status")["startup"]?["snapshotSeq"] != .null)
        let settings = try await fromSnapshot.result("settings/get")
        #expect(settings["units"] == "standard" && settings["windSpeed"] == "kn" && settings["pressure"] == "inHg")
        #expect(settings["resolved"]?["visibility"] == "km" && settings["resolved"]?["precipitation"] == "in")
        await fromSnapshot.stop()
    }

    @Test("a log with unit overrides passes the settings.changed schema; its examples do too")
    func schema() async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory)
        _ = try await service.result("settings/set", ["windSpeed": "Bft", "pressure": "mmHg", "visibility": "mi"])
        _ = try await service.result("settings/set", ["windSpeed": nil, "units": "imperial"])
        await service.stop()
        let schemas = ForecastTypeTests.root.appendingPathComponent("Events/schemas").path
        let summary = try await onThread {
            try LogCheck(schemasDirectory: schemas).check(dataDirectory: directory.path)
        }
        #expect(summary.types["settings.changed"] == 2)
        let schema = try JSONSchema(contentsOf: "\(schemas)/settings.changed.v1.json")
        let examples = try #require(schema.document["examples"]?.arrayValue)
        for example in examples { #expect(schema.validate(example) == [], "\(example)") }
        #expect(schema.validate(["units": "metric", "windSpeed": "knots"]) != [])
    }
}
