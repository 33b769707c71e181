import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherTesting

@Suite("OpenWeatherMap One Call 3.0")
struct OpenWeatherMapOneCallTests {
    /// The recorded body was asked for with `units=metric`.
    let metric = OpenWeatherMapOneCallProvider(apiKey: "k")
    let newYork = Place(name: "New York", country: "US", state: "NY", lat: 40.78, lon: -73.97)
    static let fixture = "owm-onecall3-new-york-no-alerts"

    static func body() throws -> JSONValue { try JSONValue.parse(try Fixture.bytes(fixture)) }

    /// `value` with every object member, at any depth, replaced by what `replace` gives for its key and value,
    /// or rewritten in turn where `replace` gives nil.
    static func rewriting(_ value: JSONValue, _ replace: (String, JSONValue) -> JSONValue?) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.reduce(into: [:]) { object, member in
                    object[member.key] = replace(member.key, member.value) ?? rewriting(member.value, replace)
                })
        case .array(let items): return .array(items.map { rewriting($0, replace) })
        default: return value
        }
    }

    /// The recorded body with its top-level member `key` set to `value` (removed when nil).
    static func with(_ key: String, _ value: JSONValue?) throws -> [UInt8] {
        guard case .object(var members) = try body() else { throw FieldError(path: "$", problem: "not an object") }
        members[key] = value
        return JSONValue.object(members).jsonBytes
    }

    // MARK: - Requests

    @Test("requests: /data/3.0/onecall with units and exclude=minutely,alerts, key last and absent from the audit URL")
    func requests() {
        let provider = OpenWeatherMapOneCallProvider(apiKey: "a b&c", baseURL: "http://127.0.0.1:8080/owm/")
        let current = provider.currentRequest(lat: 40.7767, lon: -73.9713)
        #expect(
            current.auditURL
                == "http://127.0.0.1:8080/owm/data/3.0/onecall?lat=40.7767&lon=-73.9713&units=metric&exclude=minutely,alerts"
        )
        #expect(current.url == current.auditURL + "&appid=a%20b%26c")
        #expect(provider.forecastRequest(lat: 40.7767, lon: -73.9713) == current, "one URL gives both")
        let geocode = provider.geocodeRequest(query: "New York", limit: 3)
        #expect(geocode.auditURL == "http://127.0.0.1:8080/owm/geo/1.0/direct?q=New%20York&limit=3")
        #expect(geocode.url == geocode.auditURL + "&appid=a%20b%26c")
        for request in [current, geocode] {
            #expect(!request.auditURL.contains("appid"))
            for fragment in ["a b", "a%20b", "b&c", "b%26c"] { #expect(!request.auditURL.contains(fragment)) }
        }
        #expect(provider.name == "openweathermap")
        #expect(provider.hasHourlyForecast)
        for units in [OpenWeatherMapProvider.RequestUnits.standard, .imperial] {
            let request = OpenWeatherMapOneCallProvider(apiKey: "k", requestUnits: units).currentRequest(lat: 1, lon: 2)
            #expect(request.auditURL.contains("&units=\(units.rawValue)&"), "\(request.auditURL)")
        }
    }

    @Test("neither interpolating nor dumping the provider shows the key")
    func keyNotDescribed() {
        let provider = OpenWeatherMapOneCallProvider(apiKey: "SECRET-KEY-123")
        var dumped = ""
        dump(provider, to: &dumped)
        for text in ["\(provider)", String(reflecting: provider), dumped] {
            #expect(!text.contains("SECRET"), "\(text)")
            #expect(text.contains("api.openweathermap.org"), "\(text)")
        }
    }

    // MARK: - Current

    @Test("current of the recorded body: every field it has, those it lacks absent, today's low and high")
    func current() throws {
        let report = try metric.decodeCurrent(try Fixture.bytes(Self.fixture), place: newYork)
        #expect(report.place == newYork)
        #expect(report.timezone == "America/New_York")
        #expect(report.utcOffsetSeconds == -18_000)
        let now = report.current
        #expect(now.observedAt == Timestamp(milliseconds: 1_770_414_297_000))
        #expect(now.temperature == -0.27)
        #expect(now.feelsLike == -3.9)
        #expect(now.dewPoint == -7.54)
        #expect(now.pressure == 1004)
        #expect(now.humidity == 54)
        #expect(now.uvIndex == 0)
        #expect(now.cloudCover == 75)
        #expect(now.visibility == 10_000)
        #expect(now.windSpeed == 3.09)
        #expect(now.windDirection == 220)
        #expect(now.condition == Condition(scheme: "owm", code: 803, text: "broken clouds"))
        #expect(now.sunrise == Timestamp(milliseconds: 1_770_379_257_000))
        #expect(now.sunset == Timestamp(milliseconds: 1_770_416_341_000))
        #expect(now.isDay == true, "16:44 local, between sunrise and sunset")
        #expect(now.tempMin == -11.86, "daily[0].temp.min")
        #expect(now.tempMax == -0.27, "daily[0].temp.max")
        // Not in the body's `current`: nil, never 0.
        #expect(now.windGust == nil)
        #expect(now.precipitation == nil)
        #expect(now.pop == nil)
    }

    @Test("current: rain and snow of the last hour add up; day from the Sun's times, else from the icon")
    func currentRainSnowAndDay() throws {
        guard case .object(var current) = try #require(try Self.body()["current"]) else {
            Issue.record("current is not an object")
            return
        }
        current["rain"] = ["1h": 0.5]
        current["snow"] = ["1h": 0.25]
        // After sunset, with a day icon: the Sun's times win.
        current["dt"] = 1_770_420_000
        let afterSunset = try metric.decodeCurrent(try Self.with("current", .object(current)), place: newYork)
        #expect(afterSunset.current.precipitation == 0.75)
        #expect(afterSunset.current.isDay == false)
        // Without the Sun's times (a polar night or day), the icon's last letter.
        current["sunrise"] = nil
        current["sunset"] = 0
        let noSun = try metric.decodeCurrent(try Self.with("current", .object(current)), place: newYork)
        #expect(noSun.current.isDay == true, "icon 04d")
        #expect(noSun.current.sunrise == nil)
        #expect(noSun.current.sunset == nil, "0 is no sunset")
        // A daily[0] of another local date gives no low and high for today.
        let tomorrow = try #require(try Self.body()["daily"]?.arrayValue?.dropFirst())
        let body = try JSONValue.parse(try Self.with("daily", .array(Array(tomorrow))))
        let shifted = try metric.decodeCurrent(body.jsonBytes, place: newYork)
        #expect(shifted.current.tempMin == nil)
        #expect(shifted.current.tempMax == nil)
    }

    // MARK: - Forecast

    @Test("hourly: the 48 recorded hours, every field, hourly snow {\"1h\":…}, day or night from the icon")
    func hourly() throws {
        let report = try metric.decodeForecast(try Fixture.bytes(Self.fixture), place: newYork)
        #expect(report.place == newYork)
        #expect(report.timezone == "America/New_York")
        #expect(report.utcOffsetSeconds == -18_000)
        #expect(report.hourly.count == 48)
        for (earlier, later) in zip(report.hourly, report.hourly.dropFirst()) {
            #expect(later.time.milliseconds - earlier.time.milliseconds == 3_600_000)
        }
        let first = report.hourly[0]
        #expect(first.time.description == "2026-02-06T21:00:00.000Z", "16:00 at -05:00")
        #expect(first.temperature == -0.66)
        #expect(first.feelsLike == -3.52)
        #expect(first.pressure == 1004)
        #expect(first.humidity == 61)
        #expect(first.dewPoint == -6.5)
        #expect(first.uvIndex == 0.18)
        #expect(first.cloudCover == 80)
        #expect(first.visibility == 10_000)
        #expect(first.windSpeed == 2.24)
        #expect(first.windDirection == 187)
        #expect(first.windGust == 3.73)
        #expect(first.pop == 0)
        #expect(first.isDay == true, "icon 04d")
        #expect(first.precipitation == nil, "no rain or snow member: unknown, not 0")
        #expect(first.condition == Condition(scheme: "owm", code: 803, text: "broken clouds"))
        let snowy = report.hourly[3]
        #expect(snowy.precipitation == 0.13)
        #expect(snowy.pop == 0.2)
        #expect(snowy.visibility == nil, "this hour has no visibility")
        #expect(snowy.isDay == false, "icon 13n")
        #expect(snowy.condition.theme == .snowy)
        #expect(report.hourly[4].precipitation == 0.18)
    }

    @Test("more than 48 hours in a body are cut to 48")
    func atMost48Hours() throws {
        let hours = try #require(try Self.body()["hourly"]?.arrayValue)
        let later = hours.map {
            Self.rewriting($0) { key, value in key == "dt" ? .int((value.intValue ?? 0) + 48 * 3600) : nil }
        }
        let report = try metric.decodeForecast(try Self.with("hourly", .array(hours + later)), place: newYork)
        #expect(report.hourly.count == OpenWeatherMapOneCallProvider.maxHours)
        #expect(report.hourly.count == 48)
        #expect(report.hourly.last?.time.description == "2026-02-08T20:00:00.000Z")
    }

    @Test("3-hourly steps from the hours as Open-Meteo's: local multiples of 3 h, the steps' totals and chances")
    func threeHourly() throws {
        let report = try metric.decodeForecast(try Fixture.bytes(Self.fixture), place: newYork)
        // From 18:00 local (the first multiple of 3 h) to 15:00 on the 8th, the last hour's.
        #expect(report.entries.count == 16)
        let first = try #require(report.entries.first)
        #expect(first.time.description == "2026-02-06T23:00:00.000Z")
        #expect(first.temperature == -1.03, "the first hour's values")
        #expect(close(first.precipitation, 0.13 + 0.18), "18:00, 19:00 and 20:00: none, 0.13 and 0.18 mm of snow")
        #expect(first.pop == 1)
        for step in report.entries {
            let localHour = ((step.time.milliseconds / 1000 - 18_000) / 3600) % 24
            #expect(localHour % 3 == 0, "\(step.time)")
            let hours = report.hourly.filter {
                $0.time >= step.time && $0.time.milliseconds < step.time.milliseconds + 3 * 3_600_000
            }
            #expect(step.pop == hours.compactMap(\.pop).max())
            let amounts = hours.compactMap(\.precipitation)
            #expect(step.precipitation == (amounts.isEmpty ? nil : amounts.reduce(0, +)))
        }
    }

    @Test("daily: the 8 recorded days, lows and highs are temp.min and temp.max, daily rain and snow are numbers")
    func daily() throws {
        let report = try metric.decodeForecast(try Fixture.bytes(Self.fixture), place: newYork)
        let recorded = try #require(try Self.body()["daily"]?.arrayValue)
        #expect(report.daily.count == 8)
        #expect(
            report.daily.map(\.date) == [
                "2026-02-06", "2026-02-07", "2026-02-08", "2026-02-09", "2026-02-10", "2026-02-11", "2026-02-12",
                "2026-02-13",
            ])
        #expect(report.daily.map(\.min) == recorded.map { $0["temp"]?["min"]?.doubleValue })
        #expect(report.daily.map(\.max) == recorded.map { $0["temp"]?["max"]?.doubleValue })
        #expect(report.daily.map(\.min) == [-11.86, -14.31, -16.84, -17.11, -10, -4.02, -4.63, -6.39])
        #expect(report.daily.map(\.max) == [-0.27, -3.78, -8.96, -3.39, -0.51, 2.06, 0.2, 0.95])
        let precipitation = report.daily.map(\.precipitation)
        #expect(precipitation[0] == 0.69, "snow alone")
        #expect(close(precipitation[5], 4.38 + 2.17), "rain and snow")
        #expect(precipitation[2] == nil, "neither: unknown, not 0")
        #expect(report.daily.map(\.pop) == [1, 1, 0, 0, 0, 1, 0, 0])
        #expect(report.daily.map(\.uvIndex) == [2.22, 1.57, 2.19, 2.7, 3.1, 4, 4, 4])
        #expect(report.daily.map(\.condition.code) == [600, 600, 800, 803, 803, 616, 802, 803])
        #expect(report.daily[5].condition.text == "rain and snow")
        #expect(report.daily[0].sunrise == Timestamp(milliseconds: 1_770_379_257_000))
        #expect(report.daily[7].sunset == Timestamp(milliseconds: 1_771_021_662_000))
    }

    @Test(
        "daily lows and highs are temp.min and temp.max of the local date by timezone_offset, with no zone named",
        arguments: [-18_000, 0, 19_800, 46_800] as [Int64])
    func dailyByOffset(offset: Int64) throws {
        guard case .object(var members) = try Self.body() else { throw FieldError(path: "$", problem: "not an object") }
        members["timezone_offset"] = .int(offset)
        // A named zone's rules would win over the offset (ZoneOffsetsTimeZoneTests): here only the offset counts.
        members["timezone"] = nil
        let report = try metric.decodeForecast(JSONValue.object(members).jsonBytes, place: newYork)
        #expect(report.utcOffsetSeconds == offset)
        let recorded = try #require(try Self.body()["daily"]?.arrayValue)
        #expect(report.daily.count == recorded.count)
        for (day, item) in zip(report.daily, recorded) {
            let seconds = try #require(item["dt"]?.intValue)
            let date = String(Timestamp(milliseconds: (seconds + offset) * 1000).description.prefix(10))
            #expect(day.date == date)
            #expect(day.min == item["temp"]?["min"]?.doubleValue, "\(date) low")
            #expect(day.max == item["temp"]?["max"]?.doubleValue, "\(date) high")
        }
        // Each day's `dt` is noon in New York, 17:00 UTC: at +13:00 that is 06:00 the next day.
        #expect(report.daily.first?.date == (offset == 46_800 ? "2026-02-07" : "2026-02-06"))
    }

    @Test("without daily, the days are summarized from every hour by local date")
    func daysFromHours() throws {
        let report = try metric.decodeForecast(try Self.with("daily", nil), place: newYork)
        #expect(report.daily.map(\.date) == ["2026-02-06", "2026-02-07", "2026-02-08"])
        let seventh = report.hourly.filter { LocalDate.string($0.time, zone: .fixed(-18_000)) == "2026-02-07" }
        #expect(seventh.count == 24)
        #expect(report.daily[1].min == seventh.map(\.temperature).min())
        #expect(report.daily[1].max == seventh.map(\.temperature).max())
    }

    @Test("alerts: absent (the recorded body), empty, or present, the body decodes; weatherd does not read them")
    func alerts() throws {
        #expect(try Self.body()["alerts"] == nil, "the recorded body has no alerts member at all")
        let alert: JSONValue = [
            "sender_name": "NWS New York City - Upton NY", "event": "Winter Weather Advisory", "start": 1_770_400_000,
            "end": 1_770_450_000, "description": "Snow expected.", "tags": ["Snow/Ice"],
        ]
        for alerts in [nil, [], [alert]] as [JSONValue?] {
            let body = try Self.with("alerts", alerts)
            #expect(try metric.decodeForecast(body, place: newYork).daily.count == 8)
            #expect(try metric.decodeCurrent(body, place: newYork).current.temperature == -0.27)
        }
    }

    // MARK: - Units

    /// The recorded metric body as One Call answers in `units`: temperatures in °F or K, wind in mph (imperial).
    static func converted(to units: OpenWeatherMapProvider.RequestUnits) throws -> [UInt8] {
        let temperatures: Set = ["temp", "feels_like", "dew_point", "min", "max", "day", "night", "eve", "morn"]
        return rewriting(try body()) { key, value in
            guard let number = value.doubleValue else { return nil }
            switch (units, key) {
            case (.imperial, _) where temperatures.contains(key): return .double(number * 9 / 5 + 32)
            case (.imperial, "wind_speed"), (.imperial, "wind_gust"): return .double(number / 0.44704)
            case (.standard, _) where temperatures.contains(key): return .double(number + 273.15)
            default: return nil
            }
        }.jsonBytes
    }

    @Test(
        "units: standard (K) and imperial (°F, mph) are read into °C and m/s; pressure, visibility, mm as they come",
        arguments: [OpenWeatherMapProvider.RequestUnits.standard, .imperial])
    func units(units: OpenWeatherMapProvider.RequestUnits) throws {
        let provider = OpenWeatherMapOneCallProvider(apiKey: "k", requestUnits: units)
        let body = try Self.converted(to: units)
        #expect(body != (try Fixture.bytes(Self.fixture)), "the body was converted")
        let want = try metric.decodeForecast(try Fixture.bytes(Self.fixture), place: newYork)
        let got = try provider.decodeForecast(body, place: newYork)
        #expect(got.hourly.count == want.hourly.count)
        for (step, expected) in zip(got.hourly, want.hourly) {
            #expect(close(step.temperature, expected.temperature, tolerance: 1e-9))
            #expect(close(step.feelsLike, try #require(expected.feelsLike), tolerance: 1e-9))
            #expect(close(step.dewPoint, try #require(expected.dewPoint), tolerance: 1e-9))
            #expect(close(step.windSpeed, try #require(expected.windSpeed), tolerance: 1e-9))
            #expect(close(step.windGust, try #require(expected.windGust), tolerance: 1e-9))
            #expect(step.pressure == expected.pressure)
            #expect(step.visibility == expected.visibility)
            #expect(step.precipitation == expected.precipitation)
        }
        for (day, expected) in zip(got.daily, want.daily) {
            #expect(close(day.min, expected.min, tolerance: 1e-9))
            #expect(close(day.max, expected.max, tolerance: 1e-9))
            #expect(day.precipitation == expected.precipitation)
        }
        let now = try provider.decodeCurrent(body, place: newYork).current
        #expect(close(now.temperature, -0.27, tolerance: 1e-9))
        #expect(close(now.windSpeed, 3.09, tolerance: 1e-9))
        #expect(close(now.tempMin, -11.86, tolerance: 1e-9))
    }

    @Test("units by hand: 32 °F is 0 °C and 10 mph 4.4704 m/s; 273.15 K is 0 °C")
    func unitsByHand() throws {
        let step = #"{"current":{"dt":0,"temp":TEMP,"wind_speed":10,"weather":[{"id":800}]}}"#
        let imperial = OpenWeatherMapOneCallProvider(apiKey: "k", requestUnits: .imperial)
        let fahrenheit = try imperial.decodeCurrent(
            Array(step.replacingOccurrences(of: "TEMP", with: "32").utf8), place: newYork)
        #expect(close(fahrenheit.current.temperature, 0))
        #expect(close(fahrenheit.current.windSpeed, 4.4704))
        let standard = OpenWeatherMapOneCallProvider(apiKey: "k", requestUnits: .standard)
        let kelvin = try standard.decodeCurrent(
            Array(step.replacingOccurrences(of: "TEMP", with: "273.15").utf8), place: newYork)
        #expect(close(kelvin.current.temperature, 0))
        #expect(kelvin.current.windSpeed == 10)
        #expect(kelvin.utcOffsetSeconds == 0, "no timezone_offset: UTC")
    }

    @Test("the 2.5 decoder reads units=imperial the same way: °F to °C, mph to m/s")
    func classicImperial() throws {
        let body = #"{"dt":1,"main":{"temp":50},"wind":{"speed":10,"gust":20},"weather":[{"id":800}]}"#
        let imperial = OpenWeatherMapProvider(apiKey: "k", requestUnits: .imperial)
        let now = try imperial.decodeCurrent(Array(body.utf8), place: newYork).current
        #expect(close(now.temperature, 10))
        #expect(close(now.windSpeed, 4.4704))
        #expect(close(now.windGust, 8.9408))
        #expect(imperial.currentRequest(lat: 1, lon: 2).auditURL.hasSuffix("&units=imperial"))
    }

    // MARK: - Errors and the log

    @Test(
        "unreadable bodies are bad upstream responses naming the JSON path",
        arguments: [
            ("<html><body>502 Bad Gateway</body></html>", "not JSON"), ("", "not JSON"),
            ("{\"lat\":1}", "$.current must be an object"), ("[]", "$ must be an object"),
            (#"{"current":{"temp":1,"weather":[{"id":800}]}}"#, "$.current.dt is required"),
            (#"{"current":{"dt":1,"temp":"cold","weather":[{"id":800}]}}"#, "$.current.temp must be a number"),
        ])
    func badCurrent(body: String, detail: String) throws {
        let error = try #require(
            failure { () throws(ProviderError) in _ = try metric.decodeCurrent(Array(body.utf8), place: newYork) })
        #expect(error.kind == .badUpstreamResponse)
        #expect(error.message.hasPrefix("openweathermap sent a response weatherd cannot read ("), "\(error.message)")
        #expect(error.message.contains(detail), "\(error.message)")
    }

    @Test("a forecast body without hourly, or missing a required member deep inside, names the member's path")
    func badForecast() throws {
        var cases: [([UInt8], String)] = [
            (Array("garbage".utf8), "not JSON"), (try Self.with("hourly", nil), "$.hourly is required"),
        ]
        var hours = try #require(try Self.body()["hourly"]?.arrayValue)
        hours[5] = Self.rewriting(hours[5]) { key, _ in key == "temp" ? .string("n/a") : nil }
        cases.append((try Self.with("hourly", .array(hours)), "$.hourly[5].temp must be a number"))
        var days = try #require(try Self.body()["daily"]?.arrayValue)
        guard case .object(var third) = days[2] else { throw FieldError(path: "$.daily[2]", problem: "not an object") }
        third["temp"] = nil
        days[2] = .object(third)
        cases.append((try Self.with("daily", .array(days)), "$.daily[2].temp must be an object"))
        cases.append((try Self.with("hourly", "soon"), "$.hourly must be an array"))
        for (body, detail) in cases {
            let error = try #require(
                failure { () throws(ProviderError) in _ = try metric.decodeForecast(body, place: newYork) })
            #expect(error.kind == .badUpstreamResponse)
            #expect(error.message.contains(detail), "\(error.message)")
        }
    }

    @Test("the statuses map as for 2.5: 401 unauthorized, 404 not found, 429 rate limited")
    func statuses() {
        let provider = metric.name
        #expect(ProviderError.from(status: 401, headers: [:], provider: provider)?.kind == .unauthorized)
        #expect(ProviderError.from(status: 404, headers: [:], provider: provider)?.kind == .notFound)
        let limited = ProviderError.from(status: 429, headers: ["retry-after": "30"], provider: provider)
        #expect(limited?.kind == .rateLimited)
        #expect(limited?.retryAfterSeconds == 30)
        #expect(ProviderError.from(status: 200, headers: [:], provider: provider) == nil)
    }

    @Test("the recorded body's reports pass the range check and make weather.fetched payloads the schema accepts")
    func loggedPayloads() throws {
        let schema = try JSONSchema(
            contentsOf: WeatherFetchedSchemaTests.root.appendingPathComponent("Events/schemas/weather.fetched.v1.json")
                .path)
        let forecast = try metric.decodeForecast(try Fixture.bytes(Self.fixture), place: newYork)
        let current = try metric.decodeCurrent(try Fixture.bytes(Self.fixture), place: newYork)
        #expect(try ReportCheck.screened(forecast, provider: metric.name) == forecast)
        #expect(try ReportCheck.screened(current, provider: metric.name) == current)
        let call = UpstreamCall(
            provider: metric.name, url: metric.forecastRequest(lat: newYork.lat, lon: newYork.lon).auditURL,
            status: 200, latencyMs: 120, bytes: 23_646, attempt: 1, at: Timestamp(milliseconds: 1_770_414_300_000))
        for report in [WeatherFetched.Report.forecast(forecast), .current(current)] {
            let fetched = WeatherFetched(key: newYork.key, call: call, report: report)
            #expect(schema.validate(fetched.json) == [])
            #expect(try WeatherFetched(json: fetched.json) == fetched, "reads back as written")
            #expect(fetched.json["url"]?.stringValue?.contains("/data/3.0/onecall?") == true)
        }
    }
}
