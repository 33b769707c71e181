import Providers
import Testing
import WeatherDomain
import WeatherTesting

@Suite("OpenWeatherMap: every field, days from every step")
struct OpenWeatherMapFieldsTests {
    let kelvin = OpenWeatherMapProvider(apiKey: "k", requestUnits: .standard)
    let london = Place(name: nil, country: nil, state: nil, lat: 51.5085, lon: -0.1257)

    @Test("current: cloud cover and day from the icon; rain, dew point, UV and chance it does not give are absent")
    func current() throws {
        let now = try kelvin.decodeCurrent(try Fixture.bytes("owm-current-london"), place: london).current
        #expect(now.cloudCover == 20)
        #expect(now.isDay == true, "icon 02d")
        #expect(now.precipitation == nil, "no rain or snow member: unknown, not 0")
        #expect(now.dewPoint == nil)
        #expect(now.uvIndex == nil)
        #expect(now.pop == nil)
    }

    @Test("current: rain and snow of the last hour add up; a night icon is night")
    func currentRainAndSnow() throws {
        var text = String(decoding: try Fixture.bytes("owm-current-london"), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"02d\"", with: "\"13n\"")
        text = text.replacingOccurrences(
            of: "\"visibility\"", with: "\"rain\":{\"1h\":0.25},\"snow\":{\"1h\":1},\"visibility\"")
        let now = try kelvin.decodeCurrent(Array(text.utf8), place: london).current
        #expect(now.precipitation == 1.25)
        #expect(now.isDay == false)
    }

    @Test("forecast steps: clouds, visibility, gust, rain of the step, day or night from sys.pod")
    func forecastSteps() throws {
        let report = try kelvin.decodeForecast(try Fixture.bytes("owm-forecast-london"), place: london)
        let first = report.entries[0]
        #expect(first.cloudCover == 100)
        #expect(first.visibility == 10_000)
        #expect(first.windGust == 5.66)
        #expect(first.isDay == true)
        #expect(first.precipitation == nil, "no rain member in the first step")
        #expect(first.dewPoint == nil)
        #expect(first.uvIndex == nil)
        let second = report.entries[1]
        #expect(second.precipitation == 1.08)
        #expect(second.isDay == false)
        #expect(second.windGust == 8.29)
        #expect(report.entries[2].cloudCover == 96)
        let day = try #require(report.daily.first)
        #expect(close(day.precipitation, 2.28), "1.08 + 1.2 mm on 25 January")
        #expect(day.pop == 0.92)
        #expect(day.uvIndex == nil)
        #expect(day.sunrise == nil)
    }

    /// The expected days of the London forecast at `offset`: each local date's lowest and highest `temp`
    /// (Kelvin to °C) over every one of the 40 entries.
    static func expectedDays(offset: Int64) throws -> [(date: String, min: Double, max: Double, count: Int)] {
        let body = try JSONValue.parse(try Fixture.bytes("owm-forecast-london"))
        var days: [(date: String, min: Double, max: Double, count: Int)] = []
        for item in body["list"]?.arrayValue ?? [] {
            let seconds = try #require(item["dt"]?.intValue)
            let temp = try #require(item["main"]?["temp"]?.doubleValue) - 273.15
            let date = String(Timestamp(milliseconds: (seconds + offset) * 1000).description.prefix(10))
            if days.last?.date == date {
                days[days.count - 1].min = min(days[days.count - 1].min, temp)
                days[days.count - 1].max = max(days[days.count - 1].max, temp)
                days[days.count - 1].count += 1
            } else {
                days.append((date, temp, temp, 1))
            }
        }
        return days
    }

    @Test(
        "days are the extremes of all 40 entries by local date (dt + city.timezone)",
        arguments: [-18_000, 0, 19_800, 46_800] as [Int64])
    func dailyFromEveryEntry(offset: Int64) throws {
        var text = String(decoding: try Fixture.bytes("owm-forecast-london"), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"timezone\": 0", with: "\"timezone\": \(offset)")
        let report = try kelvin.decodeForecast(Array(text.utf8), place: london)
        #expect(report.utcOffsetSeconds == offset)
        let expected = try Self.expectedDays(offset: offset)
        #expect(expected.map(\.count).reduce(0, +) == 40)
        #expect(report.daily.map(\.date) == expected.map(\.date))
        for (day, want) in zip(report.daily, expected) {
            #expect(close(day.min, want.min), "\(day.date) low")
            #expect(close(day.max, want.max), "\(day.date) high")
        }
        if offset == 46_800 {
            // At +13:00 the first step (15:00 UTC) is 04:00 on the 26th.
            #expect(report.daily.first?.date == "2023-01-26")
        }
    }
}
