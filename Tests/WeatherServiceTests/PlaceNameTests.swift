import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("Place names in weather answers, in process")
struct PlaceNameTests {
    static var quick: FetchPolicy { .inProcess }

    static func network() -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route(
            "/v1/search", InMemoryTransport.ok(OpenMeteoBodies.geocode([("Bern", "CH", "Bern", 46.948, 7.447)])))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 4)))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        return network
    }

    @Test("after a rename, answers by the favorite, by its coordinates and 500 m away say the new name")
    func afterRename() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: Self.quick) { service in
            _ = try await service.result(
                "favorites/add", ["name": "London", "lat": 52.52, "lon": 13.405, "country": "DE"])
            // The cache is filled while the favorite is still called London.
            let before = try await service.result("weather/current", ["favorite": "fav-1"])
            #expect(before["location"]?["name"] == "London")
            _ = try await service.result("weather/forecast", ["favorite": "London"])
            _ = try await service.result("favorites/update", ["id": "fav-1", "name": "Office"])

            let places: [JSONValue] = [
                ["favorite": "fav-1"], ["favorite": "Office"], ["favoriteId": "fav-1"],
                ["lat": 52.52, "lon": 13.405],
                // About 500 m north, and about 500 m east (0.0074° of longitude at 52.5° N).
                ["lat": 52.5245, "lon": 13.405], ["lat": 52.52, "lon": 13.4124],
            ]
            for place in places {
                for method in ["weather/current", "weather/forecast"] {
                    let answer = try await service.result(method, place)
                    #expect(answer["location"]?["name"] == "Office", "\(method) \(place.jsonString)")
                    #expect(answer["location"]?["country"] == "DE", "\(method) \(place.jsonString)")
                }
            }
            let old = try await service.call("weather/current", ["favorite": "London"])
            #expect(old["error"]?["data"]?["kind"] == "not_found", "the old name is no favorite's any more")

            // Far from every favorite and searched place: Open-Meteo names no place, so the coordinates are written out.
            for method in ["weather/current", "weather/forecast"] {
                let far = try await service.result(method, ["lat": 48.137, "lon": 11.576])
                #expect(far["location"]?["name"] == "48.14° N, 11.58° E", "\(method)")
                #expect(far["location"]?["lat"] == 48.14)
            }
        }
    }

    @Test("coordinates near a searched city take the geocoder's name; the current location its own or the nearest")
    func searchedAndCurrent() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: Self.quick) { service in
            _ = try await service.result("cities/search", ["query": "Bern"])
            let near = try await service.result("weather/current", ["lat": 46.95, "lon": 7.45])
            #expect(near["location"]?["name"] == "Bern")
            #expect(near["location"]?["country"] == "CH")

            _ = try await service.result("location/set", ["lat": 46.95, "lon": 7.45])
            let here = try await service.result("weather/forecast")
            #expect(here["location"]?["name"] == "Bern", "a location set by coordinates takes the nearest name")
            _ = try await service.result("favorites/add", ["name": "Home", "lat": 46.951, "lon": 7.449])
            let home = try await service.result("weather/current")
            #expect(home["location"]?["name"] == "Home", "a favorite within 1 km comes first")

            _ = try await service.result("location/set", ["address": "Bern"])
            let named = try await service.result("weather/current")
            #expect(named["location"]?["name"] == "Bern", "a location set by address keeps the geocoder's name")
        }
    }

    @Test("the weather.fetched events record no name the fetch was asked under")
    func fetchedWithoutAskedName() async throws {
        try await InProcessWeatherd.with(network: Self.network(), fetch: Self.quick) { service in
            _ = try await service.result("favorites/add", ["name": "Cabin", "lat": 61.1, "lon": 10.4, "country": "NO"])
            _ = try await service.result("weather/current", ["favorite": "Cabin"])
            let events = try await service.result("events/query", ["types": ["weather.fetched"]])
            let place = try #require(events["events"]?.arrayValue?.first?["data"]?["place"])
            #expect(place["name"] == nil)
            #expect(place["country"] == nil)
            #expect(place["lat"] == 61.1)
        }
    }
}
