import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("One odd field does not sink an answer, in process")
struct OddFieldTests {
    /// The recorded Forlì body with `dew_point_2m`'s unit label emptied in `current_units` and `hourly_units`.
    static func oddDewPoint() throws -> [UInt8] {
        let body = String(
            decoding: try OfficialFixture.bytes("openmeteo-forecast-forli-hourly-current-daily"), as: UTF8.self)
        return Array(body.replacingOccurrences(of: #""dew_point_2m":"°C""#, with: #""dew_point_2m":"""#).utf8)
    }

    @Test("dew point in unit \"\": answered without it, the warning in weather.fetched, the log valid and replayed")
    func oddDewPoint() async throws {
        let directory = TemporaryDataDirectory()
        let network = InMemoryTransport()
        network.route("/v1/forecast", InMemoryTransport.ok(try Self.oddDewPoint()))
        let place: JSONValue = ["lat": 44.22, "lon": 12.04]
        let clock = ManualClock(start: try OfficialFixture.time("2026-10-11T00:00:00Z"))
        let service = try InProcessWeatherd(directory: directory, clock: clock, network: network, fetch: .inProcess)
        let answer = try await service.result("weather/current", place)
        #expect(answer["current"]?["temperature"] == 14.9)
        #expect(answer["current"]?["feelsLike"] == 15.1)
        #expect(answer["current"]?["dewPoint"] == nil, "left out, never guessed")
        let forecast = try await service.result("weather/forecast", ["lat": 44.22, "lon": 12.04, "type": "hourly"])
        let hours = try #require(forecast["entries"]?.arrayValue)
        #expect(!hours.isEmpty && hours.allSatisfy { $0["dewPoint"] == nil && $0["temperature"] != nil })
        let fetched = try await service.result("events/query", ["types": ["weather.fetched"]])["events"]?.arrayValue
        #expect(
            fetched?.map { $0["data"]?["warnings"] } == [
                [#"$.current_units.dew_point_2m is an unknown temperature unit "": dew_point_2m left out"#],
                [#"$.hourly_units.dew_point_2m is an unknown temperature unit "": dew_point_2m left out"#],
            ])
        await service.stop()
        let summary = try await onThread {
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: directory.path)
        }
        #expect(summary.types["weather.fetched"] == 2)

        let again = try InProcessWeatherd(
            directory: directory, clock: clock, network: InMemoryTransport(), fetch: .inProcess)
        let cached = try await again.result("weather/current", place)
        #expect(cached["source"] == "cache" && cached["current"] == answer["current"], "replayed as answered")
        await again.stop()
    }
}
