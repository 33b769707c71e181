import Providers
import Testing
import WeatherDomain

/// A time from RFC 3339 text, which the test must spell correctly.
private func at(_ text: String) throws -> Timestamp {
    try #require(Timestamp(rfc3339: text), "bad test time \(text)")
}

/// The pollen members, which only Open-Meteo fills, and only in Europe.
private let pollen: [AirQualityEntry.Member] = [
    \.alderPollen, \.birchPollen, \.grassPollen, \.mugwortPollen, \.olivePollen, \.ragweedPollen,
]

@Suite("Open-Meteo air quality")
struct OpenMeteoAirQualityTests {
    let provider = OpenMeteoAirQualityProvider()
    let forli = Place(name: "Forlì", country: "IT", state: "Emilia-Romagna", lat: 44.22, lon: 12.04)
    let tokyo = Place(name: "Tokyo", country: "JP", state: nil, lat: 35.69, lon: 139.69)
    let vienna = Place(name: "Vienna", country: "AT", state: "Vienna", lat: 48.21, lon: 16.37)

    static let variables =
        "european_aqi,us_aqi,pm2_5,pm10,ozone,nitrogen_dioxide,sulphur_dioxide,carbon_monoxide,uv_index,"
        + "alder_pollen,birch_pollen,grass_pollen,mugwort_pollen,olive_pollen,ragweed_pollen"

    @Test("one request for now and the hours: current, hourly, local time zone, two days; no key")
    func request() {
        let request = provider.airQualityRequest(lat: 44.2231, lon: 12.040876)
        #expect(
            request.url
                == "https://air-quality-api.open-meteo.com/v1/air-quality?latitude=44.2231&longitude=12.0409"
                + "&current=\(Self.variables)&hourly=\(Self.variables)&timezone=auto&forecast_days=2")
        #expect(request.auditURL == request.url)
        #expect(request.headers.isEmpty)
        #expect(provider.airQualityForecastRequest(lat: 44.2231, lon: 12.04) == nil)
        let proxied = OpenMeteoAirQualityProvider(baseURL: "http://127.0.0.1:9002/aq/")
        #expect(proxied.airQualityRequest(lat: 1, lon: 2).url.hasPrefix("http://127.0.0.1:9002/aq/v1/air-quality?"))
    }

    @Test("Forlì, current only: integer indices, μg/m³ with U+03BC, what was not sent is absent")
    func forliCurrent() throws {
        let report = try provider.decodeAirQuality(
            try Fixture.bytes("openmeteo-airquality-forli-current"), forecast: nil, place: forli,
            now: try at("2026-10-10T22:10:00Z"))
        #expect(report.place == forli)
        #expect(report.hourly.isEmpty)
        let now = try #require(report.current)
        // 00:00 local at +02:00.
        #expect(now.time.description == "2026-10-10T22:00:00.000Z")
        #expect(now.europeanAqi == 32)
        #expect(now.europeanLevel == .fair)
        #expect(now.usAqi == 45)
        #expect(now.pm25 == 11.0)
        #expect(now.pm10 == 13.5)
        #expect(now.ozone == nil)
        #expect(now.carbonMonoxide == nil)
        #expect(now.uvIndex == nil)
        #expect(now.owmAqi == nil)
        for member in pollen { #expect(now[keyPath: member] == nil) }
    }

    @Test("Tokyo: pollen all null outside Europe is absent; 24 hours from the hour holding now")
    func tokyoPollenNull() throws {
        // 05:30 in Tokyo (+09:00).
        let report = try provider.decodeAirQuality(
            try Fixture.bytes("openmeteo-airquality-tokyo-pollen-null"), forecast: nil, place: tokyo,
            now: try at("2026-10-10T20:30:00Z"))
        #expect(report.current == nil)
        #expect(report.hourly.count == 24)
        #expect(report.hourly.first?.time.description == "2026-10-10T20:00:00.000Z")
        #expect(report.hourly.last?.time.description == "2026-10-11T19:00:00.000Z")
        for (earlier, later) in zip(report.hourly, report.hourly.dropFirst()) {
            #expect(later.time.milliseconds - earlier.time.milliseconds == 3_600_000)
        }
        for entry in report.hourly {
            for member in pollen { #expect(entry[keyPath: member] == nil) }
            #expect(entry.isEmpty)
        }
    }

    @Test(
        "the hours start at the hour holding now",
        arguments: [
            ("2026-10-10T19:59:59.999Z", "2026-10-10T19:00:00.000Z"),
            ("2026-10-10T20:00:00Z", "2026-10-10T20:00:00.000Z"),
            ("2026-10-09T00:00:00Z", "2026-10-10T15:00:00.000Z"),
        ])
    func hourStart(now: String, first: String) throws {
        let report = try provider.decodeAirQuality(
            try Fixture.bytes("openmeteo-airquality-tokyo-pollen-null"), forecast: nil, place: tokyo, now: try at(now))
        #expect(report.hourly.first?.time.description == first)
        #expect(report.hourly.count == 24)
    }

    @Test("the last hours of the body give fewer than 24 entries, past it none")
    func hoursRunOut() throws {
        let body = try Fixture.bytes("openmeteo-airquality-tokyo-pollen-null")
        let late = try provider.decodeAirQuality(body, forecast: nil, place: tokyo, now: try at("2026-10-13T10:00:00Z"))
        // The body's last hour is 23:00 on 13 October in Tokyo, 14:00 UTC: five hours from 10:00 UTC.
        #expect(late.hourly.map(\.time.description).last == "2026-10-13T14:00:00.000Z")
        #expect(late.hourly.count == 5)
        let past = try provider.decodeAirQuality(body, forecast: nil, place: tokyo, now: try at("2026-10-14T00:00:00Z"))
        #expect(past.hourly.isEmpty)
    }

    @Test("Vienna in pollen season: every member now, integers and floats, nulls absent rather than 0")
    func viennaPollen() throws {
        // 14:20 local at +02:00.
        let report = try provider.decodeAirQuality(
            try Fixture.bytes("openmeteo-airquality-vienna-pollen"), forecast: nil, place: vienna,
            now: try at("2025-05-10T12:20:00Z"))
        let now = try #require(report.current)
        #expect(
            now
                == AirQualityEntry(
                    time: try at("2025-05-10T12:00:00Z"), europeanAqi: 38, usAqi: 52, pm25: 9.4, pm10: 14, ozone: 96,
                    nitrogenDioxide: 12.3, sulphurDioxide: 1.8, carbonMonoxide: 187, uvIndex: 5.45, alderPollen: 0,
                    birchPollen: 12.3, grassPollen: 41, mugwortPollen: 0, olivePollen: nil, ragweedPollen: 0))
        #expect(now.europeanLevel == .fair)

        #expect(report.hourly.count == 24)
        let first = report.hourly[0]
        #expect(first.time == (try at("2025-05-10T12:00:00Z")))
        #expect(first.europeanAqi == 34)
        #expect(first.usAqi == 58)
        #expect(first.pm25 == 12.0)
        #expect(first.pm10 == 22)
        #expect(first.uvIndex == 4.75)
        #expect(first.birchPollen == 1.4)
        #expect(first.grassPollen == 14)
        #expect(first.olivePollen == nil)
        #expect(first.ozone == nil)
        let last = report.hourly[23]
        #expect(last.time == (try at("2025-05-11T11:00:00Z")))
        #expect(last.europeanAqi == 57)
        #expect(last.grassPollen == 13)
        #expect(last.birchPollen == 3.7)
        #expect(last.uvIndex == 5.7)
        #expect(report.hourly.allSatisfy { $0.olivePollen == nil })

        #expect(try AirQualityReport(json: report.json, path: "report") == report)
    }

    @Test("μg/m³ with the micro sign U+00B5 is the same unit; unix times are read too")
    func microSign() throws {
        let body = """
            {"utc_offset_seconds":0,"current_units":{"pm10":"\u{B5}g/m\u{B3}"},\
            "current":{"time":1746870300,"pm10":7}}
            """
        let report = try provider.decodeAirQuality(
            Array(body.utf8), forecast: nil, place: vienna, now: Timestamp(milliseconds: 1_746_870_300_000))
        #expect(report.current == AirQualityEntry(time: Timestamp(milliseconds: 1_746_870_300_000), pm10: 7))
    }

    @Test("a variable with a unit label weatherd does not know is left out with a warning; the rest is answered")
    func unknownUnit() throws {
        let body = """
            {"utc_offset_seconds":0,"current_units":{"carbon_monoxide":"ppm","pm10":"\u{3BC}g/m\u{B3}"},\
            "current":{"time":1746870300,"pm10":7,"carbon_monoxide":0.2},\
            "hourly_units":{"grass_pollen":"grains/ft\u{B3}"},\
            "hourly":{"time":[1746870300],"pm10":[8],"grass_pollen":[3]}}
            """
        let report = try provider.decodeAirQuality(
            Array(body.utf8), forecast: nil, place: vienna, now: Timestamp(milliseconds: 1_746_870_300_000))
        #expect(report.current?.pm10 == 7)
        #expect(report.current?.carbonMonoxide == nil)
        #expect(report.hourly.first?.pm10 == 8)
        #expect(report.hourly.first?.grassPollen == nil)
        #expect(
            report.warnings == [
                "$.current_units.carbon_monoxide is an unknown concentration unit \"ppm\": carbon_monoxide left out",
                "$.hourly_units.grass_pollen is an unknown pollen unit \"grains/ft\u{B3}\": grass_pollen left out",
            ])
    }

    @Test(
        "unreadable bodies are bad upstream responses naming the member",
        arguments: [
            ("<html>", "not JSON"), ("{}", "$.current is required"),
            (#"{"current":[]}"#, "$.current must be an object"),
            (#"{"current":{"pm10":1}}"#, "$.current.time is required"),
            (#"{"current":{"time":"2025-05-10T14:00","pm2_5":"high"}}"#, "$.current.pm2_5 must be a number"),
            (#"{"hourly":{"time":[0,3600],"pm10":[1]}}"#, "$.hourly.pm10 has 1 values where time has 2"),
            (#"{"hourly":{"pm10":[1]}}"#, "$.hourly.time is required"),
            (#"{"error":true,"reason":"Cannot initialize WeatherVariable"}"#, "error: Cannot initialize"),
        ])
    func badBodies(body: String, detail: String) throws {
        let error = try #require(
            failure { () throws(ProviderError) in
                _ = try provider.decodeAirQuality(
                    Array(body.utf8), forecast: nil, place: vienna, now: Timestamp(milliseconds: 0))
            })
        #expect(error.kind == .badUpstreamResponse)
        #expect(error.message.hasPrefix("open-meteo sent a response weatherd cannot read ("))
        #expect(error.message.contains(detail), "\(error.message)")
    }
}

@Suite("OpenWeatherMap air pollution")
struct OpenWeatherMapAirQualityTests {
    let provider = OpenWeatherMapAirQualityProvider(apiKey: "se&cret")
    let delhi = Place(name: "New Delhi", country: "IN", state: "Delhi", lat: 28.6139, lon: 77.209)

    /// Three forecast hours around the Delhi fixture's time (1785616886, 20:41:26 UTC), integers and floats.
    static let forecast = """
        {"coord":{"lon":77.209,"lat":28.6139},"list":[\
        {"main":{"aqi":3},"components":{"co":383.18,"no":0,"no2":8.65,"o3":40.98,"so2":1.11,"pm2_5":32.69,\
        "pm10":35.31,"nh3":3},"dt":1785610800},\
        {"main":{"aqi":4},"components":{"co":400,"no":0,"no2":9,"o3":41.5,"so2":1,"pm2_5":60,"pm10":71.2,"nh3":3.1},\
        "dt":1785614400},\
        {"main":{"aqi":2},"components":{"co":350.5,"no2":7.1,"o3":39,"so2":1.2,"pm2_5":20.25,"pm10":25},\
        "dt":1785618000}]}
        """

    @Test("two requests, the key only in the real URLs")
    func requests() throws {
        let current = provider.airQualityRequest(lat: 28.6139, lon: 77.209)
        #expect(
            current.url
                == "https://api.openweathermap.org/data/2.5/air_pollution?lat=28.6139&lon=77.209&appid=se%26cret")
        #expect(current.auditURL == "https://api.openweathermap.org/data/2.5/air_pollution?lat=28.6139&lon=77.209")
        let forecast = try #require(provider.airQualityForecastRequest(lat: 28.6139, lon: 77.209))
        #expect(
            forecast.url
                == "https://api.openweathermap.org/data/2.5/air_pollution/forecast?lat=28.6139&lon=77.209&appid=se%26cret"
        )
        #expect(
            forecast.auditURL == "https://api.openweathermap.org/data/2.5/air_pollution/forecast?lat=28.6139&lon=77.209"
        )
        #expect(!forecast.auditURL.contains("cret"))
    }

    @Test("Delhi now: OWM's 1–5 index and the components; no European or US index, UV or pollen invented")
    func delhiCurrent() throws {
        let report = try provider.decodeAirQuality(
            try Fixture.bytes("owm-airpollution-delhi"), forecast: nil, place: delhi,
            now: Timestamp(milliseconds: 1_785_616_886_000))
        #expect(report.place == delhi)
        #expect(report.hourly.isEmpty)
        #expect(
            report.current
                == AirQualityEntry(
                    time: Timestamp(milliseconds: 1_785_616_886_000), owmAqi: 3, pm25: 32.69, pm10: 35.31, ozone: 40.98,
                    nitrogenDioxide: 8.65, sulphurDioxide: 1.11, carbonMonoxide: 383.18))
        let now = try #require(report.current)
        #expect(now.europeanAqi == nil)
        #expect(now.usAqi == nil)
        #expect(now.uvIndex == nil)
        #expect(now.europeanLevel == nil)
    }

    @Test("the forecast body gives the hours from the one holding now")
    func forecastHours() throws {
        let report = try provider.decodeAirQuality(
            try Fixture.bytes("owm-airpollution-delhi"), forecast: Array(Self.forecast.utf8), place: delhi,
            now: Timestamp(milliseconds: 1_785_616_886_000))
        #expect(report.current?.owmAqi == 3)
        #expect(report.hourly.map(\.time.milliseconds) == [1_785_614_400_000, 1_785_618_000_000])
        #expect(report.hourly.map(\.owmAqi) == [4, 2])
        #expect(report.hourly.map(\.carbonMonoxide) == [400, 350.5])
        #expect(report.hourly.map(\.pm25) == [60, 20.25])
        #expect(report.hourly.map(\.sulphurDioxide) == [1, 1.2])
        #expect(report.hourly.allSatisfy { $0.europeanAqi == nil && $0.usAqi == nil })
        #expect(try AirQualityReport(json: report.json, path: "report") == report)
    }

    @Test(
        "unreadable bodies are bad upstream responses naming the member",
        arguments: [
            ("<html>", "not JSON"), ("{}", "$.list is required"),
            (#"{"list":[{"main":{"aqi":3}}]}"#, "$.list[0].dt is required"),
            (#"{"list":[{"dt":1,"main":{"aqi":7}}]}"#, "$.list[0].main.aqi must be between 1 and 5"),
            (#"{"list":[{"dt":1,"main":{"aqi":2.5}}]}"#, "$.list[0].main.aqi must be an integer"),
            (#"{"list":[{"dt":1,"components":{"co":"high"}}]}"#, "$.list[0].components.co must be a number"),
            (#"{"list":[{"dt":1,"components":[]}]}"#, "$.list[0].components must be an object"),
        ])
    func badBodies(body: String, detail: String) throws {
        for (current, forecast) in [(Array(body.utf8), nil), (Array("{\"list\":[]}".utf8), Array(body.utf8))] {
            let error = try #require(
                failure { () throws(ProviderError) in
                    _ = try provider.decodeAirQuality(
                        current, forecast: forecast, place: delhi, now: Timestamp(milliseconds: 0))
                })
            #expect(error.kind == .badUpstreamResponse)
            #expect(error.message.hasPrefix("openweathermap sent a response weatherd cannot read ("))
            #expect(error.message.contains(detail), "\(error.message)")
        }
    }
}
