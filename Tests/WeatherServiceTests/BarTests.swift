import Testing
import WeatherDomain

@testable import WeatherCLI

@Suite("weatherd bar's state machine and lines")
struct BarTests {
    /// 2026-11-22 12:00 UTC, 13:00 at the place (+01:00).
    static let noon = Timestamp(milliseconds: 1_795_348_800_000)

    static func at(minutes: Int64) -> Timestamp { Timestamp(milliseconds: noon.milliseconds + minutes * 60_000) }

    static func current(temperature: Double = 4, stale: Bool = false, fetchedAt: Timestamp = noon) -> JSONValue {
        [
            "location": ["name": "Berlin", "lat": 52.5244, "lon": 13.4105, "utcOffsetSeconds": 3600],
            "units": ["system": "metric", "temperature": "°C", "windSpeed": "m/s"],
            "current": [
                "temperature": .double(temperature), "condition": ["scheme": "wmo", "code": 3, "text": "overcast"],
            ],
            "theme": "cloudy", "observedAt": .string(fetchedAt.description),
            "fetchedAt": .string(fetchedAt.description), "stale": .bool(stale),
        ]
    }

    static let forecast: JSONValue = [
        "location": ["name": "Berlin", "lat": 52.5244, "lon": 13.4105, "utcOffsetSeconds": 3600],
        "units": ["system": "metric", "temperature": "°C"],
        "daily": [
            ["date": "2026-11-22", "min": -1, "max": 5, "condition": ["scheme": "wmo", "code": 3]],
            ["date": "2026-11-23", "min": -3, "max": 2, "condition": ["scheme": "wmo", "code": 71]],
        ],
        "entries": [
            ["time": "2026-11-22T12:00:00.000Z", "temperature": 4, "pop": 0.2, "condition": ["code": 3]],
            ["time": "2026-11-22T15:00:00.000Z", "temperature": 3, "pop": 0.65, "condition": ["code": 61]],
            ["time": "2026-11-23T09:00:00.000Z", "temperature": 0, "pop": 0.9, "condition": ["code": 71]],
        ],
    ]

    static func alert(id: String, rule: String = "severe", key: String = "52.52,13.41", date: String = "2026-11-22")
        -> JSONValue
    {
        [
            "id": .string(id), "rule": .string(rule), "key": .string(key), "localDate": .string(date),
            "message": "Severe weather now: thunderstorm.",
        ]
    }

    static func machine(_ style: BarStyle = .plain, ttl: Int64 = 600) throws -> BarMachine {
        BarMachine(style: style, format: try OneLine("%c %t"), cacheTTL: ttl)
    }

    @Test(
        "the first answer prints a line and asks again when the cache's TTL has passed; the same answer prints nothing")
    func answers() throws {
        var machine = try Self.machine()
        #expect(
            machine.answered(current: Self.current(), forecast: Self.forecast, now: Self.noon) == [
                .print("☁️ +4°C"), .wake(at: Self.at(minutes: 10)),
            ])
        #expect(machine.key == "52.52,13.41")
        #expect(
            machine.answered(current: Self.current(), forecast: Self.forecast, now: Self.at(minutes: 3)) == [
                .wake(at: Self.at(minutes: 10))
            ], "nothing changed: nothing printed")
        #expect(
            machine.answered(
                current: Self.current(temperature: 6, fetchedAt: Self.at(minutes: 5)), forecast: nil,
                now: Self.at(minutes: 5)) == [.print("☁️ +6°C"), .wake(at: Self.at(minutes: 15))],
            "a newer answer prints and moves the next ask; the forecast kept")
        #expect(machine.forecast == Self.forecast)
    }

    @Test("a fetch of this place or a change of settings asks again; a fetch of another place does not")
    func events() throws {
        var machine = try Self.machine()
        _ = machine.answered(current: Self.current(), forecast: Self.forecast, now: Self.noon)
        let fetched: JSONValue = ["type": "weather.fetched", "data": ["key": "52.52,13.41", "kind": "current"]]
        let failed: JSONValue = ["type": "weather.fetch_failed", "data": ["key": "52.52,13.41", "kind": "forecast"]]
        let nowcastFailed: JSONValue = [
            "type": "weather.fetch_failed", "data": ["key": "52.52,13.41", "kind": "nowcast"],
        ]
        let nowcastFetched: JSONValue = ["type": "nowcast.fetched", "data": ["key": "52.52,13.41"]]
        let elsewhere: JSONValue = ["type": "weather.fetched", "data": ["key": "48.86,2.35"]]
        #expect(machine.event(fetched) == [.ask])
        #expect(machine.event(failed) == [.ask])
        #expect(machine.event(nowcastFailed) == [], "asking again would call again, and fail again")
        #expect(machine.event(nowcastFetched) == [.ask])
        #expect(machine.event(elsewhere) == [])
        #expect(machine.event(["type": "settings.changed", "data": ["units": "imperial"]]) == [.ask])
        #expect(machine.event(["type": "favorite.updated", "data": ["id": "fav-1"]]) == [.ask])
        #expect(machine.event(["type": "history.recorded", "data": [:]]) == [])
    }

    @Test("an alert for this place marks the line until the place's local date changes; others do not")
    func alerts() throws {
        var machine = try Self.machine()
        _ = machine.answered(current: Self.current(), forecast: Self.forecast, now: Self.noon)
        #expect(machine.alertRaised(Self.alert(id: "alert-1", key: "48.86,2.35"), now: Self.noon) == [])
        #expect(machine.alertRaised(Self.alert(id: "alert-2", rule: "daily_summary"), now: Self.noon) == [])
        #expect(machine.alertRaised(Self.alert(id: "alert-3"), now: Self.noon) == [.print("⚠ ☁️ +4°C")])
        #expect(machine.alertRaised(Self.alert(id: "alert-3"), now: Self.noon) == [], "the same alert once")
        // 22:59 UTC is 23:59 at the place: still the 22nd.
        #expect(machine.woke(now: Self.at(minutes: 659)) == [.ask])
        // 23:00 UTC is midnight at the place: the alert was for the day before.
        #expect(machine.woke(now: Self.at(minutes: 660)) == [.print("☁️ +4°C"), .ask])
    }

    @Test("a stale answer is marked with its age and asked again after a pause; a lost daemon marks it too")
    func staleness() throws {
        var machine = try Self.machine(ttl: 600)
        _ = machine.answered(current: Self.current(), forecast: Self.forecast, now: Self.noon)
        let stale = Self.current(stale: true, fetchedAt: Self.noon)
        #expect(
            machine.answered(current: stale, forecast: nil, now: Self.at(minutes: 12)) == [
                .print("☁️ +4°C (stale, 12 min old)"), .wake(at: Self.at(minutes: 13)),
            ], "the weather is overdue: asked again a minute later, not at once")
        #expect(machine.askFailed(now: Self.at(minutes: 13)) == [.wake(at: Self.at(minutes: 14))])
        #expect(machine.lost(now: Self.at(minutes: 14)) == [.print("☁️ +4°C (stale, weatherd unreachable)")])
        var quick = try Self.machine(ttl: 0)
        _ = quick.answered(current: Self.current(), forecast: nil, now: Self.noon)
        #expect(
            quick.answered(current: stale, forecast: nil, now: Self.noon).last
                == .wake(at: Timestamp(milliseconds: Self.noon.milliseconds + 1000)),
            "never asked in a loop, whatever the TTL")
    }

    @Test("waybar: one JSON object with text, tooltip, class and percentage")
    func waybar() throws {
        var machine = try Self.machine(.waybar)
        let first = machine.answered(current: Self.current(), forecast: Self.forecast, now: Self.noon)
        guard case .print(let line) = first.first else {
            Issue.record("no line: \(first)")
            return
        }
        let object = try JSONValue.parse(Array(line.utf8))
        #expect(object.objectValue.map { Set($0.keys) } == ["text", "tooltip", "class", "percentage"])
        #expect(object["text"] == "☁️ +4°C")
        #expect(object["class"] == ["cloudy"])
        #expect(object["percentage"] == 65, "the chance of rain in the next 6 hours")
        #expect(
            object["tooltip"]?.stringValue
                == """
                Berlin
                13:00  ☁️ +4°C  rain 20%
                16:00  🌦️ +3°C  rain 65%
                10:00  🌨️ 0°C  rain 90%
                Sun 22 Nov  ☁️ -1°C / 5°C  rain 65%
                Mon 23 Nov  🌨️ -3°C / 2°C  rain 90%
                """)

        _ = machine.alertRaised(Self.alert(id: "alert-1"), now: Self.noon)
        let stale = machine.answered(
            current: Self.current(stale: true), forecast: Self.forecast, now: Self.at(minutes: 20))
        guard case .print(let marked) = stale.first else {
            Issue.record("no line: \(stale)")
            return
        }
        let both = try JSONValue.parse(Array(marked.utf8))
        #expect(both["class"] == ["cloudy", "stale", "alert"])
        #expect(both["text"] == "⚠ ☁️ +4°C")
        #expect(
            both["tooltip"]?.stringValue?.hasSuffix("⚠ Severe weather now: thunderstorm.\nstale, 20 min old") == true)
    }

    /// Hourly forecast steps from 08:00 UTC, one an hour for `count` hours, in `units`.
    static func hourly(count: Int, units: JSONValue = ["system": "metric", "temperature": "°C"]) -> JSONValue {
        let start = noon.milliseconds - 4 * 3_600_000
        return [
            "location": ["name": "Berlin", "lat": 52.5244, "lon": 13.4105, "utcOffsetSeconds": 3600],
            "units": units,
            "entries": .array(
                (0..<count).map { hour in
                    [
                        "time": .string(Timestamp(milliseconds: start + Int64(hour) * 3_600_000).description),
                        "temperature": .double(Double(hour)), "condition": ["code": 0],
                    ]
                }),
        ]
    }

    @Test("the tooltip lists the step holding now and the next ones, six at most, in the answer's units")
    func tooltipHours() throws {
        func tooltip(_ forecast: JSONValue, minutes: Int64 = 30) throws -> [String] {
            BarView(
                style: .waybar, format: try OneLine("%t"), current: Self.current(), forecast: forecast, alerts: [],
                unreachable: false, now: Self.at(minutes: minutes)
            ).tooltip.split(separator: "\n").map(String.init)
        }
        // At 12:30 UTC (13:30 at the place) the step holding now began at 12:00 UTC, the fifth.
        #expect(
            try tooltip(Self.hourly(count: 24)) == [
                "Berlin", "13:00  ☀️ +4°C", "14:00  ☀️ +5°C", "15:00  ☀️ +6°C", "16:00  ☀️ +7°C", "17:00  ☀️ +8°C",
                "18:00  ☀️ +9°C",
            ])
        #expect(try tooltip(Self.hourly(count: 6)) == ["Berlin", "13:00  ☀️ +4°C", "14:00  ☀️ +5°C"], "what there is")
        #expect(try tooltip(Self.hourly(count: 6), minutes: 300) == ["Berlin"], "no step ahead, none long past")
        let imperial = Self.hourly(count: 24, units: ["system": "imperial", "temperature": "°F"])
        #expect(try tooltip(imperial)[1] == "13:00  ☀️ +4°F")
    }

    @Test("polybar: a %{ in a name is escaped (polybar would run %{A1:command:} on a click); its own tags kept")
    func polybarTags() throws {
        var current = Self.current(stale: true).objectValue ?? [:]
        current["location"] = ["name": "X%{A1:touch pwned:}Y%{F#f00}", "lat": 52.5244, "lon": 13.4105]
        let view = BarView(
            style: .polybar, format: try OneLine("%l %t"), current: .object(current), forecast: nil,
            alerts: [Self.alert(id: "alert-1")], unreachable: false, now: Self.at(minutes: 5))
        #expect(
            view.line
                == "%{F#e06c75}⚠%{F-} X%\\u{7B}A1:touch pwned:}Y%\\u{7B}F#f00} +4°C %{F#888888}(stale, 5 min old)%{F-}")
    }

    @Test("polybar and tmux colour the marks in their own markup; tmux doubles #")
    func markup() throws {
        let current = Self.current(stale: true)
        let alerts = [Self.alert(id: "alert-1")]
        func line(_ style: BarStyle, _ format: String = "%c %t") throws -> String {
            BarView(
                style: style, format: try OneLine(format), current: current, forecast: nil, alerts: alerts,
                unreachable: false, now: Self.at(minutes: 5)
            ).line
        }
        #expect(try line(.polybar) == "%{F#e06c75}⚠%{F-} ☁️ +4°C %{F#888888}(stale, 5 min old)%{F-}")
        #expect(try line(.tmux, "#1 %t") == "#[fg=red]⚠#[default] ##1 +4°C #[fg=colour244](stale, 5 min old)#[default]")
        #expect(try line(.i3blocks) == "⚠ ☁️ +4°C (stale, 5 min old)")
    }
}
