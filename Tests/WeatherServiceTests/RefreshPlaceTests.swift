import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("refresh with a place: everything weatherd keeps for it, and the alert rules, within each source's window")
struct RefreshPlaceTests {
    static let sarajevo: JSONValue = ["name": "Sarajevo", "lat": 43.86, "lon": 18.41, "country": "BA"]

    /// MeteoAlarm's Bosnia feed with a wind warning for Sarajevo, Open-Meteo's weather, air quality and
    /// `minutely_15`.
    static func network() throws -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route(OfficialAlertTests.feedPath, InMemoryTransport.ok(try OfficialFixture.updatesFeed([0])))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 3)))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        network.route(
            "/v1/forecast", query: "minutely_15=",
            InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-forecast-minutely15-enschede-trimmed")))
        network.route(
            "/v1/air-quality", InMemoryTransport.ok(try OfficialFixture.bytes("openmeteo-airquality-forli-current")))
        return network
    }

    static func calls(_ network: InMemoryTransport, _ fragment: String) -> Int {
        network.requests.filter { $0.contains(fragment) }.count
    }

    /// Calls for the current weather (the air quality's ask for `current=` too).
    static func currentCalls(_ network: InMemoryTransport) -> Int {
        network.requests.filter { $0.contains("/v1/forecast") && $0.contains("current=") }.count
    }

    @Test(
        "a favorite's refresh raises its warning's alert before answering; warnings, air quality and a watched nowcast are asked too"
    )
    func favorite() async throws {
        let clock = ManualClock(start: try OfficialFixture.time("2024-01-06T09:30:00Z"))
        let network = try Self.network()
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            _ = try await service.result("favorites/add", Self.sarajevo)
            _ = try await service.result("alerts/configure", ["airQuality": ["enabled": true, "level": "moderate"]])
            _ = try await service.result("nowcast/watch", ["favorite": "Sarajevo"])
            #expect(await eventually { service.engine.nowcastWatchers.watched.places.count == 1 })
            #expect(try await service.result("alerts/subscribe") == ["subscribed": true])

            let answer = try await service.result("refresh", ["favorite": "Sarajevo"])
            #expect(answer["scope"] == "place")
            let result = try #require(answer["results"]?.arrayValue?.first)
            #expect(result["place"] == "fav-1" && result["ok"] == true, "\(answer)")
            let raised = try await OfficialAlertTests.official(service)
            #expect(raised.map { $0["favoriteId"] } == ["fav-1"], "raised before the answer")
            #expect(raised.first?["details"]?["warning"]?["id"] == .string(OfficialFixture.sarajevoWind))
            #expect(
                try service.output.messages().contains {
                    $0["method"] == "alerts/raised" && $0["params"]?["id"] == raised.first?["id"]
                }, "and pushed")
            #expect(Self.calls(network, "feeds-bosnia-herzegovina") == 1)
            #expect(Self.calls(network, "/v1/air-quality") >= 1, "the air quality, with its rule on")
            #expect(Self.calls(network, "minutely_15=") == 1, "the watched nowcast")
            let cause = try await OfficialFixture.events(service, ["alert.raised"]).first?["cause"]?.stringValue
            #expect(cause?.hasPrefix("stdio/rpc:") == true, "caused by the refresh request")

            clock.advance(by: .seconds(60))
            let again = try await service.result("refresh", ["favorite": "fav-1"])
            #expect(again["results"]?.arrayValue?.first?["ok"] == true)
            #expect(Self.currentCalls(network) == 2, "the weather is fetched again whatever its freshness")
            #expect(Self.calls(network, "feeds-bosnia-herzegovina") == 1, "the feed once per 5 minutes still")
            #expect(Self.calls(network, "minutely_15=") == 1, "the nowcast once per its source's cadence still")
            #expect(try await OfficialAlertTests.official(service).count == 1, "the same warning is not raised twice")
        }
    }

    @Test("a city or a point: its weather; scope and a place together, or a point off the globe, are refused")
    func placeForms() async throws {
        let clock = ManualClock(start: try OfficialFixture.time("2024-01-06T09:30:00Z"))
        let network = try Self.network()
        try await InProcessWeatherd.with(clock: clock, network: network, fetch: OfficialFixture.quick) { service in
            let answer = try await service.result("refresh", ["lat": 43.86, "lon": 18.41])
            #expect(answer["results"]?.arrayValue?.map { $0["place"] } == ["43.86,18.41"])
            #expect(Self.currentCalls(network) == 1)
            let both = try await service.call("refresh", ["scope": "all", "lat": 43.86, "lon": 18.41])
            #expect(both["error"]?["code"] == -32602)
            let off = try await service.call("refresh", ["lat": 91, "lon": 18.41])
            #expect(off["error"]?["code"] == -32602)
            #expect(Self.currentCalls(network) == 1)
        }
    }
}
