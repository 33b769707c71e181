import EventLog
import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

/// Recorded bodies of the official sources, read from the providers' fixtures.
enum OfficialFixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let schemas = root.appendingPathComponent("Events/schemas").path

    static func bytes(_ name: String, ext: String = "json") throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent("Tests/ProvidersTests/Fixtures/\(name).\(ext)")))
    }

    /// A network serving Bosnia and Herzegovina's feed of synthetic updates, and a clock at the time its
    /// Sarajevo warnings are in force.
    static func sarajevoFeed() throws -> (InMemoryTransport, ManualClock) {
        let network = InMemoryTransport()
        network.route(
            "/api/v1/warnings/feeds-bosnia-herzegovina", InMemoryTransport.ok(try bytes("meteoalarm-feed-updates")))
        return (network, ManualClock(start: try time(sarajevoTime)))
    }

    /// The MeteoAlarm feed of synthetic updates with only the warnings at `indices`, in that order.
    static func updatesFeed(_ indices: [Int]) throws -> [UInt8] {
        let feed = try JSONValue.parse(try bytes("meteoalarm-feed-updates"))
        let warnings = feed["warnings"]?.arrayValue ?? []
        return JSONValue.object(["warnings": .array(indices.map { warnings[$0] })]).jsonBytes
    }

    static func time(_ text: String) throws -> Timestamp {
        try #require(Timestamp(rfc3339: text), "bad test time \(text)")
    }

    static let heatID = "urn:oid:2.49.0.1.840.0.505a7220d91b00eb1d75a3fb4f339f825496a522.004.1"
    static let airQualityAlertID = "urn:oid:2.49.0.1.840.0.32b8fe5b1e8094248fdbb7a32619581ec4e1df14.001.1"
    static let sarajevoWind = "2.49.0.0.70.0.BA.240106080000.10000001"
    static let sarajevoWindUpdate = "2.49.0.0.70.0.BA.240106120000.10000002"
    /// Phoenix, between the heat warning's sending and its end.
    static let phoenixTime = "2024-07-18T21:00:00Z"
    /// Sarajevo, after the wind warning's update and before it expires.
    static let sarajevoTime = "2024-01-07T00:00:00Z"

    static var quick: FetchPolicy { .inProcess }

    /// A new data dir holding `directory`'s log as its one sealed segment, which compaction may rewrite
    /// (call it off the cooperative pool: it copies the whole log).
    static func sealedCopy(of directory: TemporaryDataDirectory) throws -> TemporaryDataDirectory {
        let segments = TemporaryDataDirectory()
        try DataDirectory(path: segments.path).create()
        try FileManager.default.copyItem(
            atPath: directory.logPath, toPath: segments.path + "/" + LogFiles.segmentName(1))
        return segments
    }

    static func events(_ service: InProcessWeatherd, _ types: [String]) async throws -> [JSONValue] {
        let result = try await service.result("events/query", ["types": .array(types.map { .string($0) })])
        return result["events"]?.arrayValue ?? []
    }
}

@Suite("Official warnings and air quality through the fetch path, in process")
struct OfficialSourcesTests {
    @Test("warnings/list for a US place: NWS asked with a User-Agent naming weatherd and the contact, audited")
    func nws() async throws {
        let network = InMemoryTransport()
        network.route("/alerts/active", InMemoryTransport.ok(try OfficialFixture.bytes("nws-alerts-point-phoenix-az")))
        let clock = ManualClock(start: try OfficialFixture.time(OfficialFixture.phoenixTime))
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            _ = try await service.result(
                "favorites/add", ["name": "Phoenix", "lat": 33.45, "lon": -112.07, "country": "US"])
            let answer = try await service.result("warnings/list", ["favorite": "Phoenix"])
            #expect(
                answer["warnings"]?.arrayValue?.map { $0["id"] }
                    == [.string(OfficialFixture.heatID), .string(OfficialFixture.airQualityAlertID)])
            #expect(answer["source"] == "nws")
            #expect(answer["attribution"] == "National Weather Service")
            #expect(answer["stale"] == false)
            #expect(answer["fetchedAt"] == .string(clock.timestamp.description))
            #expect(
                answer["warnings"]?.arrayValue?.first?["headline"]?.stringValue?.hasPrefix("Excessive Heat Warning")
                    == true)

            let request = try #require(network.received.first)
            #expect(request.url == "http://nws.test/alerts/active?point=33.45,-112.07")
            #expect(request.headers["User-Agent"] == "weatherd/\(Engine.version) (tests@weatherd.test)")
            #expect(request.headers["Accept"] == "application/geo+json")

            let again = try await service.result("warnings/list", ["lat": 33.45, "lon": -112.07])
            #expect(again["warnings"] == answer["warnings"], "the coordinates of the favorite name its country")
            #expect(network.requests.count == 1, "the second answer came from the cache")
            let fetched = try await OfficialFixture.events(service, ["warnings.fetched"])
            #expect(fetched.count == 1)
            #expect(fetched.first?["data"]?["provider"] == "nws")
            #expect(fetched.first?["data"]?["key"] == "33.45,-112.07")
            #expect(fetched.first?["data"]?["status"] == 200)
        }
    }

    @Test("MeteoAlarm: the place's region only, the update instead of what it replaced, nothing cancelled")
    func meteoAlarm() async throws {
        let (network, clock) = try OfficialFixture.sarajevoFeed()
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            _ = try await service.result(
                "favorites/add", ["name": "Sarajevo", "lat": 43.86, "lon": 18.41, "country": "BA"])
            _ = try await service.result(
                "favorites/add", ["name": "Tuzla", "lat": 44.54, "lon": 18.67, "country": "BA"])
            _ = try await service.result(
                "favorites/add", ["name": "Istočno", "lat": 43.82, "lon": 18.36, "country": "BA"])
            let sarajevo = try await service.result("warnings/list", ["favorite": "Sarajevo"])
            #expect(sarajevo["warnings"]?.arrayValue?.map { $0["id"] } == [.string(OfficialFixture.sarajevoWindUpdate)])
            #expect(sarajevo["warnings"]?.arrayValue?.first?["severity"] == "Severe", "as CAP spells it")
            #expect(
                sarajevo["warnings"]?.arrayValue?.first?["language"] == "en",
                "one language: English where the sender gives it")
            #expect(sarajevo["attribution"] == "EUMETNET – MeteoAlarm")
            #expect(sarajevo["source"] == "meteoalarm")
            let tuzla = try await service.result("warnings/list", ["favorite": "Tuzla"])
            #expect(tuzla["warnings"] == [], "Tuzla's warning was cancelled")
            let istocno = try await service.result("warnings/list", ["favorite": "Istočno"])
            #expect(istocno["warnings"] == [], "Sarajevo's warning is not Istočno Sarajevo's, nor the reverse")
            #expect(network.requests == ["http://meteoalarm.test/api/v1/warnings/feeds-bosnia-herzegovina"])
            let fetched = try await OfficialFixture.events(service, ["warnings.fetched"])
            #expect(fetched.first?["data"]?["key"] == "BA")
        }
    }

    @Test("--warnings-language keeps a warning in the configured language where the sender gives it")
    func configuredLanguage() async throws {
        let (network, clock) = try OfficialFixture.sarajevoFeed()
        let service = try InProcessWeatherd(
            directory: TemporaryDataDirectory(), clock: clock, network: network, fetch: OfficialFixture.quick,
            warningsLanguage: "bs")
        _ = try await service.result(
            "favorites/add", ["name": "Sarajevo", "lat": 43.86, "lon": 18.41, "country": "BA"])
        let sarajevo = try await service.result("warnings/list", ["favorite": "Sarajevo"])
        await service.stop()
        let warning = try #require(sarajevo["warnings"]?.arrayValue?.first)
        #expect(warning["id"] == .string(OfficialFixture.sarajevoWindUpdate))
        #expect(warning["language"]?.stringValue?.hasPrefix("bs") == true, "the Bosnian text, not the English one")
        #expect(
            try Configuration.parse(["--warnings-language", "fr-BE"], environment: [:]).warningsLanguage == "fr-BE")
        #expect(throws: ConfigurationError.self) {
            try Configuration.parse(["--warnings-language", "fr BE"], environment: [:])
        }
    }

    @Test("a place no source covers gets an empty list, covered false and the reason, and no warnings call")
    func outsideCoverage() async throws {
        let network = InMemoryTransport()
        network.route("/points/-45,-120", InMemoryTransport.status(404, #"{"title":"Data Unavailable"}"#))
        network.route(
            "/sources/area_status",
            InMemoryTransport.ok(
                Array(
                    #"{"results":[{"name":"Tonga: TMS","source_is_official":false,"cap_alert_feed_status":"not reachable","authorityCountry":"to"}]}"#
                        .utf8)))
        network.route("/alert/area", InMemoryTransport.ok(Array("[]".utf8)))
        try await InProcessWeatherd.with(network: network) { service in
            _ = try await service.result(
                "favorites/add", ["name": "Nukuʻalofa", "lat": -21.14, "lon": -175.2, "country": "TO"])
            let tonga = try await service.result("warnings/list", ["favorite": "Nukuʻalofa"])
            #expect(tonga["warnings"] == [])
            #expect(tonga["stale"] == false)
            #expect(tonga["source"] == nil)
            #expect(tonga["covered"] == false)
            #expect(tonga["coverage"]?.stringValue?.contains("No official warnings for TO: no source") == true)
            #expect(
                network.requests == ["http://fpas.test/sources/area_status?country_codes=to"],
                "the aggregator's feeds asked, no alerts")
            // Far out at sea, no country is known: the aggregator is asked, and its empty answer is no all-clear.
            let nowhere = try await service.result("warnings/list", ["lat": -45.0, "lon": -120.0])
            #expect(nowhere["warnings"] == [])
            #expect(nowhere["source"] == "fpas")
            #expect(nowhere["covered"] == false)
            #expect(nowhere["coverage"]?.stringValue?.contains("not an all-clear") == true)
            #expect(
                Array(network.requests.dropFirst())
                    == [
                        "http://nws.test/points/-45,-120",
                        "http://fpas.test/alert/area?min_lat=-45.02&max_lat=-44.98&min_lon=-120.02&max_lon=-119.98",
                    ])
        }
    }

    @Test("warnings: when the source is down, the last set is served stale with its fetchedAt; every attempt audited")
    func staleWarnings() async throws {
        let network = InMemoryTransport()
        network.route(
            "/alerts/active", InMemoryTransport.ok(try OfficialFixture.bytes("nws-alerts-point-phoenix-az")),
            .failure(TransportError(.offline, "connection refused")))
        let clock = ManualClock(start: try OfficialFixture.time(OfficialFixture.phoenixTime))
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            let place: JSONValue = ["city": "Phoenix"]
            network.route(
                "/v1/search",
                InMemoryTransport.ok(OpenMeteoBodies.geocode([("Phoenix", "US", "Arizona", 33.45, -112.07)])))
            let first = try await service.result("warnings/list", place)
            #expect(first["stale"] == false)
            clock.advance(milliseconds: 5 * 60_000)
            let stale = try await service.result("warnings/list", place)
            #expect(stale["stale"] == true)
            #expect(stale["fetchedAt"] == first["fetchedAt"])
            #expect(stale["warnings"] == first["warnings"])
            let failures = try await OfficialFixture.events(service, ["weather.fetch_failed"])
            #expect(failures.count == 3)
            #expect(
                failures.allSatisfy {
                    $0["data"]?["kind"] == "warnings" && $0["data"]?["provider"] == "nws"
                        && $0["data"]?["error"] == "offline"
                })
        }
    }

    @Test("weather/airQuality: now and the next 24 hours from Open-Meteo; stale with its fetchedAt when it is down")
    func airQuality() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/air-quality", InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-airquality-vienna-pollen")),
            .failure(TransportError(.offline, "connection refused")))
        let clock = ManualClock(start: try OfficialFixture.time("2025-05-10T12:30:00Z"))
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            let vienna: JSONValue = ["lat": 48.2, "lon": 16.4]
            let answer = try await service.result("weather/airQuality", vienna)
            let current = try #require(answer["current"])
            #expect(current["europeanAqi"] == 38.0)
            #expect(current["europeanAqiLevel"] == "fair")
            #expect(current["usAqi"] == 52.0)
            #expect(current["pm2_5"] == 9.4)
            #expect(current["grassPollen"] == 41.0)
            #expect(current["olivePollen"] == nil, "a value the source lacks is absent, never 0")
            let hourly = try #require(answer["hourly"]?.arrayValue)
            #expect(hourly.count == 24)
            #expect(hourly.first?["time"] == "2025-05-10T12:00:00.000Z", "from the hour holding now")
            #expect(answer["source"] == "network")
            #expect(answer["stale"] == false)
            #expect(answer["provider"] == "open-meteo")
            #expect(
                network.requests.first?.hasPrefix("http://aq.test/v1/air-quality?latitude=48.2&longitude=16.4") == true)

            clock.advance(milliseconds: 30 * 60_000)
            let cached = try await service.result("weather/airQuality", vienna)
            #expect(cached["source"] == "cache", "an hour's cache")
            clock.advance(milliseconds: 31 * 60_000)
            let stale = try await service.result("weather/airQuality", vienna)
            #expect(stale["stale"] == true)
            #expect(stale["fetchedAt"] == answer["fetchedAt"])
            #expect(stale["current"] == answer["current"])
            #expect(stale["hourly"]?.arrayValue?.first?["time"] == "2025-05-10T13:00:00.000Z", "past hours drop")
            let fetched = try await OfficialFixture.events(service, ["air_quality.fetched"])
            #expect(fetched.count == 1)
            #expect(fetched.first?["data"]?["kind"] == "air_quality")
            let failures = try await OfficialFixture.events(service, ["weather.fetch_failed"])
            #expect(failures.count == 3)
            #expect(failures.allSatisfy { $0["data"]?["kind"] == "air_quality" })
        }
    }

    @Test("weather/airQuality: a variable in a unit weatherd does not know is left out, with a warning in the event")
    func airQualityOddUnit() async throws {
        var body = try JSONValue.parse(try OfficialFixture.bytes("openmeteo-airquality-vienna-pollen"))
        guard case .object(var top) = body, case .object(var units)? = top["current_units"] else {
            Issue.record("the fixture has current_units")
            return
        }
        units["pm2_5"] = "ppm"
        top["current_units"] = .object(units)
        body = .object(top)
        let network = InMemoryTransport()
        network.route("/v1/air-quality", InMemoryTransport.ok(body.jsonBytes))
        let clock = ManualClock(start: try OfficialFixture.time("2025-05-10T12:30:00Z"))
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            let answer = try await service.result("weather/airQuality", ["lat": 48.2, "lon": 16.4])
            #expect(answer["current"]?["pm2_5"] == nil, "left out")
            #expect(answer["current"]?["europeanAqi"] == 38.0, "the rest is answered")
            #expect(answer["hourly"]?.arrayValue?.first?["pm2_5"] != nil, "the hours' own unit was known")
            let fetched = try await OfficialFixture.events(service, ["air_quality.fetched"])
            #expect(
                fetched.first?["data"]?["warnings"]
                    == ["$.current_units.pm2_5 is an unknown concentration unit \"ppm\": pm2_5 left out"])
        }
    }

    @Test("after a restart, warnings and air quality come from the cache rebuilt from the log; state/verify holds")
    func restart() async throws {
        let directory = TemporaryDataDirectory()
        let clock = ManualClock(start: try OfficialFixture.time(OfficialFixture.sarajevoTime))
        let network = InMemoryTransport()
        network.route(
            "/api/v1/warnings/feeds-bosnia-herzegovina",
            InMemoryTransport.ok(try OfficialFixture.bytes("meteoalarm-feed-updates")))
        network.route(
            "/v1/air-quality", InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-airquality-forli-current")))
        let first = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, fetch: OfficialFixture.quick)
        _ = try await first.result("favorites/add", ["name": "Sarajevo", "lat": 43.86, "lon": 18.41, "country": "BA"])
        let warnings = try await first.result("warnings/list", ["favorite": "fav-1"])
        let air = try await first.result("weather/airQuality", ["favorite": "fav-1"])
        #expect(try await first.result("state/verify")["ok"] == true)
        await first.stop()

        let offline = InMemoryTransport()
        let second = try InProcessWeatherd(
            directory: directory, clock: clock, network: offline, fetch: OfficialFixture.quick)
        let replayedWarnings = try await second.result("warnings/list", ["favorite": "fav-1"])
        #expect(replayedWarnings["warnings"] == warnings["warnings"])
        #expect(replayedWarnings["fetchedAt"] == warnings["fetchedAt"])
        let replayedAir = try await second.result("weather/airQuality", ["favorite": "fav-1"])
        #expect(replayedAir["current"] == air["current"])
        #expect(replayedAir["source"] == "cache")
        #expect(offline.requests.isEmpty, "both served from the rebuilt cache")
        #expect(try await second.result("state/verify")["ok"] == true)
        await second.stop()
    }

    @Test("the new events and failures match their schemas, as the independent log checker reads them")
    func schemas() async throws {
        let directory = TemporaryDataDirectory()
        let network = InMemoryTransport()
        network.route("/alerts/active", InMemoryTransport.ok(try OfficialFixture.bytes("nws-alerts-point-phoenix-az")))
        network.route(
            "/api/v1/warnings/feeds-bosnia-herzegovina",
            InMemoryTransport.ok(try OfficialFixture.bytes("meteoalarm-feed-bosnia-herzegovina")))
        network.route(
            "/v1/air-quality", InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-airquality-tokyo-pollen-null"))
        )
        network.route("/api/v1/warnings/feeds-germany", .failure(TransportError(.offline, "refused")))
        let clock = ManualClock(start: try OfficialFixture.time("2024-01-07T12:00:00Z"))
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, fetch: OfficialFixture.quick)
        _ = try await service.result(
            "favorites/add", ["name": "Banja Luka", "lat": 44.77, "lon": 17.19, "country": "BA"])
        _ = try await service.result(
            "favorites/add", ["name": "Phoenix", "lat": 33.45, "lon": -112.07, "country": "US"])
        _ = try await service.result("favorites/add", ["name": "Köln", "lat": 50.94, "lon": 6.96, "country": "DE"])
        let banjaLuka = try await service.result("warnings/list", ["favorite": "Banja Luka"])
        #expect((banjaLuka["warnings"]?.arrayValue?.count ?? 0) > 0)
        _ = try await service.result("warnings/list", ["favorite": "Phoenix"])
        _ = try await service.call("warnings/list", ["favorite": "Köln"])
        _ = try await service.result("weather/airQuality", ["lat": 35.68, "lon": 139.69])
        await service.stop()
        let summary = try await onThread {
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: directory.path)
        }
        #expect(summary.types["warnings.fetched"] == 2)
        #expect(summary.types["air_quality.fetched"] == 1)
        #expect(summary.types["weather.fetch_failed"] == 3)

        for type in ["warnings.fetched", "air_quality.fetched", "weather.fetch_failed"] {
            let schema = try JSONSchema(contentsOf: "\(OfficialFixture.schemas)/\(type).v1.json")
            let examples = try #require(schema.document["examples"]?.arrayValue)
            #expect(!examples.isEmpty)
            for example in examples { #expect(schema.validate(example) == [], "\(type) example") }
        }
    }

    @Test("compaction strips replaced warnings and air-quality payloads; the log replays to the same state and checks")
    func compaction() async throws {
        let directory = TemporaryDataDirectory()
        let network = InMemoryTransport()
        network.route("/alerts/active", InMemoryTransport.ok(try OfficialFixture.bytes("nws-alerts-point-phoenix-az")))
        network.route(
            "/v1/air-quality", InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-airquality-forli-current")))
        let clock = ManualClock(start: try OfficialFixture.time(OfficialFixture.phoenixTime))
        let service = try InProcessWeatherd(directory: directory, clock: clock, network: network)
        _ = try await service.result(
            "favorites/add", ["name": "Phoenix", "lat": 33.45, "lon": -112.07, "country": "US"])
        for _ in 0..<3 {
            _ = try await service.result("warnings/list", ["favorite": "Phoenix"])
            _ = try await service.result("weather/airQuality", ["favorite": "Phoenix"])
            clock.advance(milliseconds: 61 * 60_000)
        }
        await service.stop()
        try await onThread {
            let segments = try OfficialFixture.sealedCopy(of: directory)
            let state = try Replay.run(directory: segments.path, commandWindow: 100_000).state
            let report = try LogMaintenance.compact(
                directory: segments.path, retainPayloads: .zero, now: clock.timestamp)
            #expect(report.eventsStripped == 4, "two of three warnings and two of three air-quality payloads")
            let compacted = try Replay.run(directory: segments.path, commandWindow: 100_000).state
            #expect(compacted.json == state.json)
            #expect(compacted.cache.warnings.count == 1)
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: segments.path)
        }
    }

    @Test("the golden log of the official events replays to a state that a snapshot stores exactly")
    func goldenSnapshot() async throws {
        let golden = OfficialFixture.root.appendingPathComponent("Events/golden/v2-official.jsonl").path
        let state = try Replay.run(path: golden, commandWindow: 100_000).state
        #expect(state.cache.warnings.count == 2)
        #expect(state.cache.airQuality.count == 2)
        #expect(state.alerts.raised.contains("43.86,18.41|official|2.49.0.0.70.0.BA.1|severe"))
        #expect(state.alerts.settings.airQualityLevel == .moderate)
        let restored = try WeatherState(
            snapshot: try JSONValue.parse(state.snapshotJSON.jsonBytes), commandWindow: 100_000)
        #expect(restored == state)
    }
}
