import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("A point off the globe is refused the same way in every face, before anything is asked")
struct PlaceValidationTests {
    @Test("JSON-RPC params, MCP tool arguments and MCP resource URIs: invalid params naming the member, no call")
    func everyFace() async throws {
        let network = InMemoryTransport()
        try await InProcessWeatherd.with(network: network) { service in
            try await OfficialMCPTests.initialize(service)
            let calls: [(String, JSONValue)] = [
                ("weather/current", ["lat": 91, "lon": 10]), ("weather/nowcast", ["lat": 45, "lon": 181]),
                ("nowcast/watch", ["lat": -90.5, "lon": 0]), ("refresh", ["lat": 91, "lon": 181]),
                ("location/set", ["lat": 91, "lon": 10]),
                ("favorites/add", ["name": "Nowhere", "lat": 45, "lon": -181]),
                ("warnings/list", ["lat": 91, "lon": 10]),
                ("tools/call", ["name": "get_nowcast", "arguments": ["lat": 91, "lon": 181]]),
                ("tools/call", ["name": "add_favorite", "arguments": ["name": "Nowhere", "lat": 91, "lon": 10]]),
                ("tools/call", ["name": "set_location", "arguments": ["lat": 10, "lon": 181]]),
                ("resources/read", ["uri": "weather://nowcast/91,181"]),
                ("resources/read", ["uri": "weather://current/45,%20181"]),
                ("resources/subscribe", ["uri": "weather://nowcast/91,181"]),
            ]
            for (method, params) in calls {
                let response = try await service.call(method, params)
                let error = try #require(response["error"], "\(method) \(params): \(response)")
                #expect(error["code"] == -32602, "\(method): \(response)")
                let message = error["message"]?.stringValue ?? ""
                #expect(
                    message.contains("must be between -90.0 and 90.0")
                        || message.contains("must be between -180.0 and 180.0"), "\(method): \(message)")
            }
            let uri = try await service.call("resources/read", ["uri": "weather://nowcast/91,181"])
            #expect(
                uri["error"]?["message"]?.stringValue?.contains(
                    "params.uri (91,181): the latitude must be between -90.0 and 90.0") == true, "\(uri)")
            #expect(network.requests.isEmpty, "nothing asked: \(network.requests)")
            #expect(service.engine.nowcastWatchers.watched.places.isEmpty)
        }
    }

    @Test(
        "LAT,LON text: two numbers around a comma are a point, checked; any other text names a place otherwise",
        arguments: [
            ("52.52,13.41", [52.52, 13.41]), (" 52.5 , -13.4 ", [52.5, -13.4]), ("-90,-180", [-90, -180]),
            ("90,180", [90, 180]), ("Berlin", nil), ("1,2,3", nil), ("52.5,", nil), (",", nil),
            ("Washington, DC", nil),
        ] as [(String, [Double]?)])
    func text(_ text: String, _ point: [Double]?) throws {
        let parsed = try Coordinates(text: text, path: "PLACE")
        #expect(parsed.map { [$0.lat, $0.lon] } == point)
    }

    @Test(
        "LAT,LON text off the globe is an error naming the text and the coordinate",
        arguments: [
            ("91,181", "PLACE (91,181): the latitude must be between -90.0 and 90.0"),
            ("45,181", "PLACE (45,181): the longitude must be between -180.0 and 180.0"),
            ("-90.01,0", "PLACE (-90.01,0): the latitude must be between -90.0 and 90.0"),
            ("nan,0", "PLACE (nan,0): the latitude must be between -90.0 and 90.0"),
            ("0,inf", "PLACE (0,inf): the longitude must be between -180.0 and 180.0"),
        ])
    func offTheGlobe(_ text: String, _ message: String) {
        let error = #expect(throws: FieldError.self) { try Coordinates(text: text, path: "PLACE") }
        #expect(error?.description == message)
    }
}
