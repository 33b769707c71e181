import Foundation
import Providers
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

/// Archive bodies: the recorded Enschede answer's frame, its days replaced by generated ones.
enum PastFixture {
    static let enschede: [String: JSONValue] = ["lat": 52.2171, "lon": 6.8937]
    /// A day's low, a function of its day number that differs from year to year and within a window.
    static func low(_ number: Int64) -> Double { Double((number * 7) % 23) - 8 + Double(number % 3) * 0.25 }
    static func high(_ number: Int64) -> Double { low(number) + 6 + Double((number * 5) % 11) * 0.5 }

    /// The recorded body with one generated day per date from `from` to `to`, nulls from `nullFrom` on.
    static func body(from: String, to: String, nullFrom: String? = nil, climate: Bool = false) throws -> [UInt8] {
        let recorded = try JSONValue.parse(try OfficialFixture.bytes("openmeteo-archive-era5-enschede-1953-trimmed"))
        guard case .object(var top) = recorded else { throw NowcastFixture.FixtureError() }
        let first = try #require(LocalDate.dayNumber(of: from))
        let last = try #require(LocalDate.dayNumber(of: to))
        let numbers = Array(first...last)
        let dates = numbers.map { number in
            let (y, m, d) = CivilDate.fromDays(number)
            return String(format: "%04d-%02d-%02d", Int(y), Int(m), Int(d))
        }
        let cut = nullFrom.flatMap(LocalDate.dayNumber(of:)) ?? .max
        let value = { (number: Int64, make: (Int64) -> Double) -> JSONValue in
            number >= cut ? .null : .double(make(number))
        }
        var daily: [String: JSONValue] = [
            "time": .array(dates.map { .string($0) }),
            "temperature_2m_min": .array(numbers.map { value($0, low) }),
            "temperature_2m_max": .array(numbers.map { value($0, high) }),
            "precipitation_sum": .array(numbers.map { value($0) { Double($0 % 4) } }),
        ]
        if !climate {
            daily["temperature_2m_mean"] = .array(numbers.map { value($0) { (low($0) + high($0)) / 2 } })
            daily["wind_speed_10m_max"] = .array(numbers.map { value($0) { _ in 10 } })
            daily["weather_code"] = .array(numbers.map { $0 >= cut ? .null : .int(61) })
        }
        top["daily"] = .object(daily)
        top["daily_units"] = ["time": "iso8601", "temperature_2m_min": "°C", "precipitation_sum": "mm"]
        top["hourly"] = nil
        top["hourly_units"] = nil
        return JSONValue.object(top).jsonBytes
    }

    /// The archive's climate page of every day from 1940 to 2026-11-20, and Open-Meteo's weather.
    static func climateNetwork() throws -> InMemoryTransport {
        let network = InMemoryTransport()
        network.route(
            "/v1/archive", query: "start_date=1940-01-01",
            InMemoryTransport.ok(try body(from: "1940-01-01", to: "2026-11-20", climate: true)))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 9)))
        return network
    }

    static func archiveCalls(_ network: InMemoryTransport) -> [String] {
        network.requests.filter { $0.contains("/v1/archive") }
    }
}

@Suite("weather/history and weather/climate: the past from ERA5, on the manual clock")
struct PastTests {
    let now = "2026-11-27T11:00:00Z"

    @Test("a two-year range makes two calls, a year each, in the reader's units; asking again makes none")
    func paging() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/archive", query: "start_date=2019-01-01",
            InMemoryTransport.ok(try PastFixture.body(from: "2019-01-01", to: "2019-12-31")))
        network.route(
            "/v1/archive", query: "start_date=2020-01-01",
            InMemoryTransport.ok(try PastFixture.body(from: "2020-01-01", to: "2020-12-31")))
        let clock = ManualClock(start: try OfficialFixture.time(now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            var params = PastFixture.enschede
            params["from"] = "2019-01-01"
            params["to"] = "2020-12-31"
            params["units"] = "imperial"
            let answer = try await service.result("weather/history", .object(params))
            #expect(answer["calls"] == 2)
            let days = try #require(answer["days"]?.arrayValue)
            #expect(days.count == 731, "2020 is a leap year")
            let number = try #require(LocalDate.dayNumber(of: "2020-02-29"))
            let leap = try #require(days.first { $0["date"] == "2020-02-29" })
            #expect(leap["high"]?.doubleValue == Rounding.round(PastFixture.high(number) * 9 / 5 + 32, decimals: 2))
            #expect((leap["windMax"]?.doubleValue ?? 0) > 20, "10 m/s in mph")
            #expect(leap["source"] == "era5")
            #expect(answer["units"]?["temperature"] == "°F")
            let calls = PastFixture.archiveCalls(network)
            #expect(calls.count == 2)
            #expect(calls.allSatisfy { $0.hasPrefix("http://archive.test/v1/archive?") })
            #expect(calls[0].contains("end_date=2019-12-31"))
            params["from"] = "2020-03-01"
            params["to"] = "2020-03-31"
            let again = try await service.result("weather/history", .object(params))
            #expect(again["calls"] == 0, "a final page that covers the range answers it")
            #expect(PastFixture.archiveCalls(network).count == 2)
            let fetched = try await OfficialFixture.events(service, ["past.fetched"])
            #expect(fetched.count == 2, "every call audited")
        }
    }

    @Test("preliminary days are cached only for hours, and the days ERA5 lacks come from weatherd's forecast")
    func preliminary() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/archive",
            InMemoryTransport.ok(try PastFixture.body(from: "2026-11-18", to: "2026-11-27", nullFrom: "2026-11-22")))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.ok(OpenMeteoBodies.forecast()))
        let clock = ManualClock(start: try OfficialFixture.time(now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            var params = PastFixture.enschede
            _ = try await service.result("weather/forecast", .object(params))
            params["from"] = "2026-11-18"
            params["to"] = "2026-11-27"
            let answer = try await service.result("weather/history", .object(params))
            let days = try #require(answer["days"]?.arrayValue)
            let sources = days.map { $0["source"]?.stringValue ?? "" }
            #expect(sources == ["era5", "era5", "era5", "era5t"] + Array(repeating: "weatherd-log", count: 6))
            #expect(days[4]["high"] == 30.75, "the forecast's first day, 22 November")
            #expect(days[4]["low"] == -10.25)
            _ = try await service.result("weather/history", .object(params))
            #expect(PastFixture.archiveCalls(network).count == 1, "kept for a few hours")
            clock.advance(by: .seconds(7 * 3600))
            _ = try await service.result("weather/history", .object(params))
            #expect(PastFixture.archiveCalls(network).count == 2, "preliminary days are asked for again")
        }
    }

    @Test("hourly: true asks for the hours and answers them in the reader's units; a daily page does not serve it")
    func hourly() async throws {
        let body: JSONValue = [
            "utc_offset_seconds": 3600, "hourly_units": ["temperature_2m": "°C", "wind_speed_10m": "m/s"],
            "hourly": [
                "time": ["1953-01-31T00:00", "1953-01-31T01:00"], "temperature_2m": [5.8, 5.5],
                "precipitation": [0.4, 0], "wind_speed_10m": [6.4, 6.6], "weather_code": [61, 3],
            ],
            "daily": ["time": ["1953-01-31"], "temperature_2m_min": [1.2], "temperature_2m_max": [6.1]],
        ]
        let network = InMemoryTransport()
        network.route("/v1/archive", query: "hourly=", InMemoryTransport.ok(body.jsonBytes))
        network.route(
            "/v1/archive", InMemoryTransport.ok(try PastFixture.body(from: "1953-01-31", to: "1953-01-31")))
        let clock = ManualClock(start: try OfficialFixture.time(now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            var params = PastFixture.enschede
            params["from"] = "1953-01-31"
            params["to"] = "1953-01-31"
            let daily = try await service.result("weather/history", .object(params))
            #expect(daily["hours"] == nil)
            params["hourly"] = true
            params["units"] = "imperial"
            let answer = try await service.result("weather/history", .object(params))
            #expect(answer["calls"] == 1, "a page without hours does not answer an ask for them")
            let hours = try #require(answer["hours"]?.arrayValue)
            #expect(hours.map { $0["time"] } == ["1953-01-31T00:00", "1953-01-31T01:00"])
            #expect(hours.first?["temperature"]?.doubleValue == Rounding.round(5.8 * 9 / 5 + 32, decimals: 2))
            #expect(hours.first?["condition"]?["code"] == 61)
            #expect(PastFixture.archiveCalls(network).last?.contains("&hourly=temperature_2m,") == true)
        }
    }

    @Test(
        "dates are checked: malformed, before 1940, after today, from after to, over ten years",
        arguments: [
            ("2025-13-01", "2025-12-31"), ("2025-02-30", "2025-03-01"), ("1939-12-31", "1940-01-05"),
            ("2026-11-20", "2026-11-28"), ("2020-05-02", "2020-05-01"), ("2000-01-01", "2012-01-01"),
            ("26-11-2025", "2025-12-01"),
        ])
    func validation(from: String, to: String) async throws {
        let network = InMemoryTransport()
        let clock = ManualClock(start: try OfficialFixture.time(now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            var params = PastFixture.enschede
            params["from"] = .string(from)
            params["to"] = .string(to)
            let response = try await service.call("weather/history", .object(params))
            #expect(response["error"]?["code"] == -32602, "\(response.jsonString)")
            #expect(PastFixture.archiveCalls(network).isEmpty)
        }
    }

    @Test("the normal and records match a direct computation over the days, leap days included, once fetched")
    func climate() async throws {
        let network = try PastFixture.climateNetwork()
        let clock = ManualClock(start: try OfficialFixture.time(now))
        try await InProcessWeatherd.with(clock: clock, network: network) { service in
            for (date, month, day) in [("2026-11-26", 11, 26), ("2024-02-29", 2, 29)] {
                var params = PastFixture.enschede
                params["date"] = .string(date)
                let answer = try await service.result("weather/climate", .object(params))
                let expected = Self.direct(month: month, day: day)
                #expect(answer["normal"]?["low"]?.doubleValue == Rounding.round(expected.normalLow, decimals: 2))
                #expect(answer["normal"]?["high"]?.doubleValue == Rounding.round(expected.normalHigh, decimals: 2))
                #expect(answer["normal"]?["years"] == 30)
                #expect(answer["records"]?["high"]?["value"]?.doubleValue == expected.recordHigh.0)
                #expect(answer["records"]?["high"]?["year"]?.intValue == Int64(expected.recordHigh.1))
                #expect(answer["records"]?["low"]?["value"]?.doubleValue == expected.recordLow.0)
                #expect(answer["records"]?["low"]?["year"]?.intValue == Int64(expected.recordLow.1))
                #expect(answer["records"]?["since"] == 1940)
            }
            #expect(PastFixture.archiveCalls(network).count == 1, "one fetch of every day since 1940 serves every date")
            let call = try #require(PastFixture.archiveCalls(network).first)
            #expect(call.contains("start_date=1940-01-01&end_date=2026-11-20"))
        }
    }

    @Test("the climate is kept as its table: from a snapshot, or replayed from the log, it answers alike, with no call")
    func climateAcrossRestarts() async throws {
        let network = try PastFixture.climateNetwork()
        let clock = ManualClock(start: try OfficialFixture.time(now))
        let directory = TemporaryDataDirectory()
        var params = PastFixture.enschede
        params["date"] = "2024-02-29"
        let first = try InProcessWeatherd(directory: directory, clock: clock, network: network)
        let answer = try await first.result("weather/climate", .object(params))
        #expect(try await first.result("state/verify")["ok"] == true)
        await first.stop()
        let cache = try Replay.run(path: directory.logPath, commandWindow: 100_000).state.cache
        #expect(cache.past.isEmpty, "the days are not kept")
        let key = Place.key(lat: 52.2171, lon: 6.8937)
        #expect(cache.climates[key]?.value.climate(month: 2, day: 29)?.normalYears == 30)

        for snapshots in [true, false] {
            if !snapshots {
                try FileManager.default.removeItem(atPath: directory.path + "/snapshots")
            }
            let again = try InProcessWeatherd(directory: directory, clock: clock, network: network)
            let repeated = try await again.result("weather/climate", .object(params))
            #expect(repeated["normal"] == answer["normal"] && repeated["records"] == answer["records"])
            #expect(repeated["through"] == answer["through"])
            #expect(try await again.result("state/verify")["ok"] == true)
            await again.stop()
        }
        #expect(PastFixture.archiveCalls(network).count == 1, "one call, before the restarts")
    }

    /// The normal and records of a calendar day computed straight from the generated days.
    static func direct(month: Int, day: Int) -> (
        normalLow: Double, normalHigh: Double, recordHigh: (Double, Int), recordLow: (Double, Int)
    ) {
        var (lows, highs) = ([Double](), [Double]())
        for year in 1991...2020 {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let centreDay = month == 2 && day == 29 && !leap ? 28 : day
            let centre = CivilDate.toDays(year: Int64(year), month: Int64(month), day: Int64(centreDay))
            for number in centre - 7...centre + 7 {
                lows.append(PastFixture.low(number))
                highs.append(PastFixture.high(number))
            }
        }
        var recordHigh = (-Double.infinity, 0)
        var recordLow = (Double.infinity, 0)
        for year in 1940...2026 {
            guard let number = LocalDate.dayNumber(of: String(format: "%04d-%02d-%02d", year, month, day)),
                CivilDate.fromDays(number) == (Int64(year), Int64(month), Int64(day)),
                number <= LocalDate.dayNumber(of: "2026-11-20") ?? 0
            else { continue }
            if PastFixture.high(number) > recordHigh.0 { recordHigh = (PastFixture.high(number), year) }
            if PastFixture.low(number) < recordLow.0 { recordLow = (PastFixture.low(number), year) }
        }
        return (
            lows.reduce(0, +) / Double(lows.count), highs.reduce(0, +) / Double(highs.count), recordHigh, recordLow
        )
    }
}
