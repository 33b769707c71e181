import Providers
import Testing
import WeatherDomain

@Suite("Open-Meteo's archive: the days of a place's past")
struct OpenMeteoArchiveTests {
    let archive = OpenMeteoArchive(baseURL: "http://archive.test/")

    @Test("the request asks for a range of local dates' lows, highs and precipitation")
    func request() {
        let request = archive.daysRequest(lat: 52.2671, lon: 6.8207, from: "1953-01-31", to: "1953-02-01")
        #expect(
            request.url
                == "http://archive.test/v1/archive?latitude=52.2671&longitude=6.8207&start_date=1953-01-31&"
                + "end_date=1953-02-01&daily=temperature_2m_min,temperature_2m_max,precipitation_sum&timezone=auto")
        #expect(request.auditURL == request.url, "no key to hide")
    }

    @Test("the recorded body: dates and precipitation; lows and highs it lacks are nil")
    func recorded() throws {
        let days = try archive.decodeDays(try Fixture.bytes("openmeteo-archive-era5-enschede-1953-trimmed"))
        #expect(
            days == [
                PastDay(date: "1953-01-31", low: nil, high: nil, precipitation: 11.9),
                PastDay(date: "1953-02-01", low: nil, high: nil, precipitation: 12.5),
            ])
    }

    @Test("nulls past ERA5's horizon stay nil; a unit other than °C or mm is refused")
    func nullsAndUnits() throws {
        let body = #"""
            {"utc_offset_seconds":3600,"daily_units":{"temperature_2m_min":"°C"},"daily":{"time":["2026-11-20","2026-11-21"],\#
            "temperature_2m_min":[1.5,null],"temperature_2m_max":[7.25,null],"precipitation_sum":[0,null]}}
            """#
        let days = try archive.decodeDays(Array(body.utf8))
        #expect(days.map(\.low) == [1.5, nil])
        #expect(days.map(\.high) == [7.25, nil])
        #expect(days.map(\.precipitation) == [0, nil])
        let fahrenheit = #"{"daily_units":{"temperature_2m_max":"°F"},"daily":{"time":[]}}"#
        let error = try #require(
            failure { () throws(ProviderError) in _ = try archive.decodeDays(Array(fahrenheit.utf8)) })
        #expect(error.message.contains("$.daily_units.temperature_2m_max is °F, not °C"), "\(error.message)")
        let refused = #"{"error":true,"reason":"Parameter 'start_date' is out of allowed range"}"#
        let reason = try #require(
            failure { () throws(ProviderError) in _ = try archive.decodeDays(Array(refused.utf8)) })
        #expect(reason.message.contains("out of allowed range"))
    }
}

@Suite("Open-Meteo's archive: a history page's request and its hours")
struct OpenMeteoArchiveHistoryTests {
    let archive = OpenMeteoArchive(baseURL: "http://archive.test/")

    @Test("a history request asks for the mean, wind max and weather code in m/s, and the hours only when asked")
    func request() {
        let daily = archive.historyRequest(
            lat: 52.2171, lon: 6.8937, from: "2020-01-01", to: "2020-12-31", hourly: false)
        #expect(
            daily.url
                == "http://archive.test/v1/archive?latitude=52.2171&longitude=6.8937&start_date=2020-01-01&"
                + "end_date=2020-12-31&daily=temperature_2m_min,temperature_2m_max,temperature_2m_mean,"
                + "precipitation_sum,wind_speed_10m_max,weather_code&wind_speed_unit=ms&timezone=auto")
        let hourly = archive.historyRequest(
            lat: 52.2171, lon: 6.8937, from: "2020-01-01", to: "2020-01-01", hourly: true)
        #expect(hourly.url.contains("&hourly=temperature_2m,precipitation,wind_speed_10m,weather_code&"))
    }

    @Test("hours are read with their local times; the recorded body's km/h wind is refused, as it is not m/s")
    func hours() throws {
        let body = #"""
            {"utc_offset_seconds":3600,"hourly_units":{"wind_speed_10m":"m/s"},"hourly":{"time":["2020-01-01T00:00",\#
            "2020-01-01T01:00"],"temperature_2m":[1.5,null],"wind_speed_10m":[3,4],"weather_code":[61,null]},\#
            "daily":{"time":["2020-01-01"],"temperature_2m_mean":[2.25],"weather_code":[3]}}
            """#
        let (days, hours) = try archive.decode(Array(body.utf8), hourly: true)
        #expect(days == [PastDay(date: "2020-01-01", low: nil, high: nil, mean: 2.25, condition: .wmo(3))])
        #expect(
            hours == [
                PastHour(time: "2020-01-01T00:00", temperature: 1.5, windSpeed: 3, condition: .wmo(61)),
                PastHour(time: "2020-01-01T01:00", temperature: nil, windSpeed: 4),
            ])
        let recorded = try Fixture.bytes("openmeteo-archive-era5-enschede-1953-trimmed")
        #expect(try archive.decode(recorded, hourly: false).hours == nil)
        let error = try #require(
            failure { () throws(ProviderError) in _ = try archive.decode(recorded, hourly: true) })
        #expect(error.message.contains("$.hourly_units.wind_speed_10m is km/h, not m/s"), "\(error.message)")
    }
}
