import Testing
import WeatherDomain

@testable import WeatherCLI

@Suite("weatherd now's one-line formats")
struct OneLineTests {
    /// 2026-11-22 12:00 UTC, 13:00 at the place (+01:00).
    static let noon = Timestamp(milliseconds: 1_795_348_800_000)

    static func current(code: Int64 = 2, observedAt: String = "2026-11-22T12:00:00.000Z") -> JSONValue {
        [
            "location": ["name": "Berlin", "lat": 52.52, "lon": 13.41, "utcOffsetSeconds": 3600],
            "units": ["system": "metric", "temperature": "°C", "windSpeed": "m/s", "pressure": "hPa"],
            "current": [
                "temperature": -0.4, "condition": ["scheme": "wmo", "code": .int(code), "text": "partly cloudy"],
                "windSpeed": 5, "windDirection": 180,
            ],
            "observedAt": .string(observedAt), "stale": false,
        ]
    }

    static let forecast: JSONValue = [
        "daily": [
            [
                "date": "2026-11-22", "dawn": "2026-11-22T06:18:00.000Z", "sunrise": "2026-11-22T06:58:00.000Z",
                "zenith": "2026-11-22T11:08:00.000Z", "sunset": "2026-11-22T15:18:00.000Z",
                "dusk": "2026-11-22T15:58:00.000Z", "moonPhase": 0.52, "moonDay": 15.3,
            ]
        ],
        "entries": [
            [
                "time": "2026-11-22T12:00:00.000Z", "temperature": 1, "pop": 0.1,
                "condition": ["scheme": "wmo", "code": 3],
            ],
            [
                "time": "2026-11-22T15:00:00.000Z", "temperature": 2, "pop": 0.45,
                "condition": ["scheme": "wmo", "code": 61],
            ],
            [
                "time": "2026-11-22T18:00:00.000Z", "temperature": 3, "pop": 0.9,
                "condition": ["scheme": "wmo", "code": 73],
            ],
        ],
    ]

    func render(_ format: String, current: JSONValue = current(), forecast: JSONValue? = forecast) throws -> String {
        try OneLine(format).render(current: current, forecast: forecast, now: Self.noon)
    }

    @Test("sun, moon, local time, the chance of rain and a slot ahead come from the forecast at a fixed time")
    func forecastCodes() throws {
        #expect(try render("%D %S %z %s %d") == "07:18:00 07:58:00 12:08:00 16:18:00 16:58:00")
        #expect(try render("%m %M") == "🌕 15")
        #expect(try render("%T %Z") == "13:00:00+0100 UTC+01:00")
        #expect(try render("%r", forecast: Self.forecast) == "45%", "the steps of the next 6 hours: 12 h and 15 h")
        #expect(try render("%+3h|%+7h") == "🌦️ +2°C|❄️ +3°C")
        #expect(try render("%+48h") == "?", "no step that far")
        #expect(
            try render("%t %w") == "0°C ↑5m/s", "-0.4 rounds to 0, unsigned; a wind from the south (180°) points up")
    }

    @Test("night emoji after sunset; conditions and codes the answers lack print ?")
    func nightAndMissing() throws {
        let evening = Self.current(code: 0, observedAt: "2026-11-22T17:00:00.000Z")
        #expect(try render("%c", current: evening) == "🌙")
        #expect(try render("%c", current: Self.current(code: 0)) == "☀️")
        #expect(try render("%c", current: Self.current(code: 2, observedAt: "2026-11-22T05:00:00.000Z")) == "☁️")
        #expect(try render("%S %m %r", forecast: nil) == "? ? ?")
        #expect(try render("%h %f %P %u %p") == "? ? ? ? ?")
    }

    @Test("%A: today's high less its normal high in whole degrees of the forecast's unit; empty without them")
    func anomaly() throws {
        func forecast(max: Double, normalHigh: Double?, unit: String = "°C") -> JSONValue {
            var day: [String: JSONValue] = ["date": "2026-11-22", "max": .double(max)]
            if let normalHigh { day["normal"] = ["low": -1, "high": .double(normalHigh)] }
            return ["daily": [.object(day)], "units": ["temperature": .string(unit)]]
        }
        #expect(try render("%A", forecast: forecast(max: 5.6, normalHigh: 2.3)) == "+3 °C", "3.3")
        #expect(try render("%A", forecast: forecast(max: 1.0, normalHigh: 3.8)) == "-3 °C", "-2.8")
        #expect(try render("%A", forecast: forecast(max: 2.2, normalHigh: 2.0)) == "±0 °C")
        #expect(try render("%A", forecast: forecast(max: 42.1, normalHigh: 36.1, unit: "°F")) == "+6 °F")
        #expect(try render("[%A]", forecast: forecast(max: 5.6, normalHigh: nil)) == "[]", "no cached climate")
        #expect(try render("[%A]", forecast: nil) == "[]", "no forecast")
        #expect(try OneLine("%A").needsForecast)
        #expect(try !OneLine("%A").needsNowcast)
    }

    @Test("a format is checked before anything is asked")
    func parsing() throws {
        #expect(throws: UsageError.self) { try OneLine("%q") }
        #expect(throws: UsageError.self) { try OneLine("%+0h") }
        #expect(throws: UsageError.self) { try OneLine("%+3") }
        #expect(throws: UsageError.self) { try OneLine("50%") }
        #expect(try !OneLine("%l %t").needsForecast)
        #expect(try OneLine("%l %r").needsForecast)
        #expect(try OneLine("2").render(current: Self.current(), forecast: nil, now: Self.noon) == "⛅️ 🌡️0°C 🌬️↑5m/s")
    }

    /// Current conditions whose `units` object names `units`, with the figures as weatherd gives them in those.
    static func current(units: JSONValue, temperature: Double, wind: Double, pressure: Double, precipitation: Double)
        -> JSONValue
    {
        [
            "location": ["name": "Berlin", "lat": 52.52, "lon": 13.41, "utcOffsetSeconds": 3600],
            "units": units,
            "current": [
                "temperature": .double(temperature), "windSpeed": .double(wind), "windDirection": 180,
                "pressure": .double(pressure), "precipitation": .double(precipitation),
                "condition": ["scheme": "wmo", "code": 2, "text": "partly cloudy"],
            ],
            "observedAt": "2026-11-22T12:00:00.000Z", "stale": false,
        ]
    }

    @Test(
        "each quantity prints in the unit the answer's units object names, not one the line assumes",
        arguments: [
            (
                [
                    "system": "metric", "temperature": "°C", "windSpeed": "km/h", "pressure": "hPa",
                    "precipitation": "mm",
                ]
                    as JSONValue, 12.4, 18.0, 1013.25, 1.25, "+12°C ↑18km/h 1013hPa 1.3mm"
            ),
            (
                [
                    "system": "imperial", "temperature": "°F", "windSpeed": "mph", "pressure": "inHg",
                    "precipitation": "in",
                ],
                54.3, 11.18, 29.92, 0.05, "+54°F ↑11mph 29.92inHg 0.05in"
            ),
            (
                [
                    "system": "metric", "temperature": "K", "windSpeed": "Bft", "pressure": "mmHg",
                    "precipitation": "mm",
                ],
                285.55, 3, 760.01, 0, "+286K ↑3Bft 760mmHg 0mm"
            ),
            (
                ["system": "metric", "temperature": "°C", "windSpeed": "kn", "pressure": "hPa", "precipitation": "mm"],
                -3.2, 9.72, 1000, 0.2, "-3°C ↑10kn 1000hPa 0.2mm"
            ),
        ] as [(JSONValue, Double, Double, Double, Double, String)])
    func namedUnits(
        units: JSONValue, temperature: Double, wind: Double, pressure: Double, precipitation: Double, line: String
    ) throws {
        let current = Self.current(
            units: units, temperature: temperature, wind: wind, pressure: pressure, precipitation: precipitation)
        #expect(try render("%t %w %P %p", current: current, forecast: nil) == line)
    }
}
