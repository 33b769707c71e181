import Foundation
import Providers
import Testing
import WeatherDomain

@Suite("OpenWeatherMap provider")
struct OpenWeatherMapProviderTests {
    /// The fixtures were captured with `units=standard`, so they decode as Kelvin.
    let kelvin = OpenWeatherMapProvider(apiKey: "k", requestUnits: .standard)
    let london = Place(name: nil, country: nil, state: nil, lat: 51.5085, lon: -0.1257)

    @Test("current weather: Kelvin to °C, condition, offset, observation time, sun times")
    func current() throws {
        let report = try kelvin.decodeCurrent(try Fixture.bytes("owm-current-london"), place: london)
        let now = report.current
        #expect(close(now.temperature, 15.3))
        #expect(close(now.feelsLike, 14.4))
        #expect(close(now.tempMin, 13.19))
        #expect(close(now.tempMax, 17.65))
        #expect(now.pressure == 1031)
        #expect(now.humidity == 58)
        #expect(now.windSpeed == 6.17)
        #expect(now.windDirection == 80)
        #expect(now.windGust == nil)
        #expect(now.visibility == 10000)
        #expect(now.condition == Condition(scheme: "owm", code: 801, text: "few clouds"))
        #expect(now.condition.theme == .cloudy)
        #expect(now.observedAt == Timestamp(milliseconds: 1_685_094_601_000))
        #expect(now.sunrise == Timestamp(milliseconds: 1_685_073_309_000))
        #expect(now.sunset == Timestamp(milliseconds: 1_685_131_212_000))
        #expect(report.utcOffsetSeconds == 3600)
        #expect(report.timezone == nil)
        #expect(report.place == Place(name: "London", country: "GB", state: nil, lat: 51.5085, lon: -0.1257))
    }

    @Test("the requested place's name and country win over the body's; coordinates stay as requested")
    func requestedPlaceKept() throws {
        let asked = Place(name: "Greenwich", country: nil, state: "England", lat: 51.48, lon: 0)
        let report = try kelvin.decodeCurrent(try Fixture.bytes("owm-current-london"), place: asked)
        #expect(report.place == Place(name: "Greenwich", country: "GB", state: "England", lat: 51.48, lon: 0))
    }

    @Test("metric, the units weatherd asks for, takes temperatures as they come")
    func metricIsAsIs() throws {
        let metric = OpenWeatherMapProvider(apiKey: "k")
        let report = try metric.decodeCurrent(try Fixture.bytes("owm-current-london"), place: london)
        #expect(report.current.temperature == 288.45)
    }

    @Test("forecast: 40 steps, pop, daily lows and highs by local date, every date the steps touch")
    func forecast() throws {
        let report = try kelvin.decodeForecast(try Fixture.bytes("owm-forecast-london"), place: london)
        #expect(report.entries.count == 40)
        let first = try #require(report.entries.first)
        #expect(first.time.description == "2023-01-25T15:00:00.000Z")
        #expect(close(first.temperature, 275.8 - 273.15))
        #expect(close(first.feelsLike, 273.66 - 273.15))
        #expect(first.pop == 0.16)
        #expect(first.windSpeed == 2.11)
        #expect(first.windDirection == 239)
        #expect(first.humidity == 95)
        #expect(first.pressure == 1030)
        #expect(first.condition == Condition(scheme: "owm", code: 804, text: "overcast clouds"))
        #expect(report.entries[1].pop == 0.92)
        #expect(report.entries[1].condition.theme == .rainy)
        for (earlier, later) in zip(report.entries, report.entries.dropFirst()) {
            #expect(later.time.milliseconds - earlier.time.milliseconds == 3 * 3600 * 1000)
        }

        #expect(report.utcOffsetSeconds == 0)
        #expect(report.place == Place(name: "London", country: "GB", state: nil, lat: 51.5085, lon: -0.1257))
        #expect(report.hourly.isEmpty)
        #expect(
            report.daily.map(\.date) == [
                "2023-01-25", "2023-01-26", "2023-01-27", "2023-01-28", "2023-01-29", "2023-01-30",
            ])
        for day in report.daily { #expect(day.min <= day.max) }
        // 25 January has the 15:00, 18:00 and 21:00 steps: overcast, then light rain twice.
        let firstDay = try #require(report.daily.first)
        #expect(close(firstDay.min, 275.8 - 273.15))
        #expect(close(firstDay.max, 277.68 - 273.15))
        #expect(firstDay.condition == Condition(scheme: "owm", code: 500, text: "light rain"))
    }

    @Test("the local date follows city.timezone: an offset moves late steps to the next day")
    func forecastLocalDates() throws {
        var text = String(decoding: try Fixture.bytes("owm-forecast-london"), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"timezone\": 0", with: "\"timezone\": 10800")
        let report = try kelvin.decodeForecast(Array(text.utf8), place: london)
        #expect(report.utcOffsetSeconds == 10800)
        // At +03:00 the 21:00 UTC step of 25 January is already 26 January.
        #expect(report.daily.first?.date == "2023-01-25")
        #expect(close(report.daily.first?.max, 276.29 - 273.15))
    }

    @Test("geocoding: five candidates, state only where the body has one")
    func geocode() throws {
        let places = try kelvin.decodeGeocode(try Fixture.bytes("owm-geo-direct-london"))
        #expect(places.count == 5)
        #expect(places[0] == Place(name: "London", country: "GB", state: nil, lat: 51.5085, lon: -0.1257))
        #expect(places[1].country == "CA")
        #expect(places[2] == Place(name: "London", country: "US", state: "OH", lat: 39.8865, lon: -83.4483))
        #expect(places.map(\.state) == [nil, nil, "OH", "KY", "CA"])
        #expect(try kelvin.decodeGeocode(Array("[]".utf8)).isEmpty)
    }

    @Test("request URLs: path prefix, no trailing slash, metric units, key last")
    func requestURLs() {
        let provider = OpenWeatherMapProvider(apiKey: "test-key", baseURL: "http://127.0.0.1:8080/owm/")
        let current = provider.currentRequest(lat: 51.5085, lon: -0.1257)
        #expect(
            current.url
                == "http://127.0.0.1:8080/owm/data/2.5/weather?lat=51.5085&lon=-0.1257&units=metric&appid=test-key")
        #expect(current.auditURL == "http://127.0.0.1:8080/owm/data/2.5/weather?lat=51.5085&lon=-0.1257&units=metric")
        let forecast = provider.forecastRequest(lat: -33.86785, lon: 151.20732)
        #expect(
            forecast.url
                == "http://127.0.0.1:8080/owm/data/2.5/forecast?lat=-33.8679&lon=151.2073&units=metric&appid=test-key")
        #expect(
            forecast.auditURL == "http://127.0.0.1:8080/owm/data/2.5/forecast?lat=-33.8679&lon=151.2073&units=metric")
        let geocode = provider.geocodeRequest(query: "São Paulo, BR", limit: 5)
        #expect(
            geocode.url == "http://127.0.0.1:8080/owm/geo/1.0/direct?q=S%C3%A3o%20Paulo%2C%20BR&limit=5&appid=test-key")
        #expect(geocode.auditURL == "http://127.0.0.1:8080/owm/geo/1.0/direct?q=S%C3%A3o%20Paulo%2C%20BR&limit=5")
        #expect(provider.geocodeRequest(query: "x", limit: 9).auditURL.hasSuffix("limit=5"))
        #expect(provider.geocodeRequest(query: "x", limit: 0).auditURL.hasSuffix("limit=1"))
        #expect(
            OpenWeatherMapProvider(apiKey: "k").currentRequest(lat: 0, lon: 0).url
                == "https://api.openweathermap.org/data/2.5/weather?lat=0&lon=0&units=metric&appid=k")
    }

    @Test("the key is percent-encoded in the real URL and absent from the audit URL")
    func keyNeverAudited() {
        let provider = OpenWeatherMapProvider(apiKey: "a b&c")
        let requests = [
            provider.currentRequest(lat: 1, lon: 2), provider.forecastRequest(lat: 1, lon: 2),
            provider.geocodeRequest(query: "Paris", limit: 1),
        ]
        for request in requests {
            #expect(request.url.hasSuffix("&appid=a%20b%26c"))
            #expect(!request.url.contains("a b"))
            #expect(request.url.hasPrefix(request.auditURL + "&"))
            #expect(!request.auditURL.contains("appid"))
            for fragment in ["a b", "a%20b", "b&c", "b%26c", "a+b"] {
                #expect(!request.auditURL.contains(fragment))
            }
        }
    }

    @Test("neither interpolating nor dumping the provider shows the key")
    func keyNotDescribed() {
        let provider = OpenWeatherMapProvider(apiKey: "SECRET-KEY-123")
        var dumped = ""
        dump(provider, to: &dumped)
        for text in ["\(provider)", String(reflecting: provider), dumped] {
            #expect(!text.contains("SECRET"), "\(text)")
            #expect(text.contains("api.openweathermap.org"), "\(text)")
        }
    }

    @Test("cod as a string or a number is ignored")
    func codIgnored() throws {
        let body = #"{"cod":"200","dt":1,"main":{"temp":20},"weather":[{"id":800,"description":"clear sky"}]}"#
        let metric = OpenWeatherMapProvider(apiKey: "k")
        let report = try metric.decodeCurrent(Array(body.utf8), place: london)
        #expect(report.current.temperature == 20)
        #expect(report.current.condition.theme == .sunny)
        #expect(report.utcOffsetSeconds == 0)
        #expect(report.current.sunrise == nil)
        #expect(report.current.windSpeed == nil)
    }

    @Test(
        "unreadable current bodies are bad upstream responses",
        arguments: [
            ("<html><body>502 Bad Gateway</body></html>", "not JSON"), ("", "not JSON"),
            ("{\"cod\":200}", "$.main must be an object"),
            (#"{"dt":1,"main":{"temp":"warm"},"weather":[{"id":800}]}"#, "$.main.temp must be a number"),
            (#"{"dt":1,"main":{"temp":20},"weather":[]}"#, "$.weather must not be empty"),
            (#"{"dt":1,"main":{"temp":20}}"#, "$.weather is required"),
            (#"{"main":{"temp":20},"weather":[{"id":800}]}"#, "$.dt is required"), ("[]", "$ must be an object"),
        ])
    func badCurrent(body: String, detail: String) throws {
        let error = try #require(
            failure { () throws(ProviderError) in
                _ = try kelvin.decodeCurrent(Array(body.utf8), place: london)
            })
        #expect(error.kind == .badUpstreamResponse)
        #expect(error.message.hasPrefix("openweathermap sent a response weatherd cannot read ("))
        #expect(error.message.contains(detail), "\(error.message)")
        #expect(!error.message.contains("at byte 0 at byte"), "the offset is named once: \(error.message)")
    }

    @Test(
        "unreadable forecast bodies are bad upstream responses",
        arguments: [
            ("<html>", "not JSON"), ("{}", "$.list is required"),
            (#"{"cod":"200","list":[{"dt":1674658800,"weather":[{"id":800}]}]}"#, "$.list[0].main must be an object"),
            (#"{"list":[{"dt":"soon","main":{"temp":1},"weather":[{"id":800}]}]}"#, "$.list[0].dt must be an integer"),
        ])
    func badForecast(body: String, detail: String) throws {
        let error = try #require(
            failure { () throws(ProviderError) in
                _ = try kelvin.decodeForecast(Array(body.utf8), place: london)
            })
        #expect(error.kind == .badUpstreamResponse)
        #expect(error.message.contains(detail), "\(error.message)")
    }

    @Test(
        "unreadable geocoding bodies are bad upstream responses",
        arguments: [
            ("<html>", "not JSON"), ("{}", "$ must be an array"), (#"[{"name":"X","lat":1}]"#, "$[0].lon is required"),
        ])
    func badGeocode(body: String, detail: String) throws {
        let error = try #require(failure { () throws(ProviderError) in _ = try kelvin.decodeGeocode(Array(body.utf8)) })
        #expect(error.kind == .badUpstreamResponse)
        #expect(error.message.contains(detail), "\(error.message)")
    }
}
