import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting

@Suite("the JSON API under /v1: JSON-RPC's methods as routes, ETags, problems and idempotent changes")
struct HTTPAPITests {
    /// The HTTP face over an in-process service whose provider answers Berlin at 3 °C.
    static func serving(_ body: (InProcessWeatherd, Int) async throws -> Void) async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 3)))
        try await InProcessWeatherd.with(network: network) { service in
            let face = HTTPFace(engine: service.engine, access: HTTPAccess(token: HTTPToken(testToken)))
            try await service.servingHTTP(face.answer) { _, port in try await body(service, port) }
        }
    }

    static let bearer = "Authorization: Bearer \(testToken)"

    /// One request on a connection of its own: `method target` with the token, `headers` and a JSON `body`.
    static func ask(
        _ port: Int, _ method: String, _ target: String, headers: [String] = [bearer], body: String? = nil
    ) async throws -> HTTPTestClient.Answer {
        let client = try HTTPTestClient(port: port)
        var lines = headers + ["Connection: close"]
        if let body { lines.append("Content-Length: \(body.utf8.count)") }
        await client.send(HTTPTestClient.get(target, lines, method: method) + (body ?? ""))
        return try #require(await client.answer(forHEAD: method == "HEAD"))
    }

    static func json(_ answer: HTTPTestClient.Answer) throws -> JSONValue { try JSONValue.parse(answer.body) }

    @Test("GET /v1/current is weather/current's result as JSON; an ETag, and If-None-Match that names it is a 304")
    func current() async throws {
        try await Self.serving { service, port in
            let first = try await Self.ask(port, "GET", "/v1/current?lat=52.52&lon=13.41")
            #expect(first.status == 200)
            #expect(first.headers["content-type"] == "application/json")
            #expect(try Self.json(first)["current"]?["temperature"] == .double(3))
            #expect(try Self.json(first)["source"] == "network")
            // The same call over JSON-RPC, now from the cache: the same bytes the next GET gets.
            let viaRPC = try await service.result("weather/current", ["lat": 52.52, "lon": 13.41])
            let second = try await Self.ask(port, "GET", "/v1/current?lat=52.52&lon=13.41")
            #expect(try Self.json(second) == viaRPC)
            let tag = try #require(second.headers["etag"])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 18)
            #expect(tag != first.headers["etag"], "the first answer came from the network, the second from the cache")
            let unchanged = try await Self.ask(
                port, "GET", "/v1/current?lat=52.52&lon=13.41", headers: [Self.bearer, "If-None-Match: W/\(tag)"])
            #expect(unchanged.status == 304)
            #expect(unchanged.body.isEmpty)
            #expect(unchanged.headers["etag"] == tag)
            let other = try await Self.ask(
                port, "GET", "/v1/current?lat=52.52&lon=13.41", headers: [Self.bearer, "If-None-Match: \"0\""])
            #expect(other.status == 200)
            #expect(service.network.requests.count(where: { $0.contains("current=") }) == 1, "one upstream call")
            let http = try await service.result("service/status")["http"]
            #expect(http?["url"] == .string("http://127.0.0.1:\(port)/"))
            #expect(http?["routes"]?.arrayValue?.contains("GET /v1/events") == true)
            let head = try await Self.ask(port, "HEAD", "/v1/current?lat=52.52&lon=13.41")
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == String(second.body.count))
        }
    }

    @Test("every /v1 route needs the token: 401 as a problem, with WWW-Authenticate")
    func token() async throws {
        try await Self.serving { service, port in
            for target in ["/v1/current?city=Berlin", "/v1/favorites", "/v1/nope"] {
                let answer = try await Self.ask(port, "GET", target, headers: [])
                #expect(answer.status == 401)
                #expect(answer.headers["content-type"] == "application/problem+json")
                #expect(answer.headers["www-authenticate"] == "Bearer")
                #expect(try Self.json(answer)["kind"] == "token_required")
            }
            #expect(service.network.requests.isEmpty)
        }
    }

    @Test("errors are RFC 9457 problems with JSON-RPC's kind; unknown routes 404, other methods 405 with Allow")
    func problems() async throws {
        try await Self.serving { _, port in
            let offGlobe = try await Self.ask(port, "GET", "/v1/current?lat=95&lon=0")
            #expect(offGlobe.status == 400)
            #expect(offGlobe.headers["content-type"] == "application/problem+json")
            let problem = try Self.json(offGlobe)
            #expect(problem["type"] == "urn:weatherd:error:invalid_params")
            #expect(problem["title"] == "Bad Request")
            #expect(problem["status"] == 400)
            #expect(problem["kind"] == "invalid_params")
            #expect(problem["code"] == -32602)
            #expect(problem["detail"]?.stringValue?.contains("lat") == true, "\(problem)")
            let notANumber = try await Self.ask(port, "GET", "/v1/forecast?city=Berlin&days=0x10")
            #expect(notANumber.status == 400)
            #expect(try Self.json(notANumber)["detail"]?.stringValue?.contains("query.days must be a number") == true)
            let unknown = try await Self.ask(port, "GET", "/v1/current?city=Berlin&colour=red")
            #expect(unknown.status == 400)
            #expect(try Self.json(unknown)["detail"]?.stringValue?.contains("colour") == true)
            let twice = try await Self.ask(port, "GET", "/v1/current?city=Berlin&city=Paris")
            #expect(twice.status == 400)
            let noRoute = try await Self.ask(port, "GET", "/v1/weather")
            #expect(noRoute.status == 404)
            #expect(try Self.json(noRoute)["kind"] == "no_route")
            let wrongMethod = try await Self.ask(port, "DELETE", "/v1/current")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.headers["allow"] == "GET, HEAD")
            let noPlace = try await Self.ask(port, "GET", "/v1/current")
            #expect(noPlace.status == 404)
            #expect(try Self.json(noPlace)["kind"] == "no_location")
        }
    }

    @Test("a change with an Idempotency-Key is applied once; the key reused for another change is a 409")
    func idempotentChanges() async throws {
        try await Self.serving { service, port in
            let home = #"{"name":"Home","lat":52.52,"lon":13.41}"#
            let headers = [Self.bearer, "Content-Type: application/json", "Idempotency-Key: add-home-1"]
            let first = try await Self.ask(port, "POST", "/v1/favorites", headers: headers, body: home)
            #expect(first.status == 201)
            let retried = try await Self.ask(port, "POST", "/v1/favorites", headers: headers, body: home)
            #expect(retried.status == 201)
            #expect(try Self.json(retried) == Self.json(first))
            #expect(first.headers["etag"] == nil, "a change's answer has no ETag")
            let added = try await service.result("events/query", ["types": ["favorite.added"]])
            #expect(added["events"]?.arrayValue?.count == 1)
            let conflict = try await Self.ask(
                port, "POST", "/v1/favorites", headers: headers, body: #"{"name":"Work","lat":48.85,"lon":2.35}"#)
            #expect(conflict.status == 409)
            #expect(try Self.json(conflict)["kind"] == "command_conflict")
            let listed = try await Self.ask(port, "GET", "/v1/favorites")
            #expect(try Self.json(listed)["favorites"]?.arrayValue?.count == 1)
            let renamed = try await Self.ask(
                port, "PATCH", "/v1/favorites/Home", headers: [Self.bearer, "Content-Type: application/json"],
                body: #"{"name":"Zuhause"}"#)
            #expect(renamed.status == 200)
            #expect(try Self.json(renamed)["name"] == "Zuhause")
            let units = try await Self.ask(
                port, "PATCH", "/v1/settings", headers: [Self.bearer, "Content-Type: application/json; charset=utf-8"],
                body: #"{"units":"imperial"}"#)
            #expect(units.status == 200)
            #expect(try Self.json(units)["units"] == "imperial")
            let removed = try await Self.ask(port, "DELETE", "/v1/favorites/Zuhause")
            #expect(removed.status == 200)
            #expect(try Self.json(try await Self.ask(port, "GET", "/v1/favorites"))["favorites"] == .array([]))
        }
    }

    @Test("a change from another site's page, a body that is not JSON or not an object: refused, nothing written")
    func refusedChanges() async throws {
        try await Self.serving { service, port in
            let before = try await service.result("service/status")["lastSeq"]
            let json = "Content-Type: application/json"
            let home = #"{"name":"Home","lat":52.52,"lon":13.41}"#
            let foreign = try await Self.ask(
                port, "POST", "/v1/favorites", headers: [Self.bearer, json, "Origin: http://evil.example"], body: home)
            #expect(foreign.status == 403)
            #expect(try Self.json(foreign)["kind"] == "cross_origin")
            let otherPort = try await Self.ask(
                port, "POST", "/v1/favorites", headers: [Self.bearer, json, "Origin: http://127.0.0.1:1"], body: home)
            #expect(otherPort.status == 403)
            let form = try await Self.ask(
                port, "POST", "/v1/favorites",
                headers: [Self.bearer, "Content-Type: application/x-www-form-urlencoded"], body: "name=Home")
            #expect(form.status == 415)
            let array = try await Self.ask(port, "POST", "/v1/favorites", headers: [Self.bearer, json], body: "[1]")
            #expect(array.status == 400)
            let broken = try await Self.ask(port, "POST", "/v1/favorites", headers: [Self.bearer, json], body: "{\"na")
            #expect(broken.status == 400)
            #expect(try Self.json(broken)["kind"] == "parse_error")
            #expect(try await service.result("service/status")["lastSeq"] == before)
            let sameSite = try await Self.ask(
                port, "POST", "/v1/favorites", headers: [Self.bearer, json, "Origin: http://127.0.0.1"], body: home)
            #expect(sameSite.status == 201, "the Host's own origin may change")
        }
    }
}
