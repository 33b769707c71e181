import Providers
import Testing
import WeatherDomain

/// The recorded Locationforecast bodies, read independently of the decoder: each step's values as MET Norway
/// wrote them.
struct MetNorwayBody {
    struct Step {
        var time: Timestamp
        var temperature: Double
        var details: JSONValue
        /// `next_1_hours`, `next_6_hours` and `next_12_hours` by their hours, where present.
        var periods: [Int64: JSONValue]

        func symbol(_ hours: Int64) -> String? { periods[hours]?["summary"]?["symbol_code"]?.stringValue }
        func precipitation(_ hours: Int64) -> Double? {
            periods[hours]?["details"]?["precipitation_amount"]?.doubleValue
        }
    }

    var steps: [Step]

    init(_ name: String) throws {
        let root = try JSONValue.parse(try Fixture.bytes(name))
        let series = try #require(root["properties"]?["timeseries"]?.arrayValue)
        steps = try series.map { item in
            let data = try #require(item["data"])
            var periods: [Int64: JSONValue] = [:]
            for hours: Int64 in [1, 6, 12] { periods[hours] = data["next_\(hours)_hours"] }
            let details = try #require(data["instant"]?["details"])
            return Step(
                time: try #require(item["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:))),
                temperature: try #require(details["air_temperature"]?.doubleValue), details: details,
                periods: periods)
        }
    }

    /// Each local date (at the fixed `offset`, which holds all through both July bodies) with the lowest and
    /// highest temperature of its steps and the precipitation of the hours from each step to the next.
    func days(offset: Int64) -> [(date: String, min: Double, max: Double, precipitation: Double?)] {
        var order: [String] = []
        var groups: [String: (min: Double, max: Double, precipitation: Double?)] = [:]
        for (index, step) in steps.enumerated() {
            let date = LocalDate.string(step.time, zone: .fixed(offset))
            let hours =
                index + 1 < steps.count ? (steps[index + 1].time.milliseconds - step.time.milliseconds) / 3_600_000 : 1
            let amount = step.precipitation(hours)
            guard var day = groups[date] else {
                order.append(date)
                groups[date] = (step.temperature, step.temperature, amount)
                continue
            }
            day.min = Swift.min(day.min, step.temperature)
            day.max = Swift.max(day.max, step.temperature)
            if let amount { day.precipitation = (day.precipitation ?? 0) + amount }
            groups[date] = day
        }
        return order.compactMap { date in groups[date].map { (date, $0.min, $0.max, $0.precipitation) } }
    }
}

@Suite("MET Norway: Locationforecast requests and the recorded London and Beijing bodies")
struct MetNorwayProviderTests {
    /// London's and Beijing's zones as the time zone database's table gives them.
    static let zones = ZoneTable(tab: "GB,GG,IM,JE\t+513030-0000731\tEurope/London\nCN\t+3114+12128\tAsia/Shanghai\n")
    let provider = MetNorwayProvider(
        userAgent: UserAgent.weatherd(contact: "ops@example.org", version: "1.2.3"), baseURL: "http://met.test/",
        geocodingBaseURL: "http://geo.test", zones: Self.zones)
    let london = Place(name: nil, country: nil, state: nil, lat: 51.5, lon: -0.1)
    let beijing = Place(name: nil, country: nil, state: nil, lat: 39.9, lon: 116.4)

    @Test("the request: complete, at most 4 decimals, altitude only when known, a User-Agent naming weatherd")
    func request() throws {
        let request = provider.forecastRequest(lat: 51.507_351, lon: -0.127_758)
        #expect(request.url == "http://met.test/weatherapi/locationforecast/2.0/complete?lat=51.5074&lon=-0.1278")
        #expect(request.auditURL == request.url)
        #expect(request.headers == ["User-Agent": "weatherd/1.2.3 (ops@example.org)"])
        #expect(provider.currentRequest(lat: 51.507_351, lon: -0.127_758) == request)
        #expect(provider.request(lat: 51.5, lon: -0.1, altitude: 25.2).url.hasSuffix("?lat=51.5&lon=-0.1&altitude=25"))
        #expect(provider.name == "met-norway")
        #expect(provider.geocodingName == "open-meteo")
        #expect(provider.hasHourlyForecast)
        #expect(provider.geocodeRequest(query: "Oslo", limit: 3).url.hasPrefix("http://geo.test/v1/search?name=Oslo"))
        #expect(provider.geocodeRequest(query: "Oslo", limit: 3).headers.isEmpty)
        #expect(provider.reverseGeocodeRequest(lat: 59.91, lon: 10.75) == nil)
    }

    @Test("London's complete forecast: hourly steps, 3-hourly ones from them, and days by London's dates")
    func londonForecast() throws {
        let body = try MetNorwayBody("metno-locationforecast-complete-london-alt25")
        let report = try provider.decodeForecast(
            try Fixture.bytes("metno-locationforecast-complete-london-alt25"), place: london)
        #expect(report.timezone == "Europe/London")
        #expect(report.utcOffsetSeconds == 3600)
        #expect(report.warnings.isEmpty)

        let hourlySteps = body.steps.filter { $0.periods[1] != nil }
        #expect(hourlySteps.count > 48)
        #expect(report.hourly.count == hourlySteps.count)
        for (entry, step) in zip(report.hourly, hourlySteps) {
            #expect(entry.time == step.time)
            #expect(entry.temperature == step.temperature)
            #expect(entry.dewPoint == step.details["dew_point_temperature"]?.doubleValue)
            #expect(entry.humidity == step.details["relative_humidity"]?.doubleValue)
            #expect(entry.pressure == step.details["air_pressure_at_sea_level"]?.doubleValue)
            #expect(entry.windSpeed == step.details["wind_speed"]?.doubleValue)
            #expect(entry.windDirection == step.details["wind_from_direction"]?.doubleValue)
            #expect(entry.cloudCover == step.details["cloud_area_fraction"]?.doubleValue)
            #expect(entry.precipitation == step.precipitation(1))
            let symbol = try #require(step.symbol(1))
            #expect(entry.condition == MetNorwaySymbol.condition(symbol))
            #expect(entry.pop == nil, "no probability in a 2020 body")
            #expect(entry.uvIndex == nil, "only the clear-sky UV index is given")
        }
        #expect(report.hourly.first?.isDay == true)

        // 3-hourly steps on London's 3-hour marks (+01:00 in July), each with its three hours' total.
        #expect(!report.entries.isEmpty)
        for entry in report.entries {
            #expect((entry.time.milliseconds / 1000 + 3600) % (3 * 3600) == 0)
            let hours = report.hourly.filter {
                $0.time >= entry.time && $0.time.milliseconds < entry.time.milliseconds + 3 * 3_600_000
            }
            #expect(close(entry.precipitation, hours.compactMap(\.precipitation).reduce(0, +)))
        }

        let expected = body.days(offset: 3600)
        #expect(report.daily.map(\.date) == expected.map(\.date))
        #expect(report.daily.first?.date == "2020-07-20")
        for (day, want) in zip(report.daily, expected) {
            #expect(day.min == want.min, "\(day.date)")
            #expect(day.max == want.max, "\(day.date)")
            #expect(close(day.precipitation, want.precipitation ?? -1), "\(day.date)")
            #expect(day.pop == nil)
        }
        // A 6-hourly day has four steps, whose precipitation is that of their six hours.
        let sixHourly = try #require(report.daily.first { $0.date == "2020-07-25" })
        #expect(sixHourly.condition.scheme == "wmo")
    }

    @Test("Beijing's compact forecast: keys re-sorted, no dew point, days by Beijing's dates (+08:00)")
    func beijingForecast() throws {
        let body = try MetNorwayBody("metno-locationforecast-compact-beijing")
        let report = try provider.decodeForecast(
            try Fixture.bytes("metno-locationforecast-compact-beijing"), place: beijing)
        #expect(report.timezone == "Asia/Shanghai")
        #expect(report.utcOffsetSeconds == 8 * 3600)
        #expect(report.hourly.allSatisfy { $0.dewPoint == nil })
        let expected = body.days(offset: 8 * 3600)
        #expect(report.daily.map(\.date) == expected.map(\.date))
        #expect(report.daily.first?.date == "2020-07-20")
        for (day, want) in zip(report.daily, expected) {
            #expect(day.min == want.min, "\(day.date)")
            #expect(day.max == want.max, "\(day.date)")
            #expect(close(day.precipitation, want.precipitation ?? -1), "\(day.date)")
        }
        // The last step has only `instant`: its temperature counts, its condition is not reported.
        let last = try #require(body.steps.last)
        #expect(report.daily.last?.max ?? -99 >= last.temperature)
    }

    @Test("current conditions: the first step, its next hour's symbol and precipitation, London's zone")
    func londonCurrent() throws {
        let report = try provider.decodeCurrent(
            try Fixture.bytes("metno-locationforecast-complete-london-alt25"), place: london)
        let now = report.current
        #expect(now.observedAt == Timestamp(rfc3339: "2020-07-20T11:00:00Z"))
        #expect(now.temperature == 18.8)
        #expect(now.dewPoint == 7.2)
        #expect(now.humidity == 47)
        #expect(now.pressure == 1023.2)
        #expect(now.cloudCover == 12.5)
        #expect(now.windSpeed == 2.3)
        #expect(now.windDirection == 349.3)
        #expect(now.precipitation == 0)
        #expect(now.isDay == true)
        #expect(now.condition == .wmo(0))
        #expect(now.feelsLike == nil && now.uvIndex == nil && now.tempMax == nil)
        #expect(report.timezone == "Europe/London")
        #expect(report.place == london)
    }

    /// A one-step body with `units` and the next hour's `details`.
    static func body(units: JSONValue, nextHour: JSONValue) -> [UInt8] {
        let step: JSONValue = [
            "time": "2026-06-01T12:00:00Z",
            "data": [
                "instant": ["details": ["air_temperature": 20.5, "wind_speed": 4, "relative_humidity": 60]],
                "next_1_hours": ["summary": ["symbol_code": "lightrainshowers_day"], "details": nextHour],
            ],
        ]
        let properties: JSONValue = ["meta": ["units": units], "timeseries": [step]]
        return JSONValue.object(["type": "Feature", "properties": properties]).jsonBytes
    }

    @Test("a newer answer's probability_of_precipitation is a fraction; an unknown unit leaves its variable out")
    func unitsAndProbability() throws {
        let body = Self.body(
            units: ["air_temperature": "celsius", "wind_speed": "knots", "probability_of_precipitation": "%"],
            nextHour: ["precipitation_amount": 0.4, "probability_of_precipitation": 35.0])
        let report = try provider.decodeForecast(body, place: london)
        let hour = try #require(report.hourly.first)
        #expect(close(hour.pop, 0.35))
        #expect(hour.precipitation == 0.4)
        #expect(hour.windSpeed == nil)
        #expect(hour.humidity == 60)
        #expect(hour.condition == .wmo(80))
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.contains("wind_speed") == true)
        #expect(report.daily.first.map { close($0.pop, 0.35) } == true)
    }

    @Test("a temperature in another unit, or no step with one, fails the answer")
    func badBodies() {
        let fahrenheit = Self.body(units: ["air_temperature": "fahrenheit"], nextHour: [:])
        let unit = failure { () throws(ProviderError) in _ = try provider.decodeForecast(fahrenheit, place: london) }
        #expect(unit?.kind == .badUpstreamResponse)
        let empty = JSONValue.object(["properties": ["timeseries": []]]).jsonBytes
        let noStep = failure { () throws(ProviderError) in _ = try provider.decodeCurrent(empty, place: london) }
        #expect(noStep?.kind == .badUpstreamResponse)
        let html = Array("<html>".utf8)
        #expect(failure { () throws(ProviderError) in _ = try provider.decodeCurrent(html, place: london) } != nil)
    }
}
