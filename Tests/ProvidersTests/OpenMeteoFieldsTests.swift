import Providers
import Testing
import WeatherDomain

@Suite("Open-Meteo: every field, the days' own figures")
struct OpenMeteoFieldsTests {
    let provider = OpenMeteoProvider()
    let forli = Place(name: "Forlì", country: "IT", state: nil, lat: 44.2227, lon: 12.0407)

    @Test("the recorded Forlì forecast with hours and days: every step field, 96 hours, 40 steps, 7 days")
    func forecastWithHours() throws {
        let report = try provider.decodeForecast(
            try Fixture.bytes("openmeteo-forecast-forli-hourly-current-daily"), place: forli)
        #expect(report.timezone == "Europe/Rome")
        #expect(report.utcOffsetSeconds == 7200)
        #expect(report.hourly.count == 96)
        #expect(report.entries.count == 40)

        let midnight = try #require(report.hourly.first)
        #expect(midnight.time.description == "2026-10-10T22:00:00.000Z", "00:00 at +02:00")
        #expect(midnight.temperature == 15.1)
        #expect(midnight.feelsLike == 15.3)
        #expect(midnight.dewPoint == 13.1)
        #expect(midnight.humidity == 88)
        #expect(midnight.cloudCover == 5)
        #expect(midnight.visibility == 24_460)
        #expect(midnight.windSpeed == 1.35)
        #expect(midnight.windGust == 2.7)
        #expect(midnight.windDirection == 228)
        #expect(midnight.uvIndex == 0)
        #expect(midnight.precipitation == 0)
        #expect(midnight.pop == 0.08)
        #expect(midnight.isDay == false)
        #expect(midnight.condition == .wmo(1))
        #expect(midnight.pressure == nil, "the body has surface_pressure, not the sea-level pressure_msl")

        let afternoon = report.hourly[14]
        #expect(afternoon.time.description == "2026-10-11T12:00:00.000Z")
        #expect(afternoon.uvIndex == 3.5)
        #expect(afternoon.isDay == true)
        #expect(afternoon.cloudCover == 100)
        #expect(afternoon.windGust == 4.7)
        #expect(afternoon.condition == .wmo(3))

        // The 3-hourly step at 00:00 on 12 October stands for 00:00–03:00: 5, 7 and 10 % chances.
        let step = report.entries[8]
        #expect(step.time.description == "2026-10-11T22:00:00.000Z")
        #expect(step.temperature == 16.4)
        #expect(step.pop == 0.1)
        #expect(step.precipitation == 0)
        #expect(step.visibility == 16_540)

        #expect(
            report.daily.map(\.date) == [
                "2026-10-11", "2026-10-12", "2026-10-13", "2026-10-14", "2026-10-15", "2026-10-16", "2026-10-17",
            ])
        #expect(report.daily.map(\.min) == [12.2, 14.7, 10.7, 8.7, 9.2, 10.7, 11])
        #expect(report.daily.map(\.max) == [23.3, 21.6, 20.3, 20.9, 22.5, 22, 22.8])
        #expect(report.daily.map(\.pop) == [0.08, 0.36, 0, 0.03, 0.03, 0.04, 0.16])
        #expect(report.daily.map(\.uvIndex) == [3.5, 3.95, 3.85, 4, 3.95, 3.65, 3.55])
        #expect(report.daily.map(\.precipitation) == [0, 0, 0, 0, 0, 0, 0])
        #expect(report.daily.map(\.condition.code) == [45, 80, 45, 3, 3, 45, 3])
        #expect(report.daily.allSatisfy { $0.sunrise == nil && $0.sunset == nil }, "not asked for in this body")

        // The bug this fixes: every third hour of 12 October ranges from 15.7 to 20.2 °C; the day's own
        // figures, and its 24 hours, from 14.7 to 21.6 °C.
        let sampled = report.entries.filter { LocalDate.string($0.time, zone: .fixed(7200)) == "2026-10-12" }
        #expect(sampled.map(\.temperature).max() == 20.2)
        #expect(sampled.map(\.temperature).min() == 15.7)
        let hours = report.hourly.filter { LocalDate.string($0.time, zone: .fixed(7200)) == "2026-10-12" }
        #expect(hours.count == 24)
        #expect(hours.map(\.temperature).max() == 21.6)
    }

    @Test("current conditions of the recorded Forlì bodies: the new fields, and those it lacks absent")
    func current() throws {
        for name in ["openmeteo-forecast-forli-hourly-current-daily", "openmeteo-forecast-forli-current-daily"] {
            let report = try provider.decodeCurrent(try Fixture.bytes(name), place: forli)
            let now = report.current
            #expect(now.observedAt.description == "2026-10-10T22:15:00.000Z", "00:15 at +02:00")
            #expect(now.temperature == 14.9)
            #expect(now.feelsLike == 15.1)
            #expect(now.dewPoint == 12.9)
            #expect(now.humidity == 88)
            #expect(now.precipitation == 0)
            #expect(now.windSpeed == 1.35)
            #expect(now.windDirection == 228)
            #expect(now.windGust == 2.7)
            #expect(now.isDay == false)
            #expect(now.condition == .wmo(3))
            #expect(now.tempMin == 12.2)
            #expect(now.tempMax == 23.3)
            // Not in these bodies: nil, never 0.
            #expect(now.pressure == nil)
            #expect(now.cloudCover == nil)
            #expect(now.visibility == nil)
            #expect(now.uvIndex == nil)
            #expect(now.pop == nil)
            #expect(now.sunrise == nil)
        }
    }

    @Test("the recorded Forlì body with current and days only: the days' figures, no steps")
    func forecastDaysOnly() throws {
        let report = try provider.decodeForecast(
            try Fixture.bytes("openmeteo-forecast-forli-current-daily"), place: forli)
        #expect(report.entries.isEmpty)
        #expect(report.hourly.isEmpty)
        #expect(report.daily.count == 7)
        let second = report.daily[1]
        #expect(second.date == "2026-10-12")
        #expect(second.min == 14.7)
        #expect(second.max == 21.6)
        #expect(second.pop == 0.36)
        #expect(second.uvIndex == 3.95)
        #expect(second.precipitation == 0)
        #expect(second.condition == .wmo(80))
    }

    /// Two local days of hours at `offset`, ISO local times as Open-Meteo sends by default, whose highest
    /// hour (13:00, −5.3 °C) and lowest (04:00, −12.1 °C) fall between the 3-hourly steps, whose highest
    /// step is −6.3 °C (21:00) and lowest −8.4 °C (00:00); with `daily`, the provider's own figures for
    /// the two days: −12.1 to −5.3 °C, then −12.6 to −4.9 °C.
    static func twoDays(offset: Int64, daily: Bool) -> [UInt8] {
        var times: [String] = []
        var temperatures: [String] = []
        for day in ["2026-01-15", "2026-01-16"] {
            for hour in 0..<24 {
                times.append("\"\(day)T\(hour < 10 ? "0" : "")\(hour):00\"")
                let value =
                    hour == 13 ? -5.3 : hour == 4 ? -12.1 : Rounding.round(-8.4 + 0.1 * Double(hour), decimals: 1)
                temperatures.append(String(value))
            }
        }
        let days =
            daily
            ? """
            ,"daily":{"time":["2026-01-15","2026-01-16"],"temperature_2m_max":[-5.3,-4.9],\
            "temperature_2m_min":[-12.1,-12.6],"weather_code":[71,73],"precipitation_sum":[1.2,3.4],\
            "precipitation_probability_max":[40,85],"uv_index_max":[1.05,0.9],\
            "sunrise":["2026-01-15T07:17","2026-01-16T07:17"],"sunset":["2026-01-15T16:54","2026-01-16T16:55"]}
            """ : ""
        return Array(
            """
            {"utc_offset_seconds":\(offset),"hourly":{"time":[\(times.joined(separator: ","))],\
            "temperature_2m":[\(temperatures.joined(separator: ","))]}\(days)}
            """.utf8)
    }

    @Test(
        "days are the provider's own figures of the local date, and without them every hour's extremes",
        arguments: [-18_000, 0, 19_800, 46_800] as [Int64])
    func dailyExtremes(offset: Int64) throws {
        let place = Place(name: nil, country: nil, state: nil, lat: 40.71, lon: -74.01)
        let report = try provider.decodeForecast(Self.twoDays(offset: offset, daily: true), place: place)
        #expect(report.utcOffsetSeconds == offset)
        #expect(report.daily.map(\.date) == ["2026-01-15", "2026-01-16"])
        #expect(report.daily.map(\.min) == [-12.1, -12.6])
        #expect(report.daily.map(\.max) == [-5.3, -4.9])
        #expect(report.daily.map(\.precipitation) == [1.2, 3.4])
        #expect(report.daily.map(\.pop) == [0.4, 0.85])
        #expect(report.daily.map(\.uvIndex) == [1.05, 0.9])
        #expect(report.daily.map(\.condition) == [.wmo(71), .wmo(73)])
        // The provider's sunrise, a local wall-clock time, is 07:17 at the place's offset.
        #expect(report.daily.first?.sunrise?.milliseconds == 1_768_461_420_000 - offset * 1000)
        // What the 3-hourly steps alone gave before: −8.4 to −6.3 °C on the first day.
        let sampled = report.entries.filter { LocalDate.string($0.time, zone: .fixed(offset)) == "2026-01-15" }
        #expect(sampled.count == 8)
        #expect(sampled.map(\.temperature).max() == -6.3)
        #expect(sampled.map(\.temperature).min() == -8.4)

        let hoursOnly = try provider.decodeForecast(Self.twoDays(offset: offset, daily: false), place: place)
        #expect(hoursOnly.daily.map(\.date) == ["2026-01-15", "2026-01-16"])
        #expect(hoursOnly.daily.map(\.min) == [-12.1, -12.1])
        #expect(hoursOnly.daily.map(\.max) == [-5.3, -5.3])
        #expect(hoursOnly.daily.map(\.precipitation) == [nil, nil], "no precipitation in the body: unknown, not 0")
    }

    @Test("daily figures in inches and hourly visibility in feet are converted; unknown labels are not guessed")
    func units() throws {
        let body = """
            {"utc_offset_seconds":0,"hourly_units":{"precipitation":"inch","visibility":"ft","dew_point_2m":"°F"},\
            "hourly":{"time":[0],"temperature_2m":[1],"precipitation":[0.5],"visibility":[1000],"dew_point_2m":[32]},\
            "daily_units":{"precipitation_sum":"inch"},\
            "daily":{"time":["1970-01-01"],"temperature_2m_max":[1],"temperature_2m_min":[1],"precipitation_sum":[2]}}
            """
        let report = try provider.decodeForecast(Array(body.utf8), place: forli)
        let hour = try #require(report.hourly.first)
        #expect(close(hour.precipitation, 12.7))
        #expect(close(hour.visibility, 304.8))
        #expect(close(hour.dewPoint, 0))
        #expect(close(report.daily.first?.precipitation, 50.8))
        #expect(report.warnings.isEmpty)
        let odd = body.replacingOccurrences(of: "\"ft\"", with: "\"furlong\"")
        let dropped = try provider.decodeForecast(Array(odd.utf8), place: forli)
        #expect(dropped.hourly.first?.visibility == nil, "a secondary variable in an unknown unit is left out")
        #expect(close(dropped.hourly.first?.precipitation, 12.7), "and the rest is read")
        #expect(
            dropped.warnings == [
                "$.hourly_units.visibility is an unknown distance unit \"furlong\": visibility left out"
            ])
        let core = body.replacingOccurrences(
            of: "\"hourly_units\":{", with: "\"hourly_units\":{\"temperature_2m\":\"R\",")
        let error = try #require(
            failure { () throws(ProviderError) in _ = try provider.decodeForecast(Array(core.utf8), place: forli) })
        #expect(
            error.message.contains("$.hourly_units.temperature_2m is an unknown temperature unit"), "\(error.message)")
    }

    /// The recorded Forlì body with `dew_point_2m`'s unit label emptied in `current_units` and `hourly_units`.
    static func oddDewPoint() throws -> [UInt8] {
        let body = String(decoding: try Fixture.bytes("openmeteo-forecast-forli-hourly-current-daily"), as: UTF8.self)
        #expect(body.components(separatedBy: #""dew_point_2m":"°C""#).count == 3)
        return Array(body.replacingOccurrences(of: #""dew_point_2m":"°C""#, with: #""dew_point_2m":"""#).utf8)
    }

    @Test("one odd unit on a secondary variable (dew point, unit \"\") drops that field with a warning, not the answer")
    func oddSecondaryUnit() throws {
        let current = try provider.decodeCurrent(try Self.oddDewPoint(), place: forli)
        #expect(current.current.dewPoint == nil)
        #expect(current.current.temperature == 14.9 && current.current.feelsLike == 15.1)
        #expect(current.current.humidity == 88 && current.current.windGust == 2.7)
        #expect(
            current.warnings == [
                #"$.current_units.dew_point_2m is an unknown temperature unit "": dew_point_2m left out"#
            ])
        let forecast = try provider.decodeForecast(try Self.oddDewPoint(), place: forli)
        #expect(forecast.hourly.count == 96 && forecast.entries.count == 40 && forecast.daily.count == 7)
        #expect(forecast.hourly.allSatisfy { $0.dewPoint == nil })
        #expect(forecast.hourly.first?.feelsLike == 15.3 && forecast.hourly.first?.humidity == 88)
        #expect(
            forecast.warnings == [
                #"$.hourly_units.dew_point_2m is an unknown temperature unit "": dew_point_2m left out"#
            ])
    }
}
