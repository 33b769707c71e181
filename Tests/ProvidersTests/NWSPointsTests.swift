import Providers
import Testing
import WeatherDomain

@Suite("NWS points and reverse geocoding")
struct NWSPointsTests {
    let nws = NWSWarningProvider(userAgent: NWSWarningProvider.userAgent(contact: "ops@example.com"))

    @Test("the /points request: at most 4 decimals, the alerts' User-Agent and Accept, a 404 read as an answer")
    func request() {
        let request = nws.pointRequest(lat: 45.523062, lon: -122.676482)
        #expect(request.url == "https://api.weather.gov/points/45.5231,-122.6765")
        #expect(request.auditURL == request.url)
        #expect(request.headers["User-Agent"] == "weatherd/1.0 (ops@example.com)")
        #expect(request.headers["Accept"] == "application/geo+json")
        #expect(request.notFoundIsAnswer)
        #expect(!nws.alertsRequest(lat: 45.52, lon: -122.68).notFoundIsAnswer, "the alerts' 404 stays an error")
        let proxied = NWSWarningProvider(userAgent: "weatherd/0.1.0", baseURL: "http://127.0.0.1:9000/nws/")
        #expect(
            proxied.pointRequest(lat: 38.8894, lon: -77.0352).url == "http://127.0.0.1:9000/nws/points/38.8894,-77.0352"
        )
    }

    @Test("a 200 (Washington, DC) is covered; NWS's 404 problem document is not")
    func decode() throws {
        #expect(try nws.decodePoint(status: 200, body: try Fixture.bytes("nws-points-washington-dc")) == true)
        #expect(try nws.decodePoint(status: 404, body: try Fixture.bytes("nws-points-404")) == false)
    }

    @Test(
        "a body that does not fit its status is a bad upstream response, never an answer about the point",
        arguments: [
            (200, "<html>maintenance</html>"), (200, "[]"), (200, #"{"type":"Feature"}"#),
            (404, "<html>Not Found</html>"), (404, "[]"),
        ])
    func badBodies(status: Int, body: String) {
        let error = failure { () throws(ProviderError) in
            _ = try nws.decodePoint(status: status, body: Array(body.utf8))
        }
        #expect(error?.kind == .badUpstreamResponse)
    }

    @Test("OpenWeatherMap reverse-geocodes by point with the key out of the audit URL; Open-Meteo has none")
    func reverse() throws {
        let owm = OpenWeatherMapProvider(apiKey: "s3cr3t&key")
        let request = try #require(owm.reverseGeocodeRequest(lat: 43.85, lon: 18.39))
        #expect(
            request.url
                == "https://api.openweathermap.org/geo/1.0/reverse?lat=43.85&lon=18.39&limit=1&appid=s3cr3t%26key")
        #expect(request.auditURL == "https://api.openweathermap.org/geo/1.0/reverse?lat=43.85&lon=18.39&limit=1")
        let oneCall = OpenWeatherMapOneCallProvider(apiKey: "k")
        #expect(oneCall.reverseGeocodeRequest(lat: 1, lon: 2)?.auditURL.contains("/geo/1.0/reverse?") == true)
        #expect(OpenMeteoProvider().reverseGeocodeRequest(lat: 43.85, lon: 18.39) == nil)
        let places = try owm.decodeGeocode(try Fixture.bytes("owm-geo-reverse-sarajevo"))
        #expect(places.first?.country == "BA")
        #expect(places.first?.name == "Sarajevo")
        #expect(places.first?.state == "Federation of Bosnia and Herzegovina")
    }
}
