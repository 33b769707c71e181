import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("MET Norway's spread comes with its forecast: one call per place per validity window, counted on 127.0.0.1")
struct MetNorwaySpreadCallsTests {
    /// The one transport of these tests (URLSession's, kept for the life of the process).
    static let transport = HTTPTransport.live()
    /// The recorded answer's first step, when the tests begin.
    static let start = "2022-05-18T21:00:00Z"
    /// Its own freshness, as MET Norway sends it: half an hour (the forecast's TTL, an hour, is longer).
    static let headers = ["Expires": "Wed, 18 May 2022 21:30:00 GMT"]
    static let oslo: JSONValue = ["lat": 59, "lon": 10]

    static func body() throws -> [UInt8] {
        try OfficialFixture.bytes("metno-locationforecast-complete-59n10e-alt63-20220518")
    }

    /// A server on 127.0.0.1 answering MET Norway's forecast with the recorded body (held until released when
    /// `held`).
    static func server(held: Bool = false) throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        server.route(MetNorwayProvider.path, .init(headers: headers, body: try body(), held: held))
        return server
    }

    /// weatherd with MET Norway at `server` as its provider, on `directory`.
    static func service(
        _ server: LocalHTTPServer, directory: TemporaryDataDirectory, clock: ManualClock
    ) throws -> InProcessWeatherd {
        let provider = MetNorwayProvider(
            userAgent: UserAgent.weatherd(contact: "tests@weatherd.test", version: Engine.version),
            baseURL: server.baseURL, geocodingBaseURL: server.baseURL,
            zones: ZoneTable(tab: "NO,SJ\t+5955+01045\tEurope/Oslo\n"))
        return try InProcessWeatherd(
            directory: directory, clock: clock, provider: provider, transport: transport
        ) { $0.provider = "met-norway" }
    }

    /// Runs `body` against a service at the recorded answer's time, with MET Norway at `server`, on a fresh data
    /// dir kept until the service has stopped (its log is read back from it); stops the service and the server.
    static func with(
        server: LocalHTTPServer, _ body: (LocalHTTPServer, InProcessWeatherd) async throws -> Void
    ) async throws {
        defer { server.stop() }
        let directory = TemporaryDataDirectory()
        let clock = ManualClock(start: try OfficialFixture.time(start))
        let service = try Self.service(server, directory: directory, clock: clock)
        do {
            try await body(server, service)
        } catch {
            await service.stop()
            throw error
        }
        await service.stop()
        withExtendedLifetime(directory) {}
    }

    @Test("forecast then confidence, and confidence then forecast: one call each place; again one once it expired")
    func bothOrders() async throws {
        try await Self.with(server: try Self.server()) { server, service in
            let bergen: JSONValue = ["lat": 60.39, "lon": 5.32]
            let forecast = try await service.result("weather/forecast", Self.oslo)
            let confidence = try await service.result("weather/confidence", Self.oslo)
            #expect(server.requests.count == 1 && confidence["source"] == "cache")
            _ = try await service.result("weather/confidence", bergen)
            _ = try await service.result("weather/forecast", bergen)
            #expect(server.requests.count == 2, "\(server.requests)")
            // The forecast carries the spread its own answer published: the same bands as weather/confidence's.
            let day = try #require(confidence["days"]?.arrayValue?.first { $0["date"] == "2022-05-19" })
            let forecastDay = try #require(forecast["daily"]?.arrayValue?.first { $0["date"] == "2022-05-19" })
            #expect(forecastDay["spread"]?["high"]?["p10"] == day["high"]?["p10"])
            #expect(forecastDay["spread"]?["high"]?["p90"] == day["high"]?["p90"])
            try Self.expectPercentiles(of: day, in: try Self.body())
            let fetched = try await OfficialFixture.events(service, ["weather.fetched", "ensemble.fetched"])
            #expect(fetched.map { $0["type"] } == ["weather.fetched", "weather.fetched"], "each call audited once")
            let schema = try JSONSchema(contentsOf: "\(OfficialFixture.schemas)/weather.fetched.v1.json")
            for event in fetched {
                let data = try #require(event["data"])
                #expect(data["spread"]?["method"] == "percentiles" && schema.validate(data) == [])
            }
            // Past its Expires and the forecast's TTL: one call more for the place, whichever is asked first.
            service.clock.advance(milliseconds: 3_601_000)
            _ = try await service.result("weather/confidence", Self.oslo)
            _ = try await service.result("weather/forecast", Self.oslo)
            #expect(server.requests.count == 3, "\(server.requests)")
        }
    }

    @Test("several clients asking for the forecast and its spread at once share the one call to MET Norway")
    func concurrentAskers() async throws {
        try await Self.with(server: try Self.server(held: true)) { server, service in
            for id in 0..<8 {
                let request: JSONValue = [
                    "jsonrpc": "2.0", "id": .string("a\(id)"),
                    "method": .string(id.isMultiple(of: 2) ? "weather/confidence" : "weather/forecast"),
                    "params": Self.oslo,
                ]
                await service.receive(request.jsonBytes)
            }
            #expect(await server.requests(atLeast: 1))
            server.release()
            #expect(await service.output.wait(for: 8))
            let answers = try service.output.messages()
            #expect(answers.count == 8 && answers.allSatisfy { $0["result"] != nil }, "\(answers)")
            let days = answers.filter { $0["result"]?["method"] == "percentiles" }.map { $0["result"]?["days"] }
            #expect(days.count == 4 && days.allSatisfy { $0 != nil && $0 == days.first })
            #expect(server.requests.count == 1, "\(server.requests)")
            let fetched = try await OfficialFixture.events(service, ["weather.fetched", "ensemble.fetched"])
            #expect(fetched.count == 1, "one call, one event")
        }
    }

    @Test("after a restart, from the snapshot and from a replay of the log, the cached forecast's spread serves")
    func restart() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let clock = ManualClock(start: try OfficialFixture.time(Self.start))
        let directory = TemporaryDataDirectory()
        let first = try Self.service(server, directory: directory, clock: clock)
        _ = try await first.result("weather/forecast", Self.oslo)
        let before = try await first.result("weather/confidence", Self.oslo)
        await first.stop()
        #expect(server.requests.count == 1)
        clock.advance(milliseconds: 600_000)
        for fromSnapshot in [true, false] {
            if !fromSnapshot { try FileManager.default.removeItem(atPath: directory.path + "/snapshots") }
            let again = try Self.service(server, directory: directory, clock: clock)
            do {
                let status = try await again.result("service/status")
                #expect((status["startup"]?["snapshotSeq"] != .null) == fromSnapshot)
                let after = try await again.result("weather/confidence", Self.oslo)
                #expect(after["source"] == "cache" && after["fetchedAt"] == before["fetchedAt"])
                #expect(after["days"] == before["days"] && after["days"]?.arrayValue?.isEmpty == false)
                #expect(server.requests.count == 1, "no call while the forecast is valid")
            } catch {
                await again.stop()
                throw error
            }
            await again.stop()
        }
    }

    /// Checks a day of `weather/confidence` against MET Norway's body read directly: its high's and low's 10th and
    /// 90th percentiles are the highest and lowest of its local (UTC+2) steps', which it returns.
    @discardableResult
    static func expectPercentiles(of day: JSONValue, in body: [UInt8]) throws -> [(p10: Double, p90: Double)] {
        let date = try #require(day["date"]?.stringValue)
        let series = try #require(try JSONValue.parse(body)["properties"]?["timeseries"]?.arrayValue)
        let steps = series.compactMap { item -> (p10: Double, p90: Double)? in
            guard let time = item["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)),
                LocalDate.string(time, zone: .fixed(7200)) == date,
                let details = item["data"]?["instant"]?["details"],
                let p10 = details["air_temperature_percentile_10"]?.doubleValue,
                let p90 = details["air_temperature_percentile_90"]?.doubleValue
            else { return nil }
            return (p10, p90)
        }
        #expect(steps.count == 24, "hourly steps that day")
        #expect(day["high"]?["p10"]?.doubleValue == steps.map(\.p10).max())
        #expect(day["high"]?["p90"]?.doubleValue == steps.map(\.p90).max())
        #expect(day["low"]?["p10"]?.doubleValue == steps.map(\.p10).min())
        #expect(day["low"]?["p90"]?.doubleValue == steps.map(\.p90).min())
        return steps
    }
}
