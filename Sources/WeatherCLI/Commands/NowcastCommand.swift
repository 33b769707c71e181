import WeatherDomain
import WeatherService

/// `weatherd nowcast [PLACE]`: the next hour's precipitation as a sparkline and a sentence.
enum NowcastCommand {
    static let command = Command(
        name: "nowcast", summary: "precipitation in the next hour: a sparkline and a sentence",
        details: """
            Prints the next hour's precipitation at PLACE (as for `weatherd now`) as one bar per step, from
            the best source that serves it (MET Norway's radar in the Nordic countries, OpenWeatherMap's
            minute steps with One Call 3.0, else Open-Meteo's 15-minute steps), then what they say. Where no
            source answers (none serves the place, or those that do fail), says why on stderr and exits 1. --json
            prints the whole answer, two hours of steps.

            bars: · dry, ▁▂▃ light, ▄▅ moderate, ▆▇█ heavy (WMO intensity classes)

            example:
              weatherd nowcast Oslo
              weatherd nowcast 59.91,10.75 --json | jq '.summary.state'
            """,
        forms: [ArgumentForm([Argument.place.orNone])], options: [SharedOptions.units.option]
    ) { context in
        let result = try await context.call("weather/nowcast", try await NowCommand.weatherParams(context))
        // No source answered: the answer says why, and the status is 1.
        let answered = result["covered"]?.boolValue == true
        if context.printedAsJSON(result) { return answered ? CLI.Exit.ok : CLI.Exit.failed }
        let place = PlaceText.name(result["location"])
        guard answered else {
            context.output.error(
                "weatherd nowcast: \(place): \(result["message"]?.stringValue ?? "no nowcast source answered")")
            return CLI.Exit.failed
        }
        let stale = context.output.staleMark(result, now: context.now())
        let bars = NowcastText.sparkline(result, minutes: 60)
        context.output.print("\(place)  now ▕\(bars)▏ +1h\(stale)")
        context.output.print(result["summary"]?["sentence"]?.stringValue ?? "")
        if let attribution = result["attribution"]?.stringValue {
            context.output.print(context.output.styled(attribution, "2"))
        }
        return CLI.Exit.ok
    }
}

/// The nowcast for people in a few characters: the sparkline of `weatherd nowcast` and the short form of
/// `now --format %N` and the bars.
enum NowcastText {
    /// One bar per step within `minutes` of the first: `·` dry, then eight heights on the WMO classes' scale.
    static func sparkline(_ nowcast: JSONValue, minutes: Int) -> String {
        let steps = nowcast["steps"]?.arrayValue ?? []
        let resolution = max(1, nowcast["resolution"]?.intValue ?? 5)
        let perMillimetre = nowcast["units"]?["intensity"]?.stringValue == "in/h" ? 25.4 : 1
        return String(
            steps.prefix(max(1, minutes / Int(resolution))).map { step in
                bar(mmPerHour: (step["intensity"]?.doubleValue ?? 0) * perMillimetre)
            })
    }

    /// The bar of a rate, mm/h.
    static func bar(mmPerHour rate: Double) -> Character {
        let limits: [(Double, Character)] = [
            (PrecipitationIntensity.wet, "·"), (0.5, "▁"), (1, "▂"), (2.5, "▃"), (5, "▄"), (10, "▅"), (20, "▆"),
            (50, "▇"),
        ]
        return limits.first { rate < $0.0 }?.1 ?? "█"
    }

    /// "rain in 12 min", "rain for 1 h", "rain until 14:40", "rain on and off", "no rain"; nil where no source
    /// serves the place.
    static func short(_ nowcast: JSONValue, now: Timestamp) -> String? {
        guard nowcast["covered"]?.boolValue == true, let summary = nowcast["summary"] else { return nil }
        let what = summary["precipitation"]?.stringValue ?? "rain"
        func minutes(_ member: String) -> String {
            let time = Timestamp(rfc3339: summary[member]?.stringValue ?? "") ?? now
            return "\(max(1, (time.milliseconds - now.milliseconds + 30_000) / 60_000)) min"
        }
        switch summary["state"]?.stringValue {
        case "starting": return "\(what) in \(minutes("startsAt"))"
        case "ongoing": return "\(what) for 1 h+"
        case "stopping": return "\(what) ends in \(minutes("endsAt"))"
        case "intermittent": return "\(what) on and off"
        default: return "no \(what)"
        }
    }

    /// Whether rain starts (or falls) within `minutes`: what the bars' `rain-soon` class says.
    static func rainSoon(_ nowcast: JSONValue, now: Timestamp, within minutes: Int64 = 30) -> Bool {
        guard nowcast["covered"]?.boolValue == true, let summary = nowcast["summary"] else { return false }
        switch summary["state"]?.stringValue {
        case "ongoing", "stopping": return true
        case "starting", "intermittent":
            guard let starts = Timestamp(rfc3339: summary["startsAt"]?.stringValue ?? "") else { return true }
            return starts.milliseconds - now.milliseconds <= minutes * 60_000
        default: return false
        }
    }
}
