import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd alerts rules` and `weatherd alerts on|off RULE [--threshold …] [--time HH:MM]`: the alert rules'
/// settings, shown or changed through `alerts/configure` (which, given nothing to change, only answers them).
enum AlertRulesCommand {
    /// The rules a person turns on or off, by the names alerts carry.
    static let rules = AlertRule.allCases.map(\.rawValue)

    /// `alerts rules`, `alerts on RULE`, `alerts off RULE`, beside `alerts` itself.
    static let forms = [
        ArgumentForm(flags: ["--limit", "--units"]), ArgumentForm([.action("rules")]),
        ArgumentForm([.action("on"), .choice("rule", rules)], flags: ["--threshold", "--time"]),
        ArgumentForm([.action("off"), .choice("rule", rules)]),
    ]

    /// `--threshold`: temp_drop's drop in °C, or air_quality's European AQI level.
    static let threshold = CommandOption(
        "--threshold", value: .text("VALUE"),
        help: "with on: temp_drop's drop in °C (0.1 to 100), or air_quality's level ("
            + OptionValue<String>.either(EuropeanAQILevel.allCases.map(\.rawValue)) + ")")
    /// `--time HH:MM`: when the daily summary is raised.
    static let time = CommandOption(
        "--time", value: .text("HH:MM"), help: "with on daily_summary: the local time it is raised at")

    static let options = [threshold.option, time.option]

    /// The checks the forms cannot make: which rule takes `--threshold` and `--time`, and their values.
    static let check: @Sendable (Invocation) throws -> Void = { invocation in
        _ = try change(invocation)
    }

    /// Shows the rules' settings, after changing them as `on` or `off` asks.
    static func run(_ context: Context) async throws -> Int32 {
        let settings = try await context.call("alerts/configure", try change(context.invocation))
        if context.printedAsJSON(settings) { return CLI.Exit.ok }
        context.output.print(Text.table(rows(settings)))
        return CLI.Exit.ok
    }

    /// The `alerts/configure` params `on RULE` or `off RULE` ask for; none for `rules`.
    ///
    /// - Throws: a `UsageError` for a rule that cannot be turned off, or a `--threshold` or `--time` that does
    ///   not go with the rule or is wrong.
    static func change(_ invocation: Invocation) throws -> [String: JSONValue] {
        let words = invocation.positional
        let threshold = invocation[Self.threshold]
        let time = invocation[Self.time]
        guard let action = words.first, action == "on" || action == "off", words.count == 2 else {
            if threshold != nil || time != nil { throw UsageError("--threshold and --time go with alerts on RULE") }
            return [:]
        }
        let rule = words[1]
        let on = action == "on"
        if threshold != nil, !on || !["temp_drop", "air_quality"].contains(rule) {
            throw UsageError("--threshold goes with alerts on temp_drop or alerts on air_quality")
        }
        if time != nil, !on || rule != "daily_summary" {
            throw UsageError("--time goes with alerts on daily_summary")
        }
        switch AlertRule(rawValue: rule) {
        case .tempDrop:
            guard on else {
                throw UsageError(
                    "temp_drop cannot be turned off; raise its --threshold (up to 100 °C), or turn a favorite's "
                        + "alerts off with weatherd favorites notify FAVORITE off")
            }
            guard let threshold else { return [:] }
            guard let degrees = Double(threshold), (0.1...100).contains(degrees) else {
                throw UsageError("--threshold of temp_drop must be a number of °C from 0.1 to 100")
            }
            return ["tempDropC": .double(degrees)]
        case .dailySummary:
            var daily: [String: JSONValue] = ["enabled": .bool(on)]
            if let time {
                guard AlertSettings.minutes(of: time) != nil else {
                    throw UsageError("--time must be a local time HH:MM, e.g. 08:00")
                }
                daily["time"] = .string(time)
            }
            return ["dailySummary": .object(daily)]
        case .airQuality:
            var airQuality: [String: JSONValue] = ["enabled": .bool(on)]
            if let threshold {
                guard EuropeanAQILevel(rawValue: threshold) != nil else {
                    throw UsageError(
                        "--threshold of air_quality must be "
                            + OptionValue<String>.either(EuropeanAQILevel.allCases.map(\.rawValue)))
                }
                airQuality["level"] = .string(threshold)
            }
            return ["airQuality": .object(airQuality)]
        case .severe: return ["severe": .bool(on)]
        case .official: return ["official": .bool(on)]
        case .nowcast: return ["nowcast": .bool(on)]
        case .forecastChange: return ["forecastChange": .bool(on)]
        case nil: throw UsageError("unknown rule \(rule): \(OptionValue<String>.either(rules))")
        }
    }

    /// One row per rule: its name, on or off, and its settings (as `alerts/configure` answers them).
    static func rows(_ settings: JSONValue) -> [[String]] {
        let state = { (on: Bool?) in on == false ? "off" : "on" }
        let drop = settings["tempDropC"]?.doubleValue.map { Text.number($0, decimals: 1) } ?? "?"
        let daily = settings["dailySummary"]
        let airQuality = settings["airQuality"]
        return [
            ["temp_drop", "on", "a drop of more than \(drop) °C (--threshold)"],
            ["severe", state(settings["severe"]?.boolValue), "severe weather now or in the next 24 h"],
            [
                "daily_summary", state(daily?["enabled"]?.boolValue),
                "at \(daily?["time"]?.stringValue ?? "?") local time (--time)",
            ],
            ["official", state(settings["official"]?.boolValue), "official warnings (NWS, MeteoAlarm)"],
            [
                "air_quality", state(airQuality?["enabled"]?.boolValue),
                "the European AQI at \(airQuality?["level"]?.stringValue ?? "?") or worse (--threshold)",
            ],
            ["nowcast", state(settings["nowcast"]?.boolValue), "rain starting or stopping in the next hour"],
            [
                "forecast_change", state(settings["forecastChange"]?.boolValue),
                "a day of the next three whose forecast changed",
            ],
        ]
    }
}
