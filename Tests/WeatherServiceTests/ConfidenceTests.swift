import EventLog
import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

/// Generated Ensemble API and multi-model bodies for Berlin, from local midnight of 2026-11-22.
enum ConfidenceFixture {
    static let berlin: [String: JSONValue] = ["lat": 52.52, "lon": 13.41]
    /// Sunday 22 November 2026, 10:30 in Berlin.
    static let now = "2026-11-22T09:30:00Z"
    /// Local midnight of 22 November in Berlin (UTC+1).
    static let midnight = Timestamp(milliseconds: 1_795_302_000_000)

    /// Member `m` at hour `h`: `m / 5` + the hour of day / 3 °C, so each day's members spread by 10 °C; the even
    /// members have 0.4 mm at 15:00; members 40 and up stop after 7 days, all after 15.
    static func temperature(_ member: Int, _ hour: Int) -> Double? {
        hour < (member >= 40 ? 7 * 24 : 15 * 24) ? Double(member) / 5 + Double(hour % 24) / 3 : nil
    }

    static func precipitation(_ member: Int, _ hour: Int) -> Double? {
        temperature(member, hour) == nil ? nil : member % 2 == 0 && hour % 24 == 15 ? 0.4 : 0
    }

    static func ensemble() -> [UInt8] {
        OpenMeteoBodies.ensemble(
            start: midnight, members: 50, days: 16, temperature: temperature, precipitation: precipitation)
    }

    /// The models: ECMWF and GFS agree, ICON runs 4 °C warm, GEM lacks day 2, the UK Met Office is absent.
    static func models() -> [UInt8] {
        OpenMeteoBodies.models(start: midnight, models: ModelComparison.defaultModels, days: 16) { model, day in
            switch model {
            case "ecmwf_ifs025": (8 + Double(day), 1, 0.5, 61)
            case "gfs_seamless": (8.5 + Double(day), 1.5, 1, 63)
            case "icon_seamless": (12 + Double(day), 5, 0, 3)
            case "gem_seamless": day == 1 ? nil : (7.5 + Double(day), 0.5, 2, 61)
            default: nil
            }
        }
    }

    static func network() -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route("/v1/ensemble", InMemoryTransport.ok(ensemble()))
        network.route("/v1/forecast", query: "models=", InMemoryTransport.ok(models()))
        network.route(
            "/v1/forecast", query: "hourly=",
            InMemoryTransport.ok(OpenMeteoBodies.forecast(start: midnight, hours: 96)))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 9)))
        return network
    }

    static func calls(_ network: InMemoryTransport, _ path: String) -> [String] {
        network.requests.filter { $0.contains(path) }
    }
}

@Suite("weather/confidence and weather/compareModels through the fetch path, on the manual clock")
struct ConfidenceTests {
    @Test("one ensemble call per place and model run, however many ask; the days from today, the next 48 hours")
    func perModelRun() async throws {
        let network = ConfidenceFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(ConfidenceFixture.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            var params = ConfidenceFixture.berlin
            let answer = try await service.result("weather/confidence", .object(params))
            params["days"] = 3
            let three = try await service.result("weather/confidence", .object(params))
            #expect(ConfidenceFixture.calls(network, "/v1/ensemble").count == 1, "one call, then the cache")
            let url = try #require(ConfidenceFixture.calls(network, "/v1/ensemble").first)
            #expect(
                url.hasPrefix("http://ensemble.test/v1/ensemble?latitude=52.52&longitude=13.41&models=ecmwf_ifs025&"))
            #expect(answer["model"] == "ecmwf_ifs025" && answer["method"] == "members" && answer["members"] == 51)
            #expect(three["days"]?.arrayValue?.count == 3 && three["source"] == "cache")
            let days = try #require(answer["days"]?.arrayValue)
            #expect(days.count == 15, "the 16th day lies past the model's horizon")
            #expect(days.first?["date"] == "2026-11-22")
            // Directly: on day 1 member m's high is m/5 + 23/3, its low m/5, the members 0…50.
            let highs = (0...50).map { Double($0) / 5 + 23.0 / 3 }
            let first = try #require(days.first)
            #expect(first["members"] == 51)
            #expect(first["high"]?["p10"]?.doubleValue == Rounding.round(highs[5], decimals: 2))
            #expect(first["high"]?["p50"]?.doubleValue == Rounding.round(highs[25], decimals: 2))
            #expect(first["low"]?["p90"]?.doubleValue == Rounding.round(Double(45) / 5, decimals: 2))
            #expect(first["wet"]?.doubleValue == Rounding.round(26.0 / 51, decimals: 2))
            #expect(first["label"] == "low", "a 10 °C band and half the members wet")
            #expect(days[7]["members"] == 40, "members 40 and up stop after 7 days")
            let hours = try #require(answer["hours"]?.arrayValue)
            #expect(hours.count == 48)
            #expect(hours.first?["time"] == "2026-11-22T09:00:00.000Z", "from the hour running now")
            #expect(answer["spread"]?.stringValue?.contains("not a calibrated probability") == true)

            clock.advance(milliseconds: 2 * 3_600_000)  // 11:30 UTC: the same 06–12 run window
            _ = try await service.result("weather/confidence", .object(ConfidenceFixture.berlin))
            #expect(ConfidenceFixture.calls(network, "/v1/ensemble").count == 1)
            clock.advance(milliseconds: 3_600_000)  // 12:30 UTC: the next run
            let later = try await service.result("weather/confidence", .object(ConfidenceFixture.berlin))
            #expect(ConfidenceFixture.calls(network, "/v1/ensemble").count == 2)
            #expect(later["hours"]?.arrayValue?.first?["time"] == "2026-11-22T12:00:00.000Z")
            let fetched = try await OfficialFixture.events(service, ["ensemble.fetched"])
            #expect(fetched.count == 2, "every call audited")
        }
    }

    @Test("the ensemble's base URL and model: flags, else the environment, else the defaults; a bad model refused")
    func options() throws {
        let defaults = try Configuration.parse([], environment: [:])
        #expect(defaults.openMeteoEnsembleBaseURL == "https://ensemble-api.open-meteo.com")
        #expect(defaults.ensembleModel == "ecmwf_ifs025")
        let environment = ["OPEN_METEO_ENSEMBLE_BASE_URL": "http://ensemble.env/"]
        let fromEnvironment = try Configuration.parse([], environment: environment)
        let sources = fromEnvironment.makeConfidenceSources(provider: OpenMeteoProvider())
        #expect(sources.ensemble.baseURL == "http://ensemble.env", "a trailing slash dropped")
        #expect(sources.model == "ecmwf_ifs025" && sources.metNorway == nil)
        let flags = try Configuration.parse(
            ["--open-meteo-ensemble-base-url", "http://ensemble.flag", "--ensemble-model=gfs025"],
            environment: environment)
        #expect(flags.openMeteoEnsembleBaseURL == "http://ensemble.flag" && flags.ensembleModel == "gfs025")
        #expect(UpstreamSettings(flags).baseURLs["ensemble"] == "http://ensemble.flag")
        #expect(flags.heldOptions["--ensemble-model"] == "gfs025", "the daemon holds it")
        for bad in [
            ["--ensemble-model", "ECMWF IFS"], ["--ensemble-model=x"], ["--open-meteo-ensemble-base-url", "nope"],
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try Configuration.parse(bad, environment: [:]) }
        }
    }

    @Test("in the reader's units; days outside 1…16 are refused before any call")
    func unitsAndRefusals() async throws {
        let network = ConfidenceFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(ConfidenceFixture.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            var params = ConfidenceFixture.berlin
            params["units"] = "imperial"
            let answer = try await service.result("weather/confidence", .object(params))
            let day = try #require(answer["days"]?.arrayValue?.first)
            #expect(day["high"]?["p50"]?.doubleValue == Rounding.round((5 + 23.0 / 3) * 9 / 5 + 32, decimals: 2))
            #expect(answer["units"]?["temperature"] == "°F")
            #expect(day["precipitation"]?["p90"]?.doubleValue == Rounding.round(0.4 / 25.4, decimals: 2))
            for days in [0, 17] {
                params["days"] = .int(Int64(days))
                let refused = try await service.call("weather/confidence", .object(params))
                #expect(refused["error"]?["code"] == -32602, "\(days)")
            }
            #expect(ConfidenceFixture.calls(network, "/v1/ensemble").count == 1)
        }
    }

    @Test("a forecast carries the cached spread: ± per day and a 10–90 % band per hour; none before it is cached")
    func forecastCarriesSpread() async throws {
        let network = ConfidenceFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(ConfidenceFixture.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            var params = ConfidenceFixture.berlin
            params["type"] = "hourly"
            let before = try await service.result("weather/forecast", .object(params))
            #expect(before["daily"]?.arrayValue?.contains { $0["spread"] != nil } == false)
            #expect(ConfidenceFixture.calls(network, "/v1/ensemble").isEmpty, "reading the forecast calls no ensemble")
            let confidence = try await service.result("weather/confidence", .object(ConfidenceFixture.berlin))
            let after = try await service.result("weather/forecast", .object(params))
            let day = try #require(after["daily"]?.arrayValue?.first)
            let spread = try #require(confidence["days"]?.arrayValue?.first)
            #expect(day["spread"]?["high"]?["p10"] == spread["high"]?["p10"])
            #expect(day["spread"]?["high"]?["p90"] == spread["high"]?["p90"])
            #expect(day["spread"]?["label"] == spread["label"])
            let hour = try #require(after["entries"]?.arrayValue?.first)
            let band = try #require(confidence["hours"]?.arrayValue?.first { $0["time"] == hour["time"] })
            #expect(hour["spread"]?["p10"] == band["temperature"]?["p10"])
            #expect(hour["spread"]?["p90"] == band["temperature"]?["p90"])
        }
    }

    @Test("models: the documented default set, never best_match; ranges, the furthest model, the missing ones")
    func compareModels() async throws {
        let network = ConfidenceFixture.network()
        let clock = ManualClock(start: try OfficialFixture.time(ConfidenceFixture.now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            var params = ConfidenceFixture.berlin
            params["days"] = 3
            let answer = try await service.result("weather/compareModels", .object(params))
            let url = try #require(ConfidenceFixture.calls(network, "models=").first)
            #expect(url.contains("models=ecmwf_ifs025,gfs_seamless,icon_seamless,gem_seamless,ukmo_seamless"))
            #expect(!url.contains("best_match"))
            #expect(answer["missingModels"] == ["ukmo_seamless"])
            let days = try #require(answer["days"]?.arrayValue)
            #expect(days.count == 3)
            #expect(days[0]["range"]?["high"]?["lowest"]?.doubleValue == 7.5)
            #expect(days[0]["range"]?["high"]?["highest"]?.doubleValue == 12)
            #expect(days[0]["furthest"]?["model"] == "icon_seamless")
            // Directly: ICON's high against the others' mean high (8, 8.5, 7.5), and its low against theirs.
            let by = abs(12 - (8 + 8.5 + 7.5) / 3) + abs(5 - (1 + 1.5 + 0.5) / 3)
            #expect(days[0]["furthest"]?["by"]?.doubleValue == Rounding.round(by, decimals: 2))
            #expect(days[1]["missing"] == ["gem_seamless", "ukmo_seamless"])
            _ = try await service.result("weather/compareModels", .object(params))
            #expect(ConfidenceFixture.calls(network, "models=").count == 1, "cached for the forecast's TTL")
            params["models"] = ["ecmwf_ifs025", "best_match"]
            let refused = try await service.call("weather/compareModels", .object(params))
            #expect(refused["error"]?["code"] == -32602)
            #expect(refused["error"]?["message"]?.stringValue?.contains("best_match") == true)
        }
    }

    @Test("the events of the confidence fetches match their schemas, as the independent log checker reads them")
    func schemas() async throws {
        let directory = TemporaryDataDirectory()
        let network = ConfidenceFixture.network()
        network.route("/v1/ensemble", query: "models=gfs025", .failure(TransportError(.offline, "refused")))
        let clock = ManualClock(start: try OfficialFixture.time(ConfidenceFixture.now))
        let service = try InProcessWeatherd(
            directory: directory, clock: clock, network: network, configure: { $0.ensembleModel = "gfs025" })
        let failed = try await service.call("weather/confidence", .object(ConfidenceFixture.berlin))
        #expect(failed["error"]?["data"]?["kind"] == "offline")
        _ = try await service.result("weather/compareModels", .object(ConfidenceFixture.berlin))
        await service.stop()
        let ensembleDirectory = TemporaryDataDirectory()
        let other = try InProcessWeatherd(directory: ensembleDirectory, clock: clock, network: network)
        _ = try await other.result("weather/confidence", .object(ConfidenceFixture.berlin))
        await other.stop()
        let (first, second) = try await onThread {
            (
                try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: directory.path),
                try LogCheck(schemasDirectory: OfficialFixture.schemas).check(dataDirectory: ensembleDirectory.path)
            )
        }
        #expect(first.types["models.fetched"] == 1)
        #expect((first.types["weather.fetch_failed"] ?? 0) >= 1)
        #expect(second.types["ensemble.fetched"] == 1)
        for type in ["ensemble.fetched", "models.fetched"] {
            let schema = try JSONSchema(contentsOf: "\(OfficialFixture.schemas)/\(type).v1.json")
            let examples = try #require(schema.document["examples"]?.arrayValue)
            for example in examples { #expect(schema.validate(example) == [], "\(type) example") }
        }
    }
}
