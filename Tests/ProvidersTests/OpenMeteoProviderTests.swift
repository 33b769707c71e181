import Providers
import Testing
import WeatherDomain

@Suite("Open-Meteo provider")
struct OpenMeteoProviderTests {
    let provider = OpenMeteoProvider()
    let berlin = Place(name: "Berlin", country: "DE", state: nil, lat: 52.52, lon: 13.41)
    let delhi = Place(name: "New Delhi", country: "IN", state: nil, lat: 28.6139, lon: 77.209)

    static let stepVariables =
        "temperature_2m,apparent_temperature,relative_humidity_2m,dew_point_2m,pressure_msl,cloud_cover,visibility,"
        + "wind_speed_10m,wind_direction_10m,wind_gusts_10m,uv_index,precipitation,precipitation_probability,"
        + "weather_code,is_day"
    static let currentQuery =
        "current=\(stepVariables)&daily=temperature_2m_max,temperature_2m_min,sunrise,sunset"
        + "&forecast_days=1&timezone=auto&wind_speed_unit=ms&timeformat=unixtime"
    static let forecastQuery =
        "hourly=\(stepVariables)&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,"
        + "precipitation_probability_max,uv_index_max,sunrise,sunset&forecast_days=16&timezone=auto"
        + "&wind_speed_unit=ms&timeformat=unixtime"

    @Test("request URLs: path prefixes, trailing slashes stripped, no key so the audit URL is the URL")
    func requestURLs() {
        let proxied = OpenMeteoProvider(
            baseURL: "http://127.0.0.1:8080/om/", geocodingBaseURL: "http://127.0.0.1:8081/geo/")
        let current = proxied.currentRequest(lat: 52.52, lon: 13.41)
        #expect(
            current.url == "http://127.0.0.1:8080/om/v1/forecast?latitude=52.52&longitude=13.41&" + Self.currentQuery)
        #expect(current.auditURL == current.url)
        let forecast = proxied.forecastRequest(lat: 51.5085, lon: -0.1257)
        #expect(
            forecast.url
                == "http://127.0.0.1:8080/om/v1/forecast?latitude=51.5085&longitude=-0.1257&" + Self.forecastQuery)
        #expect(forecast.auditURL == forecast.url)
        let geocode = proxied.geocodeRequest(query: "Frankfurt am Main", limit: 3)
        #expect(
            geocode.url
                == "http://127.0.0.1:8081/geo/v1/search?name=Frankfurt%20am%20Main&count=3&language=en&format=json")
        #expect(geocode.auditURL == geocode.url)
        #expect(
            proxied.geocodeRequest(query: "Zürich & Co", limit: 7).url
                == "http://127.0.0.1:8081/geo/v1/search?name=Z%C3%BCrich%20%26%20Co&count=5&language=en&format=json")

        #expect(
            provider.currentRequest(lat: 52.52, lon: 13.419998).url
                == "https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=13.42&" + Self.currentQuery)
        #expect(
            provider.geocodeRequest(query: "Berlin", limit: 1).url
                == "https://geocoding-api.open-meteo.com/v1/search?name=Berlin&count=1&language=en&format=json")
    }

    @Test(
        "coordinates have at most 4 decimals and never an exponent",
        arguments: [
            (52.52, "52.52"), (-0.1257, "-0.1257"), (13.419998, "13.42"), (-33.86785, "-33.8679"), (0.00001, "0"),
            (-0.00001, "0"), (0.00005, "0.0001"), (100, "100"), (-90, "-90"), (179.99999, "180"), (0.1, "0.1"),
            (12.0005, "12.0005"), (1e-7, "0"),
        ])
    func coordinates(value: Double, text: String) {
        #expect(provider.currentRequest(lat: value, lon: 0).url.contains("?latitude=\(text)&longitude=0&"))
    }

    @Test("current from the recorded body: ISO local time, km/h to m/s, daily low and high")
    func currentFixture() throws {
        let report = try provider.decodeCurrent(try Fixture.bytes("openmeteo-forecast-berlin"), place: berlin)
        let now = report.current
        // 12:45 local at +01:00.
        #expect(now.observedAt.description == "2025-05-10T11:45:00.000Z")
        #expect(now.temperature == 15.4)
        #expect(now.humidity == 60)
        #expect(close(now.windSpeed, 11.5 / 3.6))
        #expect(now.condition == .wmo(3))
        #expect(now.condition.text == "overcast")
        #expect(now.tempMin == 8.9)
        #expect(now.tempMax == 17.2)
        #expect(now.feelsLike == nil)
        #expect(now.pressure == nil)
        #expect(now.windDirection == nil)
        #expect(now.windGust == nil)
        #expect(now.sunrise == nil)
        #expect(now.sunset == nil)
        #expect(report.utcOffsetSeconds == 3600)
        // The recorded body's zone echoes its request (Europe/London), not Berlin; it is passed on as sent.
        #expect(report.timezone == "Europe/London")
        #expect(report.place == berlin)
    }

    @Test("forecast from the recorded body, which has daily arrays and no hours: every day of the arrays")
    func forecastFixture() throws {
        let report = try provider.decodeForecast(try Fixture.bytes("openmeteo-forecast-berlin"), place: berlin)
        #expect(report.entries.isEmpty)
        #expect(report.hourly.isEmpty)
        #expect(report.utcOffsetSeconds == 3600)
        #expect(report.place == berlin)
        #expect(
            report.daily.map(\.date) == [
                "2025-05-10", "2025-05-11", "2025-05-12", "2025-05-13", "2025-05-14", "2025-05-15", "2025-05-16",
            ])
        #expect(report.daily.map(\.min) == [8.9, 6.2, 6.3, 5.4, 11, 8.5, 7])
        #expect(report.daily.map(\.max) == [17.2, 16.6, 17.4, 19.7, 20.7, 16.1, 15.5])
        for day in report.daily {
            #expect(day.min <= day.max)
            #expect(day.condition == OpenMeteoProvider.conditionNotReported)
        }
        #expect(!OpenMeteoProvider.conditionNotReported.isSevere)
    }

    @Test("hourly unixtime forecast at +05:30: 3-hourly steps on the local clock, days from every hour")
    func forecastHourly() throws {
        let report = try provider.decodeForecast(try Fixture.bytes("openmeteo-forecast-hourly"), place: delhi)
        #expect(report.timezone == "Asia/Kolkata")
        #expect(report.utcOffsetSeconds == 19800)
        #expect(report.place == delhi)
        // 48 hours from local midnight: every third one.
        #expect(report.entries.count == 16)
        let first = try #require(report.entries.first)
        #expect(first.time.description == "2025-05-09T18:30:00.000Z")
        #expect(first.temperature == 30.4)
        #expect(first.feelsLike == 30.0)
        #expect(first.humidity == 52)
        #expect(first.pressure == 1003.0)
        #expect(first.windSpeed == 2.36)
        #expect(first.windDirection == 258)
        #expect(first.pop == 0)
        #expect(first.condition == .wmo(0))
        for (earlier, later) in zip(report.entries, report.entries.dropFirst()) {
            #expect(later.time.milliseconds - earlier.time.milliseconds == 3 * 3600 * 1000)
        }
        for entry in report.entries {
            let seconds = entry.time.milliseconds / 1000
            #expect((seconds + 19800) % 10800 == 0)
            // Why the local clock: at +05:30 no hour of the grid is a UTC multiple of 3 h.
            #expect(seconds % 10800 != 0)
        }
        // 18:00 local on 11 May: the thunderstorm.
        let storm = report.entries[14]
        #expect(LocalDate.string(storm.time, zone: .fixed(19800)) == "2025-05-11")
        #expect(storm.condition == .wmo(95))
        #expect(storm.condition.theme == .stormy)
        #expect(storm.pop == 0.45)

        #expect(report.hourly.count == 48)
        #expect(report.hourly.first?.time == first.time)
        // No daily figures in this body: each day from all 24 of its hours, which the 3-hourly steps
        // alone would miss (their extremes are 28.8/29.8 and 40.9/41.7).
        #expect(report.daily.map(\.date) == ["2025-05-10", "2025-05-11"])
        #expect(report.daily.map(\.min) == [28.8, 29.6])
        #expect(report.daily.map(\.max) == [41, 41.9])
        #expect(report.daily.map(\.condition) == [.wmo(0), .wmo(0)])
    }

    @Test(
        "six days of hours give at most 40 steps, 96 hours (the fetch keeps 72 of them), and six days from every hour")
    func forecastCapped() throws {
        let start: Int64 = 1_746_835_200  // 2025-05-10T00:00Z
        let times = (0..<144).map { String(start + Int64($0) * 3600) }
        let temperatures = (0..<144).map { String(10 + $0 % 24) }
        let body = """
            {"utc_offset_seconds":0,"timezone":"GMT","hourly":{"time":[\(times.joined(separator: ","))],\
            "temperature_2m":[\(temperatures.joined(separator: ","))]}}
            """
        let report = try provider.decodeForecast(Array(body.utf8), place: berlin)
        #expect(report.entries.count == 40)
        #expect(report.entries.last?.time.description == "2025-05-14T21:00:00.000Z")
        #expect(report.hourly.count == ForecastReport.decodedHours)
        #expect(report.hourly.last?.time.description == "2025-05-13T23:00:00.000Z")
        // Fetched at 17:30 on the first day: the hour running then and the 71 after it.
        let kept = ForecastReport.hoursKept(
            report.hourly, at: Timestamp(milliseconds: (start + 17 * 3600 + 1800) * 1000))
        #expect(kept.count == ForecastReport.maxHours)
        #expect(kept.first?.time.description == "2025-05-10T17:00:00.000Z")
        #expect(kept.last?.time.description == "2025-05-13T16:00:00.000Z")
        #expect(report.daily.count == 6)
        #expect(
            report.daily.first
                == DailySummary(date: "2025-05-10", min: 10, max: 33, condition: OpenMeteoProvider.conditionNotReported),
            "23:00's 33 °C, which no 3-hourly step has")
    }

    @Test("hourly ISO local times, °F and km/h, missing variables and null temperatures")
    func forecastDefaultsOfTheAPI() throws {
        let body = """
            {"utc_offset_seconds":-18000,"timezone":"America/New_York",\
            "hourly_units":{"time":"iso8601","temperature_2m":"°F","wind_speed_10m":"km/h"},\
            "hourly":{"time":["2025-01-01T00:00","2025-01-01T01:00","2025-01-01T02:00","2025-01-01T03:00",\
            "2025-01-01T04:00","2025-01-01T05:00","2025-01-01T06:00"],\
            "temperature_2m":[32,33,34,null,38,39,41],"wind_speed_10m":[36,0,0,0,0,0,null],\
            "precipitation_probability":[null,0,0,0,0,0,100]}}
            """
        let report = try provider.decodeForecast(Array(body.utf8), place: berlin)
        #expect(report.entries.map(\.time.description) == ["2025-01-01T05:00:00.000Z", "2025-01-01T11:00:00.000Z"])
        #expect(report.entries.map(\.temperature) == [0, 5])
        #expect(report.entries.map(\.windSpeed) == [10, nil])
        // A 3-hourly step's chance is the highest of its three hours: null, 0 and 0 are 0.
        #expect(report.entries.map(\.pop) == [0, 1])
        #expect(report.entries.map(\.humidity) == [nil, nil])
        #expect(
            report.entries.map(\.condition) == [
                OpenMeteoProvider.conditionNotReported, OpenMeteoProvider.conditionNotReported,
            ])
        #expect(report.daily.map(\.date) == ["2025-01-01"])
    }

    @Test("current with unix times, °F, mph and knots, and today's sun times")
    func currentUnixtime() throws {
        let body = """
            {"utc_offset_seconds":7200,"timezone":"Europe/Berlin",\
            "current_units":{"time":"unixtime","temperature_2m":"°F","apparent_temperature":"°F",\
            "wind_speed_10m":"mph","wind_gusts_10m":"kn"},\
            "current":{"time":1746870300,"interval":900,"temperature_2m":50,"apparent_temperature":41,\
            "relative_humidity_2m":80,"weather_code":61,"pressure_msl":1012.3,"wind_speed_10m":10,\
            "wind_direction_10m":200,"wind_gusts_10m":20},\
            "daily_units":{"temperature_2m_max":"°F","temperature_2m_min":"°F"},\
            "daily":{"time":[1746828000],"temperature_2m_max":[59],"temperature_2m_min":[41],\
            "sunrise":[1746846780],"sunset":[1746902220]}}
            """
        let report = try provider.decodeCurrent(Array(body.utf8), place: berlin)
        let now = report.current
        #expect(now.observedAt == Timestamp(milliseconds: 1_746_870_300_000))
        #expect(close(now.temperature, 10))
        #expect(close(now.feelsLike, 5))
        #expect(close(now.windSpeed, 4.4704))
        #expect(close(now.windGust, 10.28888))
        #expect(now.windDirection == 200)
        #expect(now.humidity == 80)
        #expect(now.pressure == 1012.3)
        #expect(close(now.tempMin, 5))
        #expect(close(now.tempMax, 15))
        #expect(now.condition == .wmo(61))
        #expect(now.sunrise == Timestamp(milliseconds: 1_746_846_780_000))
        #expect(now.sunset == Timestamp(milliseconds: 1_746_902_220_000))
        #expect(report.utcOffsetSeconds == 7200)
    }

    @Test("geocoding: country code, admin1 as the state")
    func geocode() throws {
        let places = try provider.decodeGeocode(try Fixture.bytes("openmeteo-geocoding-berlin"))
        #expect(places.count == 3)
        #expect(
            places[0] == Place(name: "Berlin", country: "DE", state: "State of Berlin", lat: 52.52437, lon: 13.41053))
        #expect(
            places[1] == Place(name: "Berlin", country: "US", state: "New Hampshire", lat: 44.46867, lon: -71.18508))
        #expect(places[2].state == "New Jersey")
    }

    @Test("geocoding with no match: Open-Meteo leaves results out, which is no candidates")
    func geocodeEmpty() throws {
        #expect(try provider.decodeGeocode(try Fixture.bytes("openmeteo-geocoding-empty")).isEmpty)
    }

    @Test(
        "unreadable current bodies are bad upstream responses",
        arguments: [
            ("<html><body>502 Bad Gateway</body></html>", "not JSON"), ("{}", "$.current must be an object"),
            (#"{"current":{"time":1746870300}}"#, "$.current.temperature_2m is required"),
            (#"{"current":{"temperature_2m":1}}"#, "$.current.time is required"),
            (#"{"current":{"time":"noon","temperature_2m":1}}"#, "$.current.time must be unix seconds"),
            (
                #"{"current":{"time":1,"temperature_2m":1,"weather_code":2.5}}"#,
                "$.current.weather_code must be an integer"
            ),
            (
                #"{"current_units":{"temperature_2m":"°R"},"current":{"time":1,"temperature_2m":1}}"#,
                "$.current_units.temperature_2m is an unknown temperature unit"
            ),
            (#"{"error":true,"reason":"Latitude must be in range of -90 to 90°."}"#, "error: Latitude must be"),
        ])
    func badCurrent(body: String, detail: String) throws {
        let error = try #require(
            failure { () throws(ProviderError) in
                _ = try provider.decodeCurrent(Array(body.utf8), place: berlin)
            })
        #expect(error.kind == .badUpstreamResponse)
        #expect(error.message.hasPrefix("open-meteo sent a response weatherd cannot read ("))
        #expect(error.message.contains(detail), "\(error.message)")
    }

    @Test("the recorded 400 body, were it to come with a 2xx, is a bad upstream response")
    func errorBody() throws {
        let body = try Fixture.bytes("openmeteo-error-400")
        let error = try #require(
            failure { () throws(ProviderError) in
                _ = try provider.decodeForecast(body, place: berlin)
            })
        #expect(error.kind == .badUpstreamResponse)
    }

    @Test(
        "unreadable forecast bodies are bad upstream responses",
        arguments: [
            ("<html>", "not JSON"), (#"{"utc_offset_seconds":0}"#, "$.hourly is required"),
            (#"{"hourly":{"time":[0,3600]}}"#, "$.hourly.temperature_2m is required"),
            (
                #"{"hourly":{"time":[0,3600],"temperature_2m":[1]}}"#,
                "$.hourly.temperature_2m has 1 values where time has 2"
            ),
            (
                #"{"hourly":{"time":[0],"temperature_2m":["hot"]}}"#,
                "$.hourly.temperature_2m[0] must be a number or null"
            ),
            (#"{"hourly":{"time":[true],"temperature_2m":[1]}}"#, "$.hourly.time[0] must be unix seconds"),
            (#"{"daily":{"time":["2025-05-10"],"temperature_2m_max":[1]}}"#, "$.daily.temperature_2m_min is required"),
            (
                #"{"daily":{"time":["2025-13-10"],"temperature_2m_max":[1],"temperature_2m_min":[0]}}"#,
                "$.daily.time[0]"
            ),
        ])
    func badForecast(body: String, detail: String) throws {
        let error = try #require(
            failure { () throws(ProviderError) in
                _ = try provider.decodeForecast(Array(body.utf8), place: berlin)
            })
        #expect(error.kind == .badUpstreamResponse)
        #expect(error.message.contains(detail), "\(error.message)")
    }

    @Test(
        "unreadable geocoding bodies are bad upstream responses",
        arguments: [
            ("<html>", "not JSON"), (#"{"results":{}}"#, "$.results must be an array"),
            (#"{"results":[{"name":"X","longitude":1}]}"#, "$.results[0].latitude is required"),
            ("[]", "$ must be an object"),
        ])
    func badGeocode(body: String, detail: String) throws {
        let error = try #require(
            failure { () throws(ProviderError) in _ = try provider.decodeGeocode(Array(body.utf8)) })
        #expect(error.kind == .badUpstreamResponse)
        #expect(error.message.contains(detail), "\(error.message)")
    }
}
