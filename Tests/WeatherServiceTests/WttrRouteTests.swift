import Foundation
import Testing
import WeatherCLI
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting

@Suite("wttr.in's URLs on the HTTP listener: GET /{place} with ?format=, units and place forms")
struct WttrRouteTests {
    /// The HTTP face with the wttr.in route, over an in-process service whose provider answers Berlin at 3 °C.
    static func serving(_ body: (InProcessWeatherd, Int) async throws -> Void) async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/search",
            InMemoryTransport.ok(OpenMeteoBodies.geocode([("São Paulo", "BR", "São Paulo", -23.55, -46.63)])))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 3)))
        try await InProcessWeatherd.with(network: network) { service in
            let route = WttrRoute(engine: service.engine)
            let face = HTTPFace(
                engine: service.engine, access: HTTPAccess(token: HTTPToken(testToken)), places: route.answer)
            try await service.servingHTTP(face.answer) { _, port in try await body(service, port) }
        }
    }

    private static func get(_ port: Int, _ target: String, _ headers: [String] = []) async throws
        -> HTTPTestClient.Answer
    {
        let client = try HTTPTestClient(port: port)
        await client.send(HTTPTestClient.get(target, headers + ["Connection: close"]))
        return try #require(await client.answer())
    }

    @Test("format 3 and %-codes for LAT,LON and a percent-encoded UTF-8 city, as weatherd now prints them")
    func formats() async throws {
        try await Self.serving { _, port in
            let three = try await Self.get(port, "/52.52,13.41?format=3")
            #expect(three.status == 200)
            #expect(three.headers["content-type"] == "text/plain; charset=utf-8")
            #expect(three.text.hasSuffix("+3°C\n"), "\(three.text)")
            let codes = try await Self.get(port, "/S%C3%A3o%20Paulo?format=%25l:+%25t")
            #expect(codes.status == 200)
            #expect(codes.text == "São Paulo: +3°C\n", "\(codes.text)")
            let one = try await Self.get(port, "/52.52,13.41?format=1")
            #expect(one.text.hasSuffix(" +3°C\n"))
            #expect(!one.text.contains(":"), "format 1 has no place")
        }
    }

    @Test("?u asks for USCS units, ?m for metric")
    func units() async throws {
        try await Self.serving { _, port in
            let uscs = try await Self.get(port, "/52.52,13.41?format=%25t&u")
            #expect(uscs.text.hasSuffix("°F\n"), "\(uscs.text)")
            let metric = try await Self.get(port, "/52.52,13.41?format=%25t&m")
            #expect(metric.text == "+3°C\n", "\(metric.text)")
        }
    }

    @Test("a format that cannot be met is 400 with the reason; control characters are refused, never echoed")
    func badFormats() async throws {
        try await Self.serving { service, port in
            let unknown = try await Self.get(port, "/52.52,13.41?format=%25Q")
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("unknown format code %Q"))
            #expect(unknown.text.contains("%t (temperature)"))
            let ahead = try await Self.get(port, "/52.52,13.41?format=%25%2B999h")
            #expect(ahead.status == 400)
            #expect(ahead.text.contains("%+Nh"))
            let escape = try await Self.get(port, "/Berlin?format=%1B%5B31m%25t")
            #expect(escape.status == 400)
            #expect(!escape.text.contains("\u{1B}"))
            let offGlobe = try await Self.get(port, "/91,181?format=3")
            #expect(offGlobe.status == 400)
            #expect(offGlobe.text.contains("latitude"))
            #expect(service.network.requests.allSatisfy { !$0.contains("latitude=91") })
        }
    }

    @Test("/ is the current location, private without the token; /:help lists the routes")
    func currentLocationAndHelp() async throws {
        try await Self.serving { _, port in
            #expect(try await Self.get(port, "/?format=3").status == 401)
            let help = try await Self.get(port, "/:help")
            #expect(help.status == 200)
            #expect(help.text.contains("GET /{place}"))
            #expect(try await Self.get(port, "/a/b/c").status == 404)
        }
    }

    /// The WorldWeatherOnline codes wttr.in gives, which wttrbar looks every `weatherCode` up in.
    static let wwoCodes: Set<String> = Set(
        [
            113, 116, 119, 122, 143, 176, 179, 182, 185, 200, 227, 230, 248, 260, 263, 266, 281, 284, 293, 296, 299,
            302, 305, 308, 311, 314, 317, 320, 323, 326, 329, 332, 335, 338, 350, 353, 356, 359, 362, 365, 368, 371,
            374, 377, 386, 389, 392, 395,
        ].map(String.init))

    @Test("format=j1: wttr.in's JSON as wttrbar reads it, every value a string, from the engine's answers")
    func j1() async throws {
        try await Self.serving { service, port in
            let answer = try await Self.get(port, "/S%C3%A3o%20Paulo?format=j1")
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "application/json")
            #expect(answer.headers["etag"] != nil)
            let json = try JSONValue.parse(answer.body)
            let now = try #require(json["current_condition"]?.arrayValue?.first?.objectValue)
            #expect(now["temp_C"] == "3")
            #expect(now["temp_F"] == "37")
            for name in ["FeelsLikeC", "FeelsLikeF", "humidity", "windspeedKmph", "windspeedMiles", "weatherCode"] {
                #expect(now[name]?.stringValue?.isEmpty == false, "\(name) is a non-empty string")
            }
            #expect(Self.wwoCodes.contains(now["weatherCode"]?.stringValue ?? ""))
            #expect(now["weatherDesc"]?.arrayValue?.first?["value"]?.stringValue?.isEmpty == false)
            let clock = /^\d\d:\d\d [AP]M$/
            #expect(now["observation_time"]?.stringValue?.wholeMatch(of: clock) != nil)
            let area = try #require(json["nearest_area"]?.arrayValue?.first)
            #expect(area["areaName"]?.arrayValue?.first?["value"] == "São Paulo")
            #expect(area["country"]?.arrayValue?.first?["value"] == "BR")
            #expect(json["request"]?.arrayValue?.first?["type"] == "City")
            // The days and steps are the forecast's, rounded as wttr.in writes them.
            let place = try #require(area["latitude"]?.stringValue.flatMap(Double.init))
            #expect(abs(place - -23.55) < 0.001)
            let forecast = try await service.result(
                "weather/forecast", ["city": "São Paulo", "units": "metric", "type": "threeHourly", "days": 3])
            let days = try #require(json["weather"]?.arrayValue)
            #expect(days.count == min(3, forecast["daily"]?.arrayValue?.count ?? 0) && !days.isEmpty)
            let times = Set(stride(from: 0, through: 2100, by: 300).map(String.init))
            var steps = 0
            for (day, expected) in zip(days, forecast["daily"]?.arrayValue ?? []) {
                #expect(day["date"] == expected["date"])
                #expect(day["maxtempC"]?.stringValue == WttrJSONExpect.whole(expected["max"]))
                #expect(day["mintempC"]?.stringValue == WttrJSONExpect.whole(expected["min"]))
                let sunrise = day["astronomy"]?.arrayValue?.first?["sunrise"]?.stringValue ?? ""
                #expect(sunrise.wholeMatch(of: clock) != nil || sunrise == "No sunrise", "\(sunrise)")
                for hour in day["hourly"]?.arrayValue ?? [] {
                    steps += 1
                    #expect(times.contains(hour["time"]?.stringValue ?? ""), "\(hour["time"] ?? .null)")
                    #expect(Self.wwoCodes.contains(hour["weatherCode"]?.stringValue ?? ""))
                    #expect(hour["tempC"]?.stringValue.flatMap(Int.init) != nil)
                    #expect(hour["chanceofrain"]?.stringValue.flatMap(Int.init) != nil)
                }
            }
            #expect(steps > 0, "the days carry their three-hourly steps")
        }
    }
}

/// wttr.in's rounding, written apart from the face's.
enum WttrJSONExpect {
    static func whole(_ value: JSONValue?) -> String? {
        value?.doubleValue.map { String(Int(($0).rounded())) }
    }
}
