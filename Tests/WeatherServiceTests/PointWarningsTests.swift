import EventLog
import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("Official warnings for a bare coordinate, in process")
struct PointWarningsTests {
    /// Portland, Oregon, as a client's GPS gives it; its cache key is `45.52,-122.68`.
    static let portland: JSONValue = ["lat": 45.523062, "lon": -122.676482]
    static let portlandPoints = "/points/45.52,-122.68"
    /// Sarajevo by its coordinates alone.
    static let sarajevo: JSONValue = ["lat": 43.86, "lon": 18.41]
    static let sarajevoPoints = "/points/43.86,18.41"
    static let apiKey = "owm-secret-key-123"

    /// A network where NWS covers Portland and has the Phoenix fixture's warnings in force there.
    static func portlandNetwork(points: InMemoryTransport.Reply? = nil) throws -> InMemoryTransport {
        let network = InMemoryTransport()
        let covered = InMemoryTransport.ok(try OfficialFixture.bytes("nws-points-washington-dc"))
        network.route(portlandPoints, points ?? covered)
        network.route("/alerts/active", InMemoryTransport.ok(try OfficialFixture.bytes("nws-alerts-point-phoenix-az")))
        return network
    }

    static func phoenixClock() throws -> ManualClock {
        ManualClock(start: try OfficialFixture.time(OfficialFixture.phoenixTime))
    }

    @Test("Portland's coordinates get NWS's warnings: /points says NWS covers it, the alerts are asked by point")
    func portlandCovered() async throws {
        let network = try Self.portlandNetwork()
        let clock = try Self.phoenixClock()
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            let answer = try await service.result("warnings/list", Self.portland)
            #expect(answer["source"] == "nws")
            #expect(
                answer["warnings"]?.arrayValue?.map { $0["id"] }
                    == [.string(OfficialFixture.heatID), .string(OfficialFixture.airQualityAlertID)])
            #expect(answer["coverage"]?.stringValue?.contains("National Weather Service") == true)
            #expect(
                network.requests == [
                    "http://nws.test/points/45.52,-122.68", "http://nws.test/alerts/active?point=45.52,-122.68",
                ], "the point asked with the rounded coordinates only")
            let points = try #require(network.received.first)
            #expect(points.headers["User-Agent"] == "weatherd/\(Engine.version) (tests@weatherd.test)")
            #expect(points.headers["Accept"] == "application/geo+json")

            let fetched = try await OfficialFixture.events(service, ["point.fetched"])
            #expect(fetched.count == 1)
            let data = try #require(fetched.first?["data"])
            #expect(data["kind"] == "nws_point")
            #expect(data["key"] == "45.52,-122.68")
            #expect(data["covered"] == true)
            #expect(data["provider"] == "nws")
            #expect(data["status"] == 200)
            #expect(data["url"] == "http://nws.test/points/45.52,-122.68")
        }
    }

    @Test("two clients asking at once share one /points call; a later ask makes none until 30 days have passed")
    func onePointCall() async throws {
        let network = try Self.portlandNetwork(
            points: .held(InMemoryTransport.ok(try OfficialFixture.bytes("nws-points-washington-dc"))))
        let clock = try Self.phoenixClock()
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            for id in ["a", "b"] {
                let request: JSONValue = [
                    "jsonrpc": "2.0", "id": .string(id), "method": "warnings/list", "params": Self.portland,
                ]
                await service.receive(request.jsonBytes)
            }
            #expect(await network.requests(atLeast: 1))
            network.release()
            #expect(await service.output.wait(for: 2))
            let answers = try service.output.messages()
            #expect(answers.count == 2)
            #expect(answers.allSatisfy { $0["result"]?["source"] == "nws" })
            #expect(network.requests.filter { $0.contains("/points/") }.count == 1, "one call for both")

            clock.advance(milliseconds: 10 * 60_000)
            let again = try await service.result("warnings/list", Self.portland)
            #expect(again["source"] == "nws")
            #expect(network.requests.filter { $0.contains("/points/") }.count == 1, "the point's coverage is kept")
            #expect(network.requests.filter { $0.contains("/alerts/") }.count == 2, "the warnings are asked again")
            #expect(try await OfficialFixture.events(service, ["point.fetched"]).count == 1)

            clock.advance(milliseconds: PointFetched.validityMs)
            _ = try await service.result("warnings/list", Self.portland)
            #expect(network.requests.filter { $0.contains("/points/") }.count == 2, "asked again after 30 days")
        }
    }

    @Test("outside NWS with Open-Meteo: the time zone table's countries, then the aggregator, each asked once")
    func outsideWithOpenMeteo() async throws {
        let candidates = ZoneTable.system().countries(lat: 43.86, lon: 18.41)
        try #require(
            candidates.contains("BA") && !candidates.contains("DE"), "this machine's zone table: \(candidates)")
        let network = InMemoryTransport()
        network.route(Self.sarajevoPoints, .response(try Self.notFound()))
        let feeds = candidates.map {
            #"{"name":"\#($0) service","cap_alert_feed_status":"operating","authorityCountry":"\#($0.lowercased())"}"#
        }
        network.route(
            "/sources/area_status",
            InMemoryTransport.ok(Array(#"{"results":[\#(feeds.joined(separator: ","))]}"#.utf8)))
        network.route("/alert/area", InMemoryTransport.ok(Array("[]".utf8)))
        try await InProcessWeatherd.with(network: network, fetch: OfficialFixture.quick) { service in
            let answer = try await service.result("warnings/list", Self.sarajevo)
            #expect(answer["warnings"] == [])
            #expect(answer["source"] == "fpas")
            #expect(answer["covered"] == true, "every candidate country's service feeds the aggregator")
            #expect(answer["location"]?["country"] == nil, "a candidate is never written in as the country")
            let note = try #require(answer["coverage"]?.stringValue)
            #expect(note.contains("FOSS Public Alert Server"))
            #expect(
                network.requests == [
                    "http://nws.test/points/43.86,18.41",
                    "http://fpas.test/sources/area_status?"
                        + candidates.map { "country_codes=\($0.lowercased())" }.joined(separator: "&"),
                    "http://fpas.test/alert/area?min_lat=43.84&max_lat=43.88&min_lon=18.39&max_lon=18.43",
                ])
            let fetched = try await OfficialFixture.events(service, ["point.fetched"])
            #expect(fetched.first?["data"]?["covered"] == false)
            #expect(fetched.first?["data"]?["status"] == 404)
            _ = try await service.result("warnings/list", Self.sarajevo)
            #expect(network.requests.count == 3, "the 404, the feeds and the list are each remembered")
        }
    }

    static func notFound() throws -> HTTPResponse {
        HTTPResponse(
            status: 404, headers: ["content-type": "application/problem+json"],
            body: try OfficialFixture.bytes("nws-points-404"))
    }

    @Test("outside NWS with OpenWeatherMap: reverse-geocoded, then matched in MeteoAlarm's feed; the key never logged")
    func outsideWithOpenWeatherMap() async throws {
        let (network, clock) = try OfficialFixture.sarajevoFeed()
        network.route(Self.sarajevoPoints, .response(try Self.notFound()))
        network.route("/geo/1.0/reverse", InMemoryTransport.ok(try OfficialFixture.bytes("owm-geo-reverse-sarajevo")))
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, fetch: OfficialFixture.quick,
            provider: OpenWeatherMapProvider(apiKey: Self.apiKey, baseURL: "http://owm.test"))
        let answer = try await service.result("warnings/list", Self.sarajevo)
        let again = try await service.result("warnings/list", Self.sarajevo)
        let events = try await service.result("events/query", [:])
        await service.stop()

        #expect(answer["source"] == "meteoalarm")
        #expect(answer["warnings"]?.arrayValue?.map { $0["id"] } == [.string(OfficialFixture.sarajevoWindUpdate)])
        #expect(answer["location"]?["country"] == "BA")
        #expect(answer["location"]?["name"] == "Sarajevo")
        #expect(answer["location"]?["lat"] == 43.86, "the client's point, not the named place's")
        #expect(again["warnings"] == answer["warnings"])
        #expect(
            network.requests == [
                "http://nws.test/points/43.86,18.41",
                "http://owm.test/geo/1.0/reverse?lat=43.86&lon=18.41&limit=1&appid=\(Self.apiKey)",
                "http://meteoalarm.test/api/v1/warnings/feeds-bosnia-herzegovina",
            ], "each asked once")
        let reverse = events["events"]?.arrayValue?.filter {
            $0["type"] == "point.fetched" && $0["data"]?["kind"] == "reverse_geocode"
        }
        #expect(reverse?.count == 1)
        #expect(reverse?.first?["data"]?["place"]?["country"] == "BA")
        #expect(reverse?.first?["data"]?["url"] == "http://owm.test/geo/1.0/reverse?lat=43.86&lon=18.41&limit=1")
        let log = try String(contentsOfFile: directory.path + "/events.jsonl", encoding: .utf8)
        #expect(!log.contains(Self.apiKey))
        let printed = service.output.lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        #expect(!printed.contains(Self.apiKey))
        let summary = try await onThread {
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: directory.path)
        }
        #expect(summary.types["point.fetched"] == 2)
    }

    @Test("a /points 500 answers a failure, every attempt audited, never 'no country'")
    func pointsFailure() async throws {
        let network = InMemoryTransport()
        network.route(Self.portlandPoints, InMemoryTransport.status(500, #"{"title":"Unexpected Problem"}"#))
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory, network: network, fetch: OfficialFixture.quick)
        let response = try await service.call("warnings/list", Self.portland)
        let failures = try await OfficialFixture.events(service, ["weather.fetch_failed"])
        await service.stop()
        let error = try #require(response["error"], "answered \(response.jsonString)")
        #expect(error["data"]?["kind"] == "upstream_error")
        #expect(error["message"]?.stringValue?.contains("no country") == false)
        #expect(failures.count == FetchPolicy.inProcess.maxAttempts)
        #expect(
            failures.allSatisfy {
                $0["data"]?["kind"] == "nws_point" && $0["data"]?["provider"] == "nws" && $0["data"]?["status"] == 500
            })
        #expect(network.requests.allSatisfy { $0.contains("/points/") }, "no alerts asked for an unknown coverage")
        let summary = try await onThread {
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: directory.path)
        }
        #expect(summary.types["weather.fetch_failed"] == FetchPolicy.inProcess.maxAttempts)
    }

    @Test("a location set from GPS coordinates gets NWS's warnings in the timer's official checks")
    func locationFromCoordinates() async throws {
        let network = try Self.portlandNetwork()
        network.route("/v1/forecast", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 20)))
        let clock = try Self.phoenixClock()
        let service = try InProcessWeatherd(
            directory: TemporaryDataDirectory(), clock: clock, network: network, fetch: OfficialFixture.quick,
            warningsInterval: .seconds(600))
        _ = try await service.result("location/set", Self.portland)
        await clock.timerArmed(.seconds(600))
        clock.advance(by: .seconds(600))
        await clock.timerArmed(.seconds(600))
        let alerts = try await service.result("alerts/list")["alerts"]?.arrayValue ?? []
        let inForce = await service.engine.warningsInForce()
        await service.stop()
        let official = alerts.filter { $0["rule"] == "official" }
        #expect(
            Set(official.compactMap { $0["details"]?["warning"]?["id"]?.stringValue })
                == [OfficialFixture.heatID, OfficialFixture.airQualityAlertID])
        #expect(official.allSatisfy { $0["favoriteId"] == nil && $0["key"] == "45.52,-122.68" })
        #expect(network.requests.filter { $0.contains("/points/") }.count == 1)
        let here = try #require(inForce.places.first)
        #expect(here.checked)
        #expect(here.answer.coverage == .nws)
        #expect(here.answer.warnings.count == 2)
    }
}
