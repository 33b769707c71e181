import EventLog
import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

/// The stand-ins of Bright Sky and the FOSS Public Alert Server, with the recorded answers.
enum WorldFixture {
    static let weiherhammer: JSONValue = ["name": "Weiherhammer", "lat": 49.63, "lon": 12.06, "country": "DE"]
    static let kokpekti: JSONValue = ["name": "Kokpekti", "lat": 48.75, "lon": 82.37, "country": "KZ"]
    /// Strong heat in Weiherhammer is in force.
    static let heatTime = "2023-08-22T10:00:00Z"
    /// Freezing rain in Kokpekti is in force.
    static let freezingTime = "2025-03-06T16:00:00Z"
    static let kokpektiDoc = "0c7c4a6e-1d2f-4a7b-9c3e-5f6a7b8c9d01"
    static let elsewhereDoc = "0c7c4a6e-1d2f-4a7b-9c3e-5f6a7b8c9d02"
    static let geocodedDoc = "0c7c4a6e-1d2f-4a7b-9c3e-5f6a7b8c9d03"
    static let cancelDoc = "0c7c4a6e-1d2f-4a7b-9c3e-5f6a7b8c9d04"
    static let hostileDoc = "0c7c4a6e-1d2f-4a7b-9c3e-5f6a7b8c9d05"
    static let kazhydrometID = "2.49.0.0.398.0-20250306-133701-0284797-00-EN"

    static func feeds(_ country: String, _ status: String = "operating") -> InMemoryTransport.Reply {
        InMemoryTransport.ok(
            Array(
                #"{"results":[{"name":"\#(country) service","source_is_official":true,"cap_alert_feed_status":"\#(status)","authorityCountry":"\#(country.lowercased())"}]}"#
                    .utf8))
    }

    static func ids(_ ids: [String]) -> InMemoryTransport.Reply {
        InMemoryTransport.ok(JSONValue.array(ids.map { .string($0) }).jsonBytes)
    }

    /// A network where the aggregator relays Kazakhstan's feed and lists, around Kokpekti, Kazhydromet's warning
    /// (its polygon holds the town), one whose polygon is elsewhere, and one given only by a geocode.
    static func kokpektiNetwork() throws -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route("/sources/area_status", feeds("KZ"))
        network.route("/alert/area", ids([kokpektiDoc, elsewhereDoc, geocodedDoc]))
        network.route(
            "/alert/\(kokpektiDoc)",
            InMemoryTransport.ok(
                try OfficialFixture.bytes("kazhydromet-cap-freezing-rain-kokpekti-20250306", ext: "xml")))
        var elsewhere = CAPSamples.Info()
        elsewhere.polygons = [CAPSamples.square(lat: 48.75, lon: 84.0, half: 0.5)]
        elsewhere.expires = "2025-03-07T16:00:00+00:00"
        network.route(
            "/alert/\(elsewhereDoc)",
            InMemoryTransport.ok(Array(CAPSamples.document(identifier: "elsewhere-1", infos: [elsewhere]).utf8)))
        var geocoded = CAPSamples.Info()
        geocoded.event = "Avalanche danger"
        geocoded.senderName = "Kazakhstan Emergency Committee"
        geocoded.geocodes = [("KZSTD", "304")]
        geocoded.expires = "2025-03-07T16:00:00+00:00"
        network.route(
            "/alert/\(geocodedDoc)",
            InMemoryTransport.ok(Array(CAPSamples.document(identifier: "geocoded-1", infos: [geocoded]).utf8)))
        return network
    }
}

@Suite("Official warnings for more of the world: Bright Sky and the FOSS Public Alert Server, in process")
struct WorldWarningsTests {
    @Test("Germany by municipality through Bright Sky, not MeteoAlarm: CAP's spelling, the cell, one language")
    func brightSky() async throws {
        let network = InMemoryTransport()
        network.route(
            "/alerts",
            InMemoryTransport.ok(try OfficialFixture.bytes("brightsky-alerts-weiherhammer-strong-heat-20230822")))
        let clock = ManualClock(start: try OfficialFixture.time(WorldFixture.heatTime))
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, fetch: OfficialFixture.quick)
        _ = try await service.result("favorites/add", WorldFixture.weiherhammer)
        let answer = try await service.result("warnings/list", ["favorite": "Weiherhammer"])
        let fetched = try await OfficialFixture.events(service, ["warnings.fetched"])
        await service.stop()
        #expect(answer["source"] == "brightsky")
        #expect(answer["covered"] == true)
        #expect(answer["attribution"] == "Deutscher Wetterdienst (DWD), via Bright Sky")
        let warning = try #require(answer["warnings"]?.arrayValue?.first)
        #expect(answer["warnings"]?.arrayValue?.count == 1, "one language of the two")
        #expect(warning["language"] == "en")
        #expect(warning["severity"] == "Minor")
        #expect(warning["urgency"] == "Immediate")
        #expect(warning["certainty"] == "Likely")
        #expect(warning["matchedBy"] == "cell")
        #expect(warning["sender"] == "Deutscher Wetterdienst")
        #expect(network.requests == ["http://brightsky.test/alerts?lat=49.63&lon=12.06"], "no MeteoAlarm call")
        #expect(fetched.first?["v"] == 2)
        #expect(fetched.first?["data"]?["source"] == "brightsky")
        #expect(fetched.first?["data"]?["key"] == "49.63,12.06")
        let summary = try await onThread {
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: directory.path)
        }
        #expect(summary.types["warnings.fetched"] == 1)
    }

    @Test("--warnings-language de gives Bright Sky's German texts")
    func brightSkyGerman() async throws {
        let network = InMemoryTransport()
        network.route(
            "/alerts",
            InMemoryTransport.ok(try OfficialFixture.bytes("brightsky-alerts-weiherhammer-strong-heat-20230822")))
        let service = try InProcessWeatherd(
            directory: TemporaryDataDirectory(),
            clock: ManualClock(start: try OfficialFixture.time(WorldFixture.heatTime)),
            network: network, fetch: OfficialFixture.quick, warningsLanguage: "de")
        _ = try await service.result("favorites/add", WorldFixture.weiherhammer)
        let answer = try await service.result("warnings/list", ["favorite": "Weiherhammer"])
        await service.stop()
        #expect(answer["warnings"]?.arrayValue?.map { $0["event"] } == ["STARKE HITZE"])
    }

    @Test("a German place Bright Sky has no cell for is handed to the aggregator, and remembered for 30 days")
    func handOff() async throws {
        let network = InMemoryTransport()
        network.route(
            "/alerts", InMemoryTransport.status(404, #"{"detail":"Requested position is not covered by the DWD"}"#))
        network.route("/sources/area_status", WorldFixture.feeds("DE"))
        network.route("/alert/area", WorldFixture.ids([]))
        let clock = ManualClock(start: try OfficialFixture.time(WorldFixture.heatTime))
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, fetch: OfficialFixture.quick)
        _ = try await service.result("favorites/add", ["name": "Offshore", "lat": 54.5, "lon": 7.0, "country": "DE"])
        let answer = try await service.result("warnings/list", ["favorite": "Offshore"])
        #expect(answer["source"] == "fpas")
        #expect(answer["covered"] == true, "the aggregator relays DWD's feed")
        #expect(answer["warnings"] == [])
        #expect(
            network.requests == [
                "http://brightsky.test/alerts?lat=54.5&lon=7", "http://fpas.test/sources/area_status?country_codes=de",
                "http://fpas.test/alert/area?min_lat=54.48&max_lat=54.52&min_lon=6.98&max_lon=7.02",
            ])
        let fetched = try await OfficialFixture.events(service, ["warnings.fetched"])
        #expect(fetched.first?["data"]?["covered"] == false)
        #expect(fetched.first?["data"]?["status"] == 404)
        clock.advance(milliseconds: 3_600_000)
        _ = try await service.result("warnings/list", ["favorite": "Offshore"])
        #expect(
            network.requests.filter { $0.contains("brightsky") }.count == 1, "Bright Sky's 'not mine' is remembered")
        #expect(network.requests.filter { $0.contains("/alert/area") }.count == 2, "the aggregator's list is not")
        await service.stop()
        let summary = try await onThread {
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: directory.path)
        }
        #expect(summary.types["warnings.listed"] == 3)
    }

    @Test("the aggregator: the warnings whose shapes hold the place, by their own senders; each document read once")
    func aggregator() async throws {
        let network = try WorldFixture.kokpektiNetwork()
        let clock = ManualClock(start: try OfficialFixture.time(WorldFixture.freezingTime))
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, fetch: OfficialFixture.quick)
        _ = try await service.result("favorites/add", WorldFixture.kokpekti)
        let answer = try await service.result("warnings/list", ["favorite": "Kokpekti"])
        #expect(answer["source"] == "fpas")
        #expect(answer["covered"] == true)
        #expect(answer["attribution"]?.stringValue?.contains("in beta") == true)
        let warnings = answer["warnings"]?.arrayValue ?? []
        #expect(warnings.map { $0["id"] } == [.string(WorldFixture.kazhydrometID), "geocoded-1"])
        #expect(warnings.map { $0["matchedBy"] } == ["polygon", "area"], "the polygon elsewhere is left out")
        #expect(warnings.first?["sender"] == "kalmenova_a@meteo.kz", "the original sender, not the aggregator")
        #expect(warnings.first?["severity"] == "Moderate")
        #expect(warnings.first?["polygons"]?.arrayValue?.count == 1)
        #expect(answer["coverage"]?.stringValue?.contains("KZ service") == true)
        #expect(answer["problems"] == nil)
        #expect(network.requests.filter { $0.contains("/alert/0c7c") }.count == 3)

        clock.advance(milliseconds: 10 * 60_000)
        _ = try await service.result("warnings/list", ["favorite": "Kokpekti"])
        #expect(network.requests.filter { $0.contains("/alert/area") }.count == 2, "the list is asked again")
        #expect(network.requests.filter { $0.contains("/alert/0c7c") }.count == 3, "each document once")
        #expect(network.requests.filter { $0.contains("area_status") }.count == 1, "the feeds for a day")

        // A cancel arrives in a document of its own: the warning it withdraws is gone.
        var cancel = CAPSamples.Info()
        cancel.polygons = [CAPSamples.square(lat: 48.75, lon: 82.37)]
        network.route(
            "/alert/\(WorldFixture.cancelDoc)",
            InMemoryTransport.ok(
                Array(
                    CAPSamples.document(
                        identifier: "cancel-1", sender: "kalmenova_a@meteo.kz", sent: "2025-03-06T16:05:00+00:00",
                        msgType: "Cancel",
                        references: "kalmenova_a@meteo.kz,\(WorldFixture.kazhydrometID),2025-03-06T13:37:01-00:00",
                        infos: [cancel]
                    ).utf8)))
        network.route(
            "/alert/area",
            WorldFixture.ids([WorldFixture.kokpektiDoc, WorldFixture.geocodedDoc, WorldFixture.cancelDoc]))
        clock.advance(milliseconds: 10 * 60_000)
        let cancelled = try await service.result("warnings/list", ["favorite": "Kokpekti"])
        #expect(cancelled["warnings"]?.arrayValue?.map { $0["id"] } == ["geocoded-1"])
        let documents = try await OfficialFixture.events(service, ["warnings.fetched"])
        #expect(documents.count == 4)
        #expect(documents.last?["data"]?["warnings"]?.arrayValue?.first?["messageType"] == "cancel", "kept as issued")
        await service.stop()
        let summary = try await onThread {
            try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: directory.path)
        }
        #expect(summary.types["warnings.fetched"] == 4)
    }

    @Test("a hostile document is refused and named; the aggregator's other warnings are still answered")
    func hostileDocument() async throws {
        let network = try WorldFixture.kokpektiNetwork()
        network.route("/alert/area", WorldFixture.ids([WorldFixture.hostileDoc, WorldFixture.kokpektiDoc]))
        network.route("/alert/\(WorldFixture.hostileDoc)", InMemoryTransport.ok(Array(CAPSamples.billionLaughs.utf8)))
        let clock = ManualClock(start: try OfficialFixture.time(WorldFixture.freezingTime))
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            _ = try await service.result("favorites/add", WorldFixture.kokpekti)
            let answer = try await service.result("warnings/list", ["favorite": "Kokpekti"])
            #expect(answer["warnings"]?.arrayValue?.map { $0["id"] } == [.string(WorldFixture.kazhydrometID)])
            let problem = try #require(answer["problems"]?.arrayValue?.first?.stringValue)
            #expect(problem.contains(WorldFixture.hostileDoc))
            #expect(problem.contains("declares a DTD or entities"))
            let failures = try await OfficialFixture.events(service, ["weather.fetch_failed"])
            #expect(failures.count == 1, "a bad document is not retried")
            #expect(failures.first?["data"]?["kind"] == "warnings")
            #expect(failures.first?["data"]?["provider"] == "fpas")
            #expect(failures.first?["data"]?["error"] == "bad_upstream_response")
        }
    }

    @Test("a bare coordinate whose zone names Germany asks Bright Sky, which settles it")
    func zoneCandidate() async throws {
        let candidates = ZoneTable.system().countries(lat: 52.52, lon: 13.41)
        try #require(candidates.contains("DE"), "this machine's zone table: \(candidates)")
        let network = InMemoryTransport()
        network.route("/points/52.52,13.41", InMemoryTransport.status(404, #"{"title":"Data Unavailable"}"#))
        network.route(
            "/alerts", InMemoryTransport.ok(try OfficialFixture.bytes("brightsky-alerts-weiherhammer-empty-2023")))
        try await InProcessWeatherd.with(network: network, fetch: OfficialFixture.quick) { service in
            let answer = try await service.result("warnings/list", ["lat": 52.52, "lon": 13.41])
            #expect(answer["source"] == "brightsky")
            #expect(answer["covered"] == true)
            #expect(answer["warnings"] == [])
            #expect(answer["location"]?["country"] == "DE", "Bright Sky's cell names the country")
            #expect(
                network.requests == [
                    "http://nws.test/points/52.52,13.41", "http://brightsky.test/alerts?lat=52.52&lon=13.41",
                ], "one call to Bright Sky answers both whether and what")
        }
    }

    @Test("official alerts from the aggregator name their sender; the summary says the aggregator is in beta")
    func alerts() async throws {
        let network = try WorldFixture.kokpektiNetwork()
        let clock = ManualClock(start: try OfficialFixture.time(WorldFixture.freezingTime))
        let service = try InProcessWeatherd(
            directory: TemporaryDataDirectory(), clock: clock, network: network, fetch: OfficialFixture.quick,
            warningsInterval: .seconds(600))
        _ = try await service.result("favorites/add", WorldFixture.kokpekti)
        await clock.timerArmed(.seconds(600))
        clock.advance(by: .seconds(600))
        await clock.timerArmed(.seconds(600))
        let alerts = try await service.result("alerts/list")["alerts"]?.arrayValue ?? []
        let inForce = await service.engine.warningsInForce()
        await service.stop()
        let official = alerts.filter { $0["rule"] == "official" }
        #expect(official.count == 2)
        let freezing = try #require(
            official.first { $0["details"]?["warning"]?["id"] == .string(WorldFixture.kazhydrometID) })
        #expect(freezing["message"]?.stringValue?.hasPrefix("kalmenova_a@meteo.kz: Freezing rain, icing") == true)
        #expect(freezing["details"]?["attribution"]?.stringValue?.contains("in beta") == true)
        #expect(freezing["details"]?["warning"]?["severity"] == "Moderate")
        let place = try #require(inForce.places.first)
        #expect(place.checked)
        #expect(place.answer.coverage.source == .fpas)
        #expect(place.answer.warnings.count == 2, "the cache composes the same answer")
        #expect(place.answer.matches[WorldFixture.kazhydrometID] == "polygon")
    }
}
