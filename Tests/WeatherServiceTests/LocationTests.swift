import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("Location tracking and refresh, in process")
struct LocationTests {
    static var quick: FetchPolicy { .inProcess }

    @Test("a first location and a move of 5 km refresh the current place and every favorite; a small move does not")
    func moves() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 9)))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            // The official checks after a refresh also ask NWS about the two points, which have no country.
            let weather = { network.requests.filter { $0.contains("/v1/forecast") }.count }
            _ = try await service.result("favorites/add", ["name": "Cabin", "lat": 61.1, "lon": 10.4])
            let first = try await service.result("location/set", ["lat": 59.913_868, "lon": 10.752_245])
            #expect(first["refresh"] == true)
            #expect(first["lat"] == 59.91)
            #expect(first["lon"] == 10.75)
            await service.engine.drainBackground()
            #expect(weather() == 4, "current and forecast for here and for the favorite")

            let small = try await service.result("location/set", ["lat": 59.93, "lon": 10.76])
            #expect(small["refresh"] == false)
            await service.engine.drainBackground()
            #expect(weather() == 4)

            let far = try await service.result("location/set", ["lat": 60.0, "lon": 10.76])
            #expect(far["refresh"] == true)
            await service.engine.drainBackground()
            #expect(weather() == 8)
            let fetched = try await service.result("events/query", ["types": ["weather.fetched"]])
            #expect(
                fetched["events"]?.arrayValue?.allSatisfy { $0["cause"]?.stringValue?.hasPrefix("event:") == true }
                    == true)
            #expect(try await service.result("location/get")["lat"] == 60.0)
        }
    }

    @Test("location/clear forgets the location once (a repeated commandId answers the same); the next set refreshes")
    func clear() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 9)))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            #expect(try await service.result("location/clear") == ["cleared": false], "none set: nothing to clear")
            _ = try await service.result("location/set", ["lat": 59.91, "lon": 10.75])
            await service.engine.drainBackground()
            let cleared = try await service.result("location/clear", ["commandId": "clear-1"])
            #expect(cleared["cleared"] == true)
            #expect(cleared["location"]?["lat"] == 59.91)
            #expect(try await service.result("location/clear", ["commandId": "clear-1"]) == cleared)
            #expect(try await service.result("location/clear") == ["cleared": false])
            let none = try await service.call("location/get")
            #expect(none["error"]?["data"]?["kind"] == "no_location")
            let events = try await service.result("events/query", ["types": ["location.cleared"]])
            #expect(events["events"]?.arrayValue?.count == 1)
            #expect(events["events"]?.arrayValue?.first?["corr"] == "clear-1")
            #expect(try await service.result("state/verify")["ok"] == true, "replay rebuilds the cleared state")

            // The official checks after a refresh also ask NWS about the point, which has no country.
            let weather = { network.requests.filter { $0.contains("/v1/forecast") }.count }
            let requests = weather()
            let back = try await service.result("location/set", ["lat": 59.91, "lon": 10.75])
            #expect(back["refresh"] == true, "after a clear, a location is a first one again")
            await service.engine.drainBackground()
            #expect(weather() == requests + 2, "current and forecast fetched again")
            let wrong = try await service.call("location/clear", ["lat": 1])
            #expect(wrong["error"]?["code"] == -32602)
        }
    }

    @Test("refresh answers per place, with the error kind of a place that failed")
    func refresh() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", InMemoryTransport.status(401))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            _ = try await service.result("favorites/add", ["name": "A", "lat": 1, "lon": 1])
            let result = try await service.result("refresh", ["scope": "favorites"])
            let places = try #require(result["results"]?.arrayValue)
            #expect(places.count == 1)
            #expect(places.first?["place"] == "fav-1")
            #expect(places.first?["ok"] == false)
            #expect(places.first?["error"] == "unauthorized")
            let none = try await service.result("refresh", ["scope": "current"])
            #expect(none["results"] == [])
            let bad = try await service.call("refresh", ["scope": "everything"])
            #expect(bad["error"]?["code"] == -32602)
        }
    }

    @Test("location/set by address geocodes and keeps the place's name")
    func address() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/search",
            InMemoryTransport.ok(OpenMeteoBodies.geocode([("Kathmandu", "NP", "Bagmati", 27.7172, 85.324)])))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 20)))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        try await InProcessWeatherd.with(network: network, fetch: Self.quick) { service in
            let here = try await service.result("location/set", ["address": "Kathmandu"])
            #expect(here["name"] == "Kathmandu")
            #expect(here["lat"] == 27.72)
            let weather = try await service.result("weather/current")
            #expect(weather["current"]?["temperature"] == 20.0)
            let both = try await service.call("location/set", ["address": "x", "lat": 1, "lon": 1])
            #expect(both["error"]?["code"] == -32602)
        }
    }
}
