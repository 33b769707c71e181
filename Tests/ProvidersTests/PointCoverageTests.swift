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

@Suite("Warning coverage of a point without a country")
struct PointCoverageTests {
    static let portland = Place(name: nil, country: nil, state: nil, lat: 45.52, lon: -122.68)
    static let sarajevo = Place(name: nil, country: nil, state: nil, lat: 43.85, lon: 18.39)
    static let covered = PointFetched.Facts(covered: true)
    static let outside = PointFetched.Facts(covered: false)

    static func next(
        _ place: Place, nws: PointFetched.Facts?, reverse: PointFetched.Facts? = nil, owm: Bool = false
    ) -> PointCoverage.Step {
        PointCoverage.next(
            for: place, nws: nws, reverse: reverse, canReverseGeocode: owm,
            provider: owm ? "openweathermap" : "open-meteo")
    }

    @Test("a place with a country is decided by it alone, with no call")
    func withCountry() {
        let phoenix = Place(name: "Phoenix", country: "US", state: nil, lat: 33.45, lon: -112.07)
        #expect(Self.next(phoenix, nws: nil) == .decided(.nws, place: phoenix))
        let tokyo = Place(name: "Tokyo", country: "JP", state: nil, lat: 35.68, lon: 139.69)
        #expect(Self.next(tokyo, nws: nil, owm: true) == .decided(WarningCoverage.of(tokyo), place: tokyo))
    }

    @Test("a bare coordinate asks NWS first; NWS covering it decides .nws, with either provider")
    func insideNWS() {
        #expect(Self.next(Self.portland, nws: nil) == .askNWS)
        #expect(Self.next(Self.portland, nws: nil, owm: true) == .askNWS)
        #expect(Self.next(Self.portland, nws: Self.covered) == .decided(.nws, place: Self.portland))
        #expect(Self.next(Self.portland, nws: Self.covered, owm: true) == .decided(.nws, place: Self.portland))
    }

    @Test("outside NWS with Open-Meteo: no warnings, and a note saying why and what to do")
    func outsideWithOpenMeteo() throws {
        guard case .decided(let coverage, let place) = Self.next(Self.sarajevo, nws: Self.outside) else {
            Issue.record("not decided")
            return
        }
        #expect(place == Self.sarajevo)
        #expect(coverage.source == nil)
        #expect(coverage.note.contains("bare coordinate outside NWS coverage"))
        #expect(coverage.note.contains("Open-Meteo has no reverse geocoding"))
        #expect(coverage.note.contains("named place"))
    }

    @Test("outside NWS with OpenWeatherMap: reverse-geocode, then match as the named place")
    func outsideWithOpenWeatherMap() {
        #expect(Self.next(Self.sarajevo, nws: Self.outside, owm: true) == .reverseGeocode)
        let named = Place(
            name: "Sarajevo", country: "BA", state: "Federation of Bosnia and Herzegovina", lat: 43.852,
            lon: 18.387)
        let step = Self.next(Self.sarajevo, nws: Self.outside, reverse: PointFetched.Facts(place: named), owm: true)
        let described = Place(
            name: "Sarajevo", country: "BA", state: "Federation of Bosnia and Herzegovina", lat: 43.85, lon: 18.39)
        #expect(step == .decided(.meteoalarm(country: "BA", feed: "bosnia-herzegovina"), place: described))

        let home = Place(name: "Home", country: nil, state: nil, lat: 43.85, lon: 18.39)
        guard
            case .decided(_, let kept) = Self.next(
                home, nws: Self.outside, reverse: PointFetched.Facts(place: named), owm: true)
        else {
            Issue.record("not decided")
            return
        }
        #expect(kept.name == "Home", "a name the place has is kept; only what it lacks is filled in")
        #expect(kept.state == "Federation of Bosnia and Herzegovina")
    }

    @Test("outside NWS, the provider naming no country or naming the US: no warnings, with a note")
    func nothingToMatch() {
        let atSea = Self.next(Self.sarajevo, nws: Self.outside, reverse: PointFetched.Facts(), owm: true)
        guard case .decided(let none, _) = atSea else {
            Issue.record("not decided")
            return
        }
        #expect(none.source == nil)
        #expect(none.note.contains("names no country"))
        let us = Place(name: "Somewhere", country: "US", state: nil, lat: 45.5, lon: -130)
        let offshore = Self.next(
            Place(name: nil, country: nil, state: nil, lat: 45.5, lon: -130), nws: Self.outside,
            reverse: PointFetched.Facts(place: us), owm: true)
        guard case .decided(let outside, _) = offshore else {
            Issue.record("not decided")
            return
        }
        #expect(outside.source == nil, "NWS said it has no data for the point")
        #expect(outside.note.contains("NWS answered that it has no data"))
    }
}
