import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

/// Recorded nowcast bodies, and the Tromsø one with rain written into chosen steps.
enum NowcastFixture {
    static let metPath = "/weatherapi/nowcast/2.0/complete"
    /// Tromsø, two minutes into the recorded answer's first step (21:05Z).
    static let tromso: JSONValue = ["lat": 69.6827, "lon": 18.9427]
    static let tromsoTime = "2023-03-03T21:07:00Z"
    static let lastModified = "Fri, 03 Mar 2023 21:05:21 GMT"

    /// MET Norway's recorded Tromsø answer, with `rates` (mm/h) in its first steps and `coverage` as the radar's
    /// word.
    static func met(rates: [Double] = [], coverage: String = "ok") throws -> [UInt8] {
        var root = try JSONValue.parse(try OfficialFixture.bytes("metno-nowcast-complete-tromso-20230303"))
        guard case .object(var top) = root, case .object(var properties) = top["properties"],
            case .array(var series) = properties["timeseries"], case .object(var meta) = properties["meta"]
        else { throw FixtureError() }
        for (index, rate) in rates.enumerated() {
            guard case .object(var step) = series[index], case .object(var data) = step["data"],
                case .object(var instant) = data["instant"], case .object(var details) = instant["details"]
            else { throw FixtureError() }
            details["precipitation_rate"] = .double(rate)
            instant["details"] = .object(details)
            data["instant"] = .object(instant)
            step["data"] = .object(data)
            series[index] = .object(step)
        }
        meta["radar_coverage"] = .string(coverage)
        properties["meta"] = .object(meta)
        properties["timeseries"] = .array(series)
        top["properties"] = .object(properties)
        root = .object(top)
        return root.jsonBytes
    }

    /// Headers of a MET Norway answer fresh for `minutes` from `sent`.
    static func validity(expires: String) -> [String: String] {
        ["Expires": expires, "Last-Modified": lastModified]
    }

    struct FixtureError: Error {}
}

@Suite("weather/nowcast: sources in order, their terms kept, on the manual clock")
struct NowcastTests {
    @Test("MET Norway's radar answer: steps, summary and sentence; its User-Agent, coordinates and attribution")
    func metNorway() async throws {
        let network = InMemoryTransport()
        network.route(
            NowcastFixture.metPath, InMemoryTransport.ok(try NowcastFixture.met(rates: [0, 0, 0, 1.2, 1.6, 0.8])))
        let clock = ManualClock(start: try OfficialFixture.time(NowcastFixture.tromsoTime))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            let answer = try await service.result("weather/nowcast", NowcastFixture.tromso)
            #expect(answer["covered"] == true)
            #expect(answer["source"] == "met-norway")
            #expect(answer["resolution"] == 5)
            #expect(answer["native"] == true)
            #expect(answer["radarCoverage"] == "ok")
            #expect(answer["attribution"] == "Data from MET Norway (api.met.no), CC BY 4.0")
            let steps = try #require(answer["steps"]?.arrayValue)
            #expect(steps.first?["time"] == "2023-03-03T21:05:00.000Z", "from the step holding now")
            #expect(steps.count == 23)
            #expect(steps[3]["intensity"] == 1.2)
            #expect(answer["units"]?["intensity"] == "mm/h")
            let summary = try #require(answer["summary"])
            #expect(summary["state"] == "starting")
            #expect(summary["startsAt"] == "2023-03-03T21:20:00.000Z")
            #expect(summary["endsAt"] == "2023-03-03T21:35:00.000Z")
            #expect(summary["peak"] == 1.6)
            #expect(summary["category"] == "light")
            // Tromsø's clock: no weather was fetched for it, so UTC.
            #expect(summary["sentence"] == "Light precipitation starting in about 15 min, easing off around 21:35.")

            let request = try #require(network.received.first)
            // The place's key, as every call asks: rounded to 2 decimals (MET Norway allows at most 4).
            #expect(request.url == "http://met.test/weatherapi/nowcast/2.0/complete?lat=69.68&lon=18.94")
            #expect(request.headers["User-Agent"] == "weatherd/\(Engine.version) (tests@weatherd.test)")
            #expect(request.headers["If-Modified-Since"] == nil, "nothing cached to ask about")

            let imperial = try await service.result(
                "weather/nowcast", ["lat": 69.6827, "lon": 18.9427, "units": "imperial"])
            #expect(imperial["units"]?["intensity"] == "in/h")
            #expect(imperial["steps"]?.arrayValue?[3]["intensity"] == 0.05, "1.2 mm/h is 0.047 in/h")
            #expect(network.requests.count == 1, "the second answer came from the cache")
        }
    }

    @Test("Expires is waited for; then If-Modified-Since repeats Last-Modified exactly, and a 304 is audited")
    func conditional() async throws {
        let network = InMemoryTransport()
        let body = try NowcastFixture.met(rates: [0, 0, 0, 1.2])
        network.route(
            NowcastFixture.metPath,
            InMemoryTransport.ok(body, headers: NowcastFixture.validity(expires: "Fri, 03 Mar 2023 21:17:00 GMT")),
            InMemoryTransport.status(
                304, "", headers: NowcastFixture.validity(expires: "Fri, 03 Mar 2023 21:27:00 GMT")))
        let clock = ManualClock(start: try OfficialFixture.time(NowcastFixture.tromsoTime))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            let first = try await service.result("weather/nowcast", NowcastFixture.tromso)
            // Past weatherd's own 5-minute cadence, but before the answer's Expires (21:17).
            clock.advance(by: .seconds(8 * 60))
            let early = try await service.result("weather/nowcast", NowcastFixture.tromso)
            #expect(network.requests.count == 1, "no request before Expires")
            #expect(early["cached"] == true)
            clock.advance(by: .seconds(3 * 60))
            let confirmed = try await service.result("weather/nowcast", NowcastFixture.tromso)
            #expect(network.requests.count == 2)
            #expect(network.received.last?.headers["If-Modified-Since"] == NowcastFixture.lastModified)
            #expect(confirmed["summary"]?["state"] == "starting")
            #expect(confirmed["summary"]?["startsAt"] == "2023-03-03T21:20:00.000Z", "the cached steps, read at 21:18")
            #expect(confirmed["fetchedAt"] == .string(clock.timestamp.description), "confirmed now")
            #expect(confirmed["steps"]?.arrayValue?.first?["time"] == "2023-03-03T21:15:00.000Z")
            #expect(first["steps"]?.arrayValue?.count == 23)

            let fetched = try await OfficialFixture.events(service, ["nowcast.fetched"])
            #expect(fetched.count == 1, "the 304's body is not logged again")
            #expect(fetched.first?["data"]?["expires"] == "2023-03-03T21:17:00.000Z")
            #expect(fetched.first?["data"]?["lastModified"] == .string(NowcastFixture.lastModified))
            let notModified = try await OfficialFixture.events(service, ["upstream.not_modified"])
            #expect(notModified.count == 1)
            #expect(notModified.first?["data"]?["status"] == 304)
            #expect(notModified.first?["data"]?["kind"] == "nowcast")
            #expect(notModified.first?["data"]?["provider"] == "met-norway")
            #expect(notModified.first?["data"]?["expires"] == "2023-03-03T21:27:00.000Z")
            // The new Expires holds as well.
            clock.advance(by: .seconds(5 * 60))
            _ = try await service.result("weather/nowcast", NowcastFixture.tromso)
            #expect(network.requests.count == 2)
        }
    }

    @Test("Outside MET Norway's radar, Open-Meteo answers, its steps labelled interpolated; the reason is given")
    func noRadar() async throws {
        let network = InMemoryTransport()
        network.route(NowcastFixture.metPath, InMemoryTransport.ok(try NowcastFixture.met(coverage: "no coverage")))
        network.route(
            "/v1/forecast",
            InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-forecast-minutely15-enschede-trimmed")))
        // Within the recorded Open-Meteo answer: its steps end at 10:30Z–11:15Z.
        let clock = ManualClock(start: try OfficialFixture.time("2026-10-03T10:35:00Z"))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            let answer = try await service.result("weather/nowcast", NowcastFixture.tromso)
            #expect(answer["covered"] == true)
            #expect(answer["source"] == "open-meteo")
            #expect(
                answer["steps"]?.arrayValue?.map { $0["time"] } == [
                    "2026-10-03T10:30:00.000Z", "2026-10-03T10:45:00.000Z", "2026-10-03T11:00:00.000Z",
                ])
            #expect(answer["summary"]?["sentence"] == "No precipitation expected in the next 40 min.")
            #expect(answer["resolution"] == 15)
            #expect(answer["native"] == false, "Tromsø is outside ICON-D2's and HRRR's domains")
            #expect(answer["passedOver"]?.arrayValue?[0]["source"] == "met-norway")
            #expect(answer["passedOver"]?.arrayValue?[0]["reason"] == "its radar reports \"no coverage\" here")
            #expect(answer["passedOver"]?.arrayValue?[1]["source"] == "openweathermap")
            #expect(answer["attribution"] == "Weather data by Open-Meteo.com, CC BY 4.0")
            #expect(
                network.requests.last
                    == "http://weather.test/v1/forecast?latitude=69.68&longitude=18.94"
                    + "&minutely_15=precipitation,rain,snowfall&forecast_minutely_15=9&timezone=auto")
        }
    }

    @Test("A place no allowed source serves: a clear answer naming each source and why, and no call")
    func noSource() async throws {
        let network = InMemoryTransport()
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory, network: network) { configuration in
            configuration.nowcastSources = [.metNorway, .openWeatherMap]
        }
        let answer = try await service.result("weather/nowcast", ["lat": -0.18, "lon": -78.47])
        await service.stop()
        #expect(answer["covered"] == false)
        #expect(answer["passedOver"]?.arrayValue?[0]["reason"] == "serves Norway, Sweden, Finland and Denmark only")
        #expect(
            answer["passedOver"]?.arrayValue?[1]["reason"]
                == "needs One Call 3.0 (--provider openweathermap --owm-api onecall3)")
        #expect(
            answer["message"]?.stringValue
                == "No nowcast source could answer for this place: met-norway serves Norway, Sweden, Finland and "
                + "Denmark only; openweathermap needs One Call 3.0 (--provider openweathermap --owm-api onecall3).")
        #expect(network.requests.isEmpty)
    }

    @Test("Without a contact MET Norway is never called, and the answer says why")
    func noContact() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/forecast",
            InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-forecast-minutely15-enschede-trimmed")))
        let directory = TemporaryDataDirectory()
        let clock = ManualClock(start: try OfficialFixture.time("2026-10-03T10:35:00Z"))
        let service = try InProcessWeatherd(directory: directory, clock: clock, network: network) { $0.contact = nil }
        let answer = try await service.result("weather/nowcast", NowcastFixture.tromso)
        await service.stop()
        #expect(answer["source"] == "open-meteo")
        #expect(
            answer["passedOver"]?.arrayValue?[0]["reason"]
                == "needs a contact for its User-Agent (--contact or WEATHERD_CONTACT)")
        #expect(network.requests.allSatisfy { !$0.contains("met.test") })
    }

    @Test("Ten readers at once cost one call; a 403 backs MET Norway off for an hour, saying why")
    // Open-Meteo's recorded answer is of another day: its steps are not ahead, so it is passed over too, and
    // MET Norway's older answer is served, marked stale.
    func sharedAndBanned() async throws {
        let network = InMemoryTransport()
        network.route(
            NowcastFixture.metPath, InMemoryTransport.ok(try NowcastFixture.met()), InMemoryTransport.status(403))
        network.route(
            "/v1/forecast",
            InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-forecast-minutely15-enschede-trimmed")))
        let clock = ManualClock(start: try OfficialFixture.time(NowcastFixture.tromsoTime))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            let answers = try await withThrowingTaskGroup(of: JSONValue.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await service.result("weather/nowcast", NowcastFixture.tromso) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 10 && answers.allSatisfy { $0["source"] == "met-norway" })
            #expect(network.requests.count == 1)
            clock.advance(by: .seconds(6 * 60))
            let refused = try await service.result("weather/nowcast", NowcastFixture.tromso)
            #expect(refused["source"] == "met-norway")
            #expect(refused["stale"] == true)
            #expect(refused["passedOver"]?.arrayValue?[2]["reason"] == "its answer has no steps from now on")
            #expect(
                refused["passedOver"]?.arrayValue?[0]["reason"]?.stringValue?.contains("kept in reserve") == true,
                "\(refused["passedOver"] ?? .null)")
            let metCalls = network.requests.filter { $0.contains("met.test") }.count
            clock.advance(by: .seconds(30 * 60))
            _ = try await service.result("weather/nowcast", NowcastFixture.tromso)
            #expect(network.requests.filter { $0.contains("met.test") }.count == metCalls, "no call within the hour")
        }
    }
}

@Suite("MCP: get_nowcast and the nowcast resource")
struct NowcastMCPTests {
    @Test("get_nowcast leads with the sentence; a subscribed nowcast resource is announced on a new fetch")
    func tool() async throws {
        let network = InMemoryTransport()
        network.route(
            NowcastFixture.metPath, InMemoryTransport.ok(try NowcastFixture.met(rates: [0, 0, 0, 1.2])),
            InMemoryTransport.ok(try NowcastFixture.met(rates: [0, 0, 0, 0])))
        let clock = ManualClock(start: try OfficialFixture.time(NowcastFixture.tromsoTime))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            try await OfficialMCPTests.initialize(service)
            let answer = try await OfficialMCPTests.tool(service, "get_nowcast", NowcastFixture.tromso)
            #expect(
                OfficialMCPTests.texts(answer).first
                    == "69.68,18.94: Light precipitation starting in about 15 min, easing off around 21:25. "
                    + "(met-norway, 5-minute steps)")
            #expect(answer["structuredContent"]?["summary"]?["state"] == "starting")

            let uri = "weather://nowcast/69.68,18.94"
            #expect(try await service.result("resources/subscribe", ["uri": .string(uri)]) == [:])
            let read = try await service.result("resources/read", ["uri": .string(uri)])
            let text = try #require(read["contents"]?.arrayValue?.first?["text"]?.stringValue)
            #expect(try JSONValue.parse(Array(text.utf8))["source"] == "met-norway")

            let lines = service.output.lines.count
            clock.advance(by: .seconds(5 * 60))
            _ = try await OfficialMCPTests.tool(service, "get_nowcast", NowcastFixture.tromso)
            #expect(await service.output.wait(for: lines + 2))
            let updates = try service.output.messages().filter { $0["method"] == "notifications/resources/updated" }
            #expect(updates.map { $0["params"]?["uri"] } == [.string(uri)])
        }
    }

    @Test("get_nowcast where no source answers: isError, with why in one sentence")
    func noSourceIsAnError() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "minutely_15=", InMemoryTransport.status(502, "bad gateway"))
        try await InProcessWeatherd.with(network: network) { service in
            try await OfficialMCPTests.initialize(service)
            let answer = try await OfficialMCPTests.tool(service, "get_nowcast", ["lat": -0.18, "lon": -78.47])
            #expect(answer["isError"] == true)
            let text = try #require(OfficialMCPTests.texts(answer).first)
            #expect(text.hasPrefix("-0.18,-78.47: No nowcast source could answer for this place: "), "\(text)")
            #expect(text.hasSuffix("; open-meteo failed (HTTP 502)."), "\(text)")
            #expect(answer["structuredContent"]?["covered"] == false)
        }
    }
}
