import Providers
import Testing
import WeatherDomain
import WeatherTesting

@testable import WeatherCLI
@testable import WeatherEngine
@testable import WeatherService

@Suite("Answers across a change of daylight saving time: sun times and dates by the zone's rules")
struct DaylightSavingAnswersTests {
    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text) ?? Timestamp(milliseconds: .min) }

    static let berlin = Place(name: "Berlin", country: "DE", state: nil, lat: 52.52, lon: 13.41)
    static let tokyo = Place(name: "Tokyo", country: "JP", state: nil, lat: 35.68, lon: 139.69)

    /// A 16-day Open-Meteo forecast fetched at `fetched`, its hours from local midnight of that day (at the
    /// answer's one offset, as Open-Meteo writes them), decoded and answered as `weather/forecast` would.
    static func answer(
        fetched: Timestamp, midnight: Timestamp, offset: Int64, timezone: String, place: Place
    ) throws -> JSONValue {
        let body = OpenMeteoBodies.forecast(
            start: midnight, hours: 16 * 24, utcOffsetSeconds: offset, timezone: timezone, days: 16)
        let report = try OpenMeteoProvider().decodeForecast(body, place: place)
        let answer = FetchAnswer(
            Cached(value: report, fetchedAt: fetched, provider: "open-meteo"), source: "network", stale: false)
        return WeatherFormatting.forecast(answer, units: Units.metric.choice, now: fetched, type: .daily)
    }

    /// The sunrise column of `date`'s row in `weatherd forecast`'s table, as minutes after local midnight.
    static func shownSunrise(_ answer: JSONValue, on date: String) throws -> Int64 {
        let output = Output(isTerminal: false, environment: [:]) { _, _ in true }
        let table = ForecastPage(answer).days(output)
        let label = LocalTime.dayLabel(date)
        let row = try #require(table.split(separator: "\n").first { $0.hasPrefix(label) }, "\(table)")
        let clock = try #require(row.split(separator: " ").first { $0.count == 5 && $0.contains(":") })
        let parts = clock.split(separator: ":").compactMap { Int64($0) }
        return parts[0] * 60 + parts[1]
    }

    static func sunrise(_ answer: JSONValue, on date: String) throws -> Timestamp {
        let day = try #require(answer["daily"]?.arrayValue?.first { $0["date"]?.stringValue == date })
        return try #require(Timestamp(rfc3339: day["sunrise"]?.stringValue ?? ""))
    }

    @Test("spring forward: fetched on 26 March 2027, Berlin's 28 March sunrise shows 06:51 (04:51 UTC), not 05:51")
    func springForward() throws {
        let answer = try Self.answer(
            fetched: Self.time("2027-03-26T09:00:00Z"), midnight: Self.time("2027-03-25T23:00:00Z"), offset: 3600,
            timezone: "Europe/Berlin", place: Self.berlin)
        #expect(answer["location"]?["utcOffsetSeconds"] == 3600, "the offset when fetched")
        // USNO's almanac algorithm: 04:51 UT at 52.52° N 13.41° E (ZoneOffsetsTests).
        let sunrise = try Self.sunrise(answer, on: "2027-03-28")
        #expect(abs(sunrise.milliseconds - Self.time("2027-03-28T04:51:00Z").milliseconds) <= 120_000)
        #expect(abs(try Self.shownSunrise(answer, on: "2027-03-28") - (6 * 60 + 51)) <= 2)
        #expect(abs(try Self.shownSunrise(answer, on: "2027-04-05") - (6 * 60 + 33)) <= 3, "every later day too")
        #expect(abs(try Self.shownSunrise(answer, on: "2027-03-27") - (5 * 60 + 53)) <= 3, "the day before, CET")
    }

    @Test("fall back: fetched on 29 October 2027, Berlin's 31 October sunrise shows 06:59 (05:59 UTC), not 07:59")
    func fallBack() throws {
        let answer = try Self.answer(
            fetched: Self.time("2027-10-29T09:00:00Z"), midnight: Self.time("2027-10-28T22:00:00Z"), offset: 7200,
            timezone: "Europe/Berlin", place: Self.berlin)
        let sunrise = try Self.sunrise(answer, on: "2027-10-31")
        #expect(abs(sunrise.milliseconds - Self.time("2027-10-31T05:59:00Z").milliseconds) <= 120_000)
        #expect(abs(try Self.shownSunrise(answer, on: "2027-10-31") - (6 * 60 + 59)) <= 2)
        #expect(abs(try Self.shownSunrise(answer, on: "2027-10-30") - (7 * 60 + 57)) <= 3, "the day before, CEST")
        let dates = try #require(answer["daily"]?.arrayValue).compactMap { $0["date"]?.stringValue }
        #expect(dates.prefix(4) == ["2027-10-29", "2027-10-30", "2027-10-31", "2027-11-01"])
    }

    @Test("a zone without daylight saving time: Tokyo's 28 March sunrise shows 05:35 (20:35 UTC the day before)")
    func zoneWithoutDST() throws {
        let answer = try Self.answer(
            fetched: Self.time("2027-03-26T00:00:00Z"), midnight: Self.time("2027-03-25T15:00:00Z"), offset: 32_400,
            timezone: "Asia/Tokyo", place: Self.tokyo)
        let sunrise = try Self.sunrise(answer, on: "2027-03-28")
        #expect(abs(sunrise.milliseconds - Self.time("2027-03-27T20:35:00Z").milliseconds) <= 120_000)
        #expect(abs(try Self.shownSunrise(answer, on: "2027-03-28") - (5 * 60 + 35)) <= 2)
    }

    @Test("an unknown zone: every local time is at the provider's one offset")
    func unknownZone() throws {
        let answer = try Self.answer(
            fetched: Self.time("2027-03-26T09:00:00Z"), midnight: Self.time("2027-03-25T23:00:00Z"), offset: 3600,
            timezone: "Mars/Olympus_Mons", place: Self.berlin)
        #expect(abs(try Self.shownSunrise(answer, on: "2027-03-28") - (5 * 60 + 51)) <= 2)
    }

    @Test("weatherd now: %S and %T read each time at the offset valid then, %Z names the zone")
    func oneLine() throws {
        let current: JSONValue = [
            "location": [
                "name": "Berlin", "lat": 52.52, "lon": 13.41, "timezone": "Europe/Berlin", "utcOffsetSeconds": 3600,
            ],
            "units": ["system": "metric", "temperature": "°C"],
            "current": ["temperature": 8, "condition": ["scheme": "wmo", "code": 0, "text": "clear sky"]],
            "observedAt": "2027-03-28T10:00:00.000Z", "stale": false,
        ]
        let forecast: JSONValue = [
            "daily": [
                ["date": "2027-03-28", "sunrise": "2027-03-28T04:51:00.000Z", "sunset": "2027-03-28T17:32:00.000Z"]
            ]
        ]
        let line = try OneLine("%S %s %T %Z").render(
            current: current, forecast: forecast, now: Self.time("2027-03-28T10:00:00Z"))
        #expect(line == "06:51:00 19:32:00 12:00:00+0200 Europe/Berlin")
    }

    @Test("weatherd chart: local midnights and hour labels follow the clocks, 28 March 2027 is 23 hours wide")
    func chartMidnights() throws {
        let entries: [JSONValue] = (0..<16).map { index in
            [
                "time": .string(
                    Timestamp(milliseconds: Self.time("2027-03-27T12:00:00Z").milliseconds + Int64(index) * 10_800_000)
                        .description),
                "temperature": 5,
            ]
        }
        let forecast: JSONValue = [
            "location": ["lat": 52.52, "lon": 13.41, "timezone": "Europe/Berlin", "utcOffsetSeconds": 3600],
            "units": ["system": "metric", "temperature": "°C"], "entries": .array(entries), "daily": [],
            "fetchedAt": "2027-03-27T12:00:00.000Z", "stale": false,
        ]
        let axis = Chart.TimeAxis(Chart.Input(forecast))
        #expect(
            axis.midnights == [
                Self.time("2027-03-27T23:00:00Z").milliseconds, Self.time("2027-03-28T22:00:00Z").milliseconds,
            ])
        let sunday = try #require(LocalTime.days("2027-03-28"))
        #expect(axis.moment(sunday, hour: 2) == nil, "02:00 does not happen that night")
        #expect(axis.moment(sunday, hour: 3) == Self.time("2027-03-28T01:00:00Z").milliseconds)
        #expect(
            Chart.Dates.dateTime(Self.time("2027-03-28T10:00:00Z").milliseconds, zone: axis.zone).hasSuffix(
                "12:00 (UTC+02:00)"))
    }
}
