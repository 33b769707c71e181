import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("Prometheus metrics: the families, from the engine's state, and a scrape that changes nothing")
struct MetricsTests {
    /// The families `/metrics` always writes.
    static let families: [String: String] = [
        "weatherd_temperature_celsius": "gauge", "weatherd_apparent_temperature_celsius": "gauge",
        "weatherd_dew_point_celsius": "gauge", "weatherd_relative_humidity_ratio": "gauge",
        "weatherd_wind_speed_meters_per_second": "gauge", "weatherd_wind_gust_meters_per_second": "gauge",
        "weatherd_pressure_pascals": "gauge", "weatherd_precipitation_chance_next_6h_ratio": "gauge",
        "weatherd_observation_age_seconds": "gauge", "weatherd_official_warnings_in_force": "gauge",
        "weatherd_alerts_raised_total": "counter", "weatherd_upstream_requests_total": "counter",
        "weatherd_upstream_request_duration_seconds": "histogram", "weatherd_log_bytes": "gauge",
        "weatherd_log_events_total": "counter", "weatherd_connected_clients": "gauge", "weatherd_build_info": "gauge",
    ]

    /// A service with a favorite whose name needs escaping, the current location, their weather and forecast
    /// fetched, a thunderstorm (a severe alert) and one failed call.
    static func stocked(_ body: (InProcessWeatherd) async throws -> Void) async throws {
        let network = InMemoryTransport()
        try await InProcessWeatherd.with(network: network) { service in
            // The first location refreshes at once; with no answer routed yet, its calls fail (offline).
            _ = try await service.result("location/set", ["lat": 52.52, "lon": 13.41])
            await service.engine.drainBackground()
            network.route(
                "/v1/forecast", query: "current=",
                InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 21, code: 95)),
                InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 4.5, code: 3)),
                InMemoryTransport.status(404, #"{"error":true,"reason":"no such place"}"#))
            network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
            _ = try await service.result("favorites/add", ["name": "Zürich \"Alt\\stadt\"", "lat": 47.37, "lon": 8.54])
            _ = try await service.result("weather/current", ["favoriteId": "fav-1"])
            _ = try await service.result("weather/current", ["lat": 52.52, "lon": 13.41])
            _ = try await service.result("weather/forecast", ["lat": 52.52, "lon": 13.41])
            _ = try await service.call("weather/current", ["lat": 1, "lon": 1])
            await service.engine.alertsCaughtUp()
            try await body(service)
        }
    }

    @Test("every family once with HELP and TYPE, base units, _total on counters; values from the cached weather")
    func families() async throws {
        try await Self.stocked { service in
            let answer = try await service.result("metrics/get")
            #expect(answer["contentType"] == "text/plain; version=0.0.4; charset=utf-8")
            let text = try #require(answer["text"]?.stringValue)
            let families = try ExpositionParser.parse(text)
            #expect(Set(families.keys) == Set(Self.families.keys))
            for (name, family) in families {
                #expect(family.type == Self.families[name], "\(name)")
                #expect(!family.help.isEmpty, "\(name) has a HELP")
                #expect((family.type == "counter") == name.hasSuffix("_total"), "\(name): _total exactly on counters")
                #expect(text.components(separatedBy: "# TYPE \(name) ").count == 2, "\(name) announced once")
            }
            func value(_ name: String, place: String) -> Double? {
                families[name]?.samples.first { $0.labels["place"] == place }?.value
            }
            let zurich = "Zürich \"Alt\\stadt\""
            let here = MetricsReading.currentLocation
            #expect(value("weatherd_temperature_celsius", place: zurich) == 21, "escaped label read back")
            #expect(value("weatherd_temperature_celsius", place: here) == 4.5)
            #expect(value("weatherd_apparent_temperature_celsius", place: here) == 2.5)
            #expect(value("weatherd_relative_humidity_ratio", place: here) == 0.8)
            #expect(value("weatherd_pressure_pascals", place: here) == 101_250)
            #expect(value("weatherd_wind_speed_meters_per_second", place: here) == 4.2)
            #expect(value("weatherd_wind_gust_meters_per_second", place: here) == 9.5)
            #expect(value("weatherd_precipitation_chance_next_6h_ratio", place: here) == 0.4)
            #expect(value("weatherd_precipitation_chance_next_6h_ratio", place: zurich) == nil, "no forecast fetched")
            #expect(value("weatherd_observation_age_seconds", place: here) == 0, "observed at the clock's now")
            #expect(
                families["weatherd_temperature_celsius"]?.samples.allSatisfy { $0.labels["provider"] == "open-meteo" }
                    == true)
            let alerts = try #require(families["weatherd_alerts_raised_total"])
            #expect(alerts.samples.first { $0.labels["rule"] == "severe" }?.value == 1)
            #expect(alerts.samples.first { $0.labels["rule"] == "temp_drop" }?.value == 0, "every rule, 0 included")
            let requests = try #require(families["weatherd_upstream_requests_total"]).samples
            let ok = requests.first { $0.labels == ["provider": "open-meteo", "outcome": "ok"] }?.value ?? 0
            let failed = requests.filter { $0.labels["outcome"] != "ok" }.map(\.value).reduce(0, +)
            #expect(ok >= 3)
            #expect(failed >= 1, "the 404: \(requests)")
            let histogram = try #require(families["weatherd_upstream_request_duration_seconds"]).samples
            let count = histogram.first { $0.name.hasSuffix("_count") && $0.labels["provider"] == "open-meteo" }
            let infinity = histogram.first { $0.labels["le"] == "+Inf" && $0.labels["provider"] == "open-meteo" }
            #expect(count?.value == infinity?.value)
            #expect(
                count?.value == requests.filter { $0.labels["provider"] == "open-meteo" }.map(\.value).reduce(0, +))
            #expect(families["weatherd_log_events_total"]?.samples.first?.value == Double(service.engine.lastSeq))
            #expect((families["weatherd_log_bytes"]?.samples.first?.value ?? 0) > 0)
            #expect(families["weatherd_build_info"]?.samples.first?.labels["version"] == Engine.version)
        }
    }

    @Test("a scrape makes no upstream call and leaves the log byte-identical")
    func scrapeChangesNothing() async throws {
        try await Self.stocked { service in
            let before = try Self.logBytes(service.engine.dataDirectoryPath)
            let calls = service.network.requests.count
            let lastSeq = service.engine.lastSeq
            for _ in 0..<20 { _ = try await service.result("metrics/get") }
            for _ in 0..<20 { _ = await service.engine.metrics() }
            #expect(service.network.requests.count == calls)
            #expect(service.engine.lastSeq == lastSeq)
            #expect(try Self.logBytes(service.engine.dataDirectoryPath) == before)
        }
    }

    @Test("a name's control characters become U+FFFD in a label; quotes, backslashes and line feeds are escaped")
    func labels() throws {
        #expect(MetricsText.label("a\u{1B}[31mb\u{202E}c") == "a\u{FFFD}[31mb\u{FFFD}c")
        var exposition = Exposition()
        exposition.family("x", .gauge, help: "h", [.init([("place", MetricsText.label("q\"\\\nz"))], 1)])
        let parsed = try ExpositionParser.parse(exposition.text)
        #expect(parsed["x"]?.samples.first?.labels["place"] == "q\"\\\u{FFFD}z")
    }

    /// Every file of the event log in `directory`, in name order, as bytes.
    static func logBytes(_ directory: String) throws -> [[UInt8]] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("events") }
            .sorted()
        #expect(!names.isEmpty)
        return try names.map { Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0))) }
    }
}
