import Providers
import Testing
import WeatherDomain

@Suite("Open-Meteo: the recorded days' own lows and highs by local date, at four offsets")
struct OpenMeteoLocalDaysTests {
    let provider = OpenMeteoProvider()
    let place = Place(name: nil, country: nil, state: nil, lat: 44.22, lon: 12.04)
    static let fixture = "openmeteo-forecast-forli-hourly-current-daily"

    /// How the times of a body are written.
    enum TimeFormat: String, CaseIterable {
        /// Local wall-clock strings, Open-Meteo's default (the recorded body's form).
        case iso
        /// Unix seconds, as weatherd asks for (`timeformat=unixtime`): a day's `time` is its local midnight.
        case unixtime
    }

    /// A zone that keeps each offset the tests use all year (no daylight saving time in 2026).
    static let zones: [Int64: String] = [
        -18_000: "America/Bogota", 0: "Africa/Abidjan", 19_800: "Asia/Kolkata", 46_800: "Pacific/Tongatapu",
    ]

    /// The recorded Forlì body (+02:00) as Open-Meteo would send it for a place at `offset` with the same local
    /// times: `utc_offset_seconds` and `timezone` replaced, the times as `format` writes them at that offset.
    static func body(offset: Int64, format: TimeFormat) throws -> [UInt8] {
        guard case .object(var top) = try JSONValue.parse(try Fixture.bytes(fixture)) else {
            throw FieldError(path: "$", problem: "must be an object")
        }
        top["utc_offset_seconds"] = .int(offset)
        top["timezone"] = .string(try #require(zones[offset]))
        func unix(_ value: JSONValue) throws -> JSONValue {
            let text = try #require(value.stringValue)
            let local =
                text.utf8.count == 10
                ? try #require(LocalDate.start(of: text, zone: .fixed(offset)))
                : Timestamp(
                    milliseconds: try #require(Timestamp(rfc3339: text + ":00Z")).milliseconds - offset * 1000)
            return .int(local.milliseconds / 1000)
        }
        if format == .unixtime {
            for section in ["hourly", "daily", "current"] {
                guard case .object(var members) = top[section] else { continue }
                if case .array(let times) = members["time"] {
                    members["time"] = .array(try times.map(unix))
                } else if let time = members["time"] {
                    members["time"] = try unix(time)
                }
                top[section] = .object(members)
            }
        }
        return JSONValue.object(top).jsonBytes
    }

    static let recorded: (dates: [String], lows: [Double], highs: [Double]) = (
        ["2026-10-11", "2026-10-12", "2026-10-13", "2026-10-14", "2026-10-15", "2026-10-16", "2026-10-17"],
        [12.2, 14.7, 10.7, 8.7, 9.2, 10.7, 11], [23.3, 21.6, 20.3, 20.9, 22.5, 22, 22.8]
    )

    @Test(
        "each day is the local date of daily.time with temperature_2m_min and _max; the hours of the date agree",
        arguments: [-18_000, 0, 19_800, 46_800] as [Int64], TimeFormat.allCases)
    func daysByLocalDate(offset: Int64, format: TimeFormat) throws {
        let body = try Self.body(offset: offset, format: format)
        let daily = try #require(try JSONValue.parse(body)["daily"])
        let lows = try #require(daily["temperature_2m_min"]?.arrayValue).map(\.doubleValue)
        let highs = try #require(daily["temperature_2m_max"]?.arrayValue).map(\.doubleValue)
        #expect(lows == Self.recorded.lows, "the provider's own aggregates, as recorded")
        #expect(highs == Self.recorded.highs)

        let report = try provider.decodeForecast(body, place: place)
        #expect(report.utcOffsetSeconds == offset)
        #expect(report.daily.map(\.date) == Self.recorded.dates)
        #expect(report.daily.map(\.min) == lows)
        #expect(report.daily.map(\.max) == highs)

        // The hours read are the first four local dates, 24 each, and range over the days' own figures.
        #expect(report.hourly.first?.time == LocalDate.start(of: "2026-10-11", zone: .fixed(offset)))
        for day in report.daily.prefix(3) {
            let hours = report.hourly.filter { LocalDate.string($0.time, zone: .fixed(offset)) == day.date }
            #expect(hours.count == 24, "\(day.date)")
            #expect(hours.map(\.temperature).min() == day.min, "\(day.date)")
            #expect(hours.map(\.temperature).max() == day.max, "\(day.date)")
            let steps = report.entries.filter { LocalDate.string($0.time, zone: .fixed(offset)) == day.date }
            #expect(steps.count == 8, "\(day.date): the 3-hourly steps of the local day")
        }

        let current = try provider.decodeCurrent(body, place: place)
        #expect(current.current.tempMin == lows.first ?? nil, "today's low is the first day's")
        #expect(current.current.tempMax == highs.first ?? nil)
        #expect(LocalDate.string(current.current.observedAt, zone: .fixed(offset)) == "2026-10-11")
    }

    @Test(
        "without daily, the days summarized from all 168 hours are the same lows and highs",
        arguments: [-18_000, 0, 19_800, 46_800] as [Int64])
    func daysFromHours(offset: Int64) throws {
        guard case .object(var top) = try JSONValue.parse(try Self.body(offset: offset, format: .unixtime)) else {
            throw FieldError(path: "$", problem: "must be an object")
        }
        top["daily"] = nil
        top["daily_units"] = nil
        let report = try provider.decodeForecast(JSONValue.object(top).jsonBytes, place: place)
        #expect(report.daily.map(\.date) == Self.recorded.dates)
        #expect(report.daily.map(\.min) == Self.recorded.lows)
        #expect(report.daily.map(\.max) == Self.recorded.highs)
    }
}
