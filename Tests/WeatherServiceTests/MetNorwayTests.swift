import EventLog
import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherTesting

@Suite("--provider met-norway: refused without a contact; current and forecast in process, Expires kept")
struct MetNorwayTests {
    static let path = "/weatherapi/locationforecast/2.0/complete"
    static let london: JSONValue = ["lat": 51.5, "lon": -0.1]
    static let lastModified = "Mon, 20 Jul 2020 11:15:00 GMT"
    static let zones = ZoneTable(tab: "GB\t+513030-0000731\tEurope/London\nDE\t+5230+01322\tEurope/Berlin\n")
    /// Oslo's zone alone, for the recorded answer at 59° N 10° E.
    static let oslo = ZoneTable(tab: "NO,SJ\t+5955+01045\tEurope/Oslo\n")

    /// weatherd in process with MET Norway as its provider, answered by `network`, its places' zones from `zones`.
    static func service(
        network: InMemoryTransport, directory: TemporaryDataDirectory, clock: ManualClock, zones: ZoneTable = zones
    ) throws -> InProcessWeatherd {
        let provider = MetNorwayProvider(
            userAgent: UserAgent.weatherd(contact: "tests@weatherd.test", version: Engine.version),
            baseURL: InProcessWeatherd.metNorwayBaseURL, geocodingBaseURL: "http://geo.test", zones: zones)
        return try InProcessWeatherd(directory: directory, clock: clock, network: network, provider: provider) {
            $0.provider = "met-norway"
        }
    }

    @Test("without a contact the provider is refused at start-up, saying why and how; with one it is MET Norway")
    func configuration() throws {
        do {
            _ = try Configuration.parse(["--provider", "met-norway"], environment: [:])
            Issue.record("--provider met-norway without a contact was accepted")
        } catch {
            #expect(error.description.contains("MET Norway's terms"))
            #expect(error.description.contains("--contact"))
            #expect(error.description.contains("WEATHERD_CONTACT"))
        }
        #expect(throws: ConfigurationError.self) {
            try Configuration.parse(["--provider", "met-norway", "--contact", "  "], environment: [:])
        }
        #expect(throws: ConfigurationError.self) { try Configuration.parse(["--provider", "metno"], environment: [:]) }

        let config = try Configuration.parse(
            ["--provider", "met-norway", "--met-norway-base-url", "http://127.0.0.1:9/met/"],
            environment: ["WEATHERD_CONTACT": "ops@example.org"])
        let provider = try #require(config.makeProvider(zones: Self.zones) as? MetNorwayProvider)
        #expect(provider.name == "met-norway")
        #expect(provider.userAgent == "weatherd/\(Engine.version) (ops@example.org)")
        #expect(provider.forecastRequest(lat: 1, lon: 2).url.hasPrefix("http://127.0.0.1:9/met/weatherapi/"))
        #expect(provider.geocodeRequest(query: "Oslo", limit: 1).url.hasPrefix(config.openMeteoGeocodingBaseURL))
        let settings = UpstreamSettings(config)
        #expect(settings.baseURLs["weather"] == "http://127.0.0.1:9/met/")
        var daemon = config.heldOptions
        daemon["--met-norway-base-url"] = "https://api.met.no"
        #expect(config.differences(fromDaemon: daemon).first?.hasPrefix("--met-norway-base-url ") == true)
    }

    @Test(
        "a restart that replays the log keeps each answer's Expires and Last-Modified: no call before it, then a conditional one"
    )
    func replayKeepsValidity() async throws {
        let body = try OfficialFixture.bytes("metno-locationforecast-complete-london-alt25")
        let network = InMemoryTransport()
        network.route(
            Self.path, InMemoryTransport.ok(body, headers: Self.validity(expires: "Mon, 20 Jul 2020 11:50:00 GMT")),
            InMemoryTransport.status(304, "", headers: Self.validity(expires: "Mon, 20 Jul 2020 12:30:00 GMT")))
        let clock = ManualClock(start: try OfficialFixture.time("2020-07-20T11:20:00Z"))
        let directory = TemporaryDataDirectory()
        func service() throws -> InProcessWeatherd {
            try Self.service(network: network, directory: directory, clock: clock)
        }
        let first = try service()
        _ = try await first.result("weather/forecast", Self.london)
        await first.stop()
        #expect(network.requests.count == 1)
        // No snapshot: the restart replays the whole log.
        try FileManager.default.removeItem(atPath: directory.path + "/snapshots")
        clock.advance(by: .seconds(20 * 60))
        let again = try service()
        do {
            #expect(try await again.result("service/status")["startup"]?["snapshotSeq"] == .null)
            // 11:40, before the answer's Expires (11:50): even asking for fresh data makes no call.
            let kept = try await again.result("weather/forecast", Self.london.merging(["maxAgeSeconds": 0]))
            #expect(kept["source"] == "cache" && network.requests.count == 1)
            // 11:55: asked again, with the exact Last-Modified the replayed fetch recorded.
            clock.advance(by: .seconds(15 * 60))
            _ = try await again.result("weather/forecast", Self.london.merging(["maxAgeSeconds": 0]))
            #expect(network.requests.count == 2)
            #expect(network.received.last?.headers["If-Modified-Since"] == Self.lastModified)
        } catch {
            await again.stop()
            throw error
        }
        await again.stop()
    }

    @Test("compaction strips a replaced forecast's spread with its steps; the log replays alike and checks")
    func compaction() async throws {
        let body = try OfficialFixture.bytes("metno-locationforecast-complete-59n10e-alt63-20220518")
        let network = InMemoryTransport()
        network.route(Self.path, InMemoryTransport.ok(body))
        let clock = ManualClock(start: try OfficialFixture.time("2022-05-18T21:00:00Z"))
        let directory = TemporaryDataDirectory()
        let service = try Self.service(network: network, directory: directory, clock: clock, zones: Self.oslo)
        for _ in 0..<3 {
            _ = try await service.result("weather/forecast", ["lat": 59, "lon": 10])
            clock.advance(by: .seconds(61 * 60))
        }
        await service.stop()
        #expect(network.requests.count == 3)
        try await onThread {
            let segments = try OfficialFixture.sealedCopy(of: directory)
            let state = try Replay.run(directory: segments.path, commandWindow: 100_000).state
            let report = try LogMaintenance.compact(
                directory: segments.path, retainPayloads: .zero, now: clock.timestamp)
            #expect(
                report.eventsStripped == 1, "the second forecast: the third replaced it (a segment's first line stays)")
            #expect(try Replay.run(directory: segments.path, commandWindow: 100_000).state.json == state.json)
            // The stripped line names its spread among the members removed, as its schema allows.
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: segments.path)
            var second: JSONValue?
            _ = try LogReader.read(directory: segments.path) { envelope, _ in
                if envelope.seq == 2 { second = try JSONValue.parse(envelope.data) }
                return envelope.seq < 2
            }
            #expect(second?["compacted"]?["members"] == ["entries", "hourly", "spread"])
            #expect(second?["spread"] == nil)
        }
    }

    static func validity(expires: String) -> [String: String] {
        ["Expires": expires, "Last-Modified": lastModified]
    }

    @Test(
        "weather/current and weather/forecast from MET Norway: credited, by London's dates; none asked before Expires")
    func endToEnd() async throws {
        let body = try OfficialFixture.bytes("metno-locationforecast-complete-london-alt25")
        let network = InMemoryTransport()
        network.route(
            Self.path, InMemoryTransport.ok(body, headers: Self.validity(expires: "Mon, 20 Jul 2020 11:50:00 GMT")),
            InMemoryTransport.ok(body, headers: Self.validity(expires: "Mon, 20 Jul 2020 11:50:00 GMT")),
            InMemoryTransport.status(304, "", headers: Self.validity(expires: "Mon, 20 Jul 2020 12:30:00 GMT")))
        network.route("/v1/search", InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-geocoding-berlin")))
        let clock = ManualClock(start: try OfficialFixture.time("2020-07-20T11:20:00Z"))
        let directory = TemporaryDataDirectory()
        let service = try Self.service(network: network, directory: directory, clock: clock)
        do {
            try await Self.exercise(service, network: network, clock: clock)
        } catch {
            await service.stop()
            throw error
        }
        await service.stop()
    }

    /// Asks `service` for London's weather across the answer's Expires, and checks the answers, calls and events.
    static func exercise(_ service: InProcessWeatherd, network: InMemoryTransport, clock: ManualClock) async throws {
        let current = try await service.result("weather/current", Self.london)
        #expect(current["provider"] == "met-norway")
        #expect(current["attribution"] == .string(MetNorwayProvider.attribution))
        #expect(current["current"]?["temperature"] == 18.8)
        #expect(current["current"]?["condition"]?["code"] == 0)
        #expect(current["location"]?["timezone"] == "Europe/London")
        #expect(current["location"]?["utcOffsetSeconds"] == 3600)

        let forecast = try await service.result("weather/forecast", Self.london.merging(["type": "hourly"]))
        #expect(forecast["provider"] == "met-norway")
        #expect(forecast["attribution"] == .string(MetNorwayProvider.attribution))
        let days = try #require(forecast["daily"]?.arrayValue)
        #expect(days.first?["date"] == "2020-07-20")
        #expect(days.count >= 9)
        #expect(forecast["entries"]?.arrayValue?.first?["time"] == "2020-07-20T11:00:00.000Z")
        #expect(network.requests.count == 2, "current and forecast are fetched and cached apart")

        let request = try #require(network.received.first)
        #expect(request.url == "http://met.test\(Self.path)?lat=51.5&lon=-0.1")
        #expect(request.headers["User-Agent"] == "weatherd/\(Engine.version) (tests@weatherd.test)")
        #expect(request.headers["If-Modified-Since"] == nil)

        // Twenty minutes on, before the answer's Expires (11:50): even asking for fresh data makes no call.
        clock.advance(by: .seconds(20 * 60))
        let again = try await service.result("weather/current", Self.london.merging(["maxAgeSeconds": 0]))
        #expect(again["source"] == "cache")
        let forecastAgain = try await service.result("weather/forecast", Self.london.merging(["maxAgeSeconds": 0]))
        #expect(forecastAgain["source"] == "cache")
        #expect(network.requests.count == 2, "no request before Expires")

        // After it, the call asks with the exact Last-Modified; a 304 keeps the forecast.
        clock.advance(by: .seconds(15 * 60))
        let confirmed = try await service.result("weather/forecast", Self.london.merging(["maxAgeSeconds": 0]))
        #expect(network.requests.count == 3)
        #expect(network.received.last?.headers["If-Modified-Since"] == Self.lastModified)
        #expect(confirmed["daily"] == forecastAgain["daily"])

        // Cities are searched with Open-Meteo's geocoding, audited under its name.
        _ = try await service.result("cities/search", ["query": "Berlin"])
        let geocoded = try await OfficialFixture.events(service, ["geocode.fetched"])
        #expect(geocoded.first?["data"]?["provider"] == "open-meteo")

        let fetched = try await OfficialFixture.events(service, ["weather.fetched"])
        #expect(fetched.count == 2)
        let schema = try JSONSchema(contentsOf: "\(OfficialFixture.schemas)/weather.fetched.v1.json")
        for event in fetched {
            #expect(event["data"]?["provider"] == "met-norway")
            let data = try #require(event["data"])
            #expect(schema.validate(data) == [])
        }
        #expect(try await OfficialFixture.events(service, ["upstream.not_modified"]).count == 1)
    }
}

extension JSONValue {
    /// This object with `other`'s members added.
    fileprivate func merging(_ other: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members.merge(other) { _, new in new }
        return .object(members)
    }
}
