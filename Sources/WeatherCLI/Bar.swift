import WeatherDomain
import WeatherService

/// The status bars `weatherd bar` prints for, each reading one line per update.
package enum BarStyle: String, CaseIterable, Sendable {
    /// One JSON object per line: `{text, tooltip, class, percentage}` (waybar's custom module, `return-type
    /// json`).
    case waybar
    /// Plain lines (i3blocks' `interval=persist`).
    case i3blocks
    /// Plain lines with polybar's colour tags (`tail = true`).
    case polybar
    /// Plain lines with tmux's colour markup (`#(…)` in `status-right`).
    case tmux
    /// Plain lines.
    case plain
}

/// What a bar shows and when it asks again: a state machine fed what happened, returning what its owner is
/// to do (print, ask the weather again, wake later). It never waits or calls anything itself.
struct BarMachine {
    /// What the owner does next.
    enum Action: Equatable {
        /// Print this line.
        case print(String)
        /// Ask `weather/current` and `weather/forecast` again and pass the answers to `answered`.
        case ask
        /// Call `woke` at this time (replacing any earlier wake-up).
        case wake(at: Timestamp)
    }

    /// The alert rules that mark the bar: warnings, weatherd's own and official ones, not the daily summary.
    static let markingRules: Set<String> = ["temp_drop", "severe", "official"]

    let style: BarStyle
    let format: OneLine
    /// How long the daemon serves weather from its cache without a call (`cacheTtlSeconds`).
    let cacheTTL: Int64
    private(set) var current: JSONValue?
    private(set) var forecast: JSONValue?
    /// The place's `weather/nowcast` answer, when one came.
    private(set) var nowcast: JSONValue?
    /// The cache key of the place shown (its coordinates rounded as the daemon rounds them).
    private(set) var key: String?
    /// The alerts raised for the place (not daily summaries), most recent last.
    private(set) var alerts: [JSONValue] = []
    /// Whether the daemon is gone: what is shown is then stale whatever its answer said.
    private(set) var unreachable = false
    private var printed: String?

    init(style: BarStyle, format: OneLine, cacheTTL: Int64) {
        self.style = style
        self.format = format
        self.cacheTTL = cacheTTL
    }

    /// The weather answers came (the forecast may be missing): show them; ask again when the cache says the
    /// weather is due (`fetchedAt` + the cache's TTL), or after a short pause when that time has passed
    /// (the provider is failing and the answer is stale).
    mutating func answered(
        current: JSONValue, forecast: JSONValue?, nowcast: JSONValue? = nil, alerts raised: [JSONValue] = [],
        now: Timestamp
    ) -> [Action] {
        self.current = current
        self.forecast = forecast ?? self.forecast
        self.nowcast = nowcast ?? self.nowcast
        let location = current["location"] ?? .null
        if let lat = location["lat"]?.doubleValue, let lon = location["lon"]?.doubleValue {
            let key = Place.key(lat: lat, lon: lon)
            if key != self.key { alerts = [] }
            self.key = key
        }
        for alert in raised { _ = take(alert) }
        unreachable = false
        return render(now) + [.wake(at: nextAsk(now))]
    }

    /// Asking failed with the daemon still there (the place is unknown now, say): keep what is shown and try
    /// again later.
    mutating func askFailed(now: Timestamp) -> [Action] {
        [.wake(at: Timestamp(milliseconds: now.milliseconds + retry))]
    }

    /// An event of the log: a fetch for this place (any client's, or the scheduler's), or a change of the
    /// settings, favorites or location that may change what is shown, means asking again (from the cache).
    mutating func event(_ event: JSONValue) -> [Action] {
        let data = event["data"] ?? .null
        switch event["type"]?.stringValue {
        case "weather.fetched", "nowcast.fetched": return data["key"]?.stringValue == key ? [.ask] : []
        case "weather.fetch_failed":
            // A failed nowcast call is not a reason to ask again: the ask would call again, and fail again.
            let weather = ["current", "forecast"].contains(data["kind"]?.stringValue ?? "")
            return weather && data["key"]?.stringValue == key ? [.ask] : []
        case "settings.changed", "favorite.updated", "location.changed", "location.cleared": return [.ask]
        default: return []
        }
    }

    /// An alert was raised (`alerts/raised`): the bar is marked when it is for this place.
    mutating func alertRaised(_ alert: JSONValue, now: Timestamp) -> [Action] {
        take(alert) ? render(now) : []
    }

    /// The time asked for in `wake(at:)` came: the weather is due.
    mutating func woke(now: Timestamp) -> [Action] { render(now) + [.ask] }

    /// The daemon's connection ended: what is shown is marked stale.
    mutating func lost(now: Timestamp) -> [Action] {
        unreachable = true
        return render(now)
    }

    /// Keeps `alert` when it is a warning for this place; whether it was kept.
    private mutating func take(_ alert: JSONValue) -> Bool {
        guard let key, alert["key"]?.stringValue == key,
            Self.markingRules.contains(alert["rule"]?.stringValue ?? ""),
            !alerts.contains(where: { $0["id"] == alert["id"] })
        else { return false }
        alerts.append(alert)
        return true
    }

    /// The pause before asking again when the weather is already due: the cache's TTL, from 1 s to 60 s.
    private var retry: Int64 { min(max(cacheTTL, 1), 60) * 1000 }

    private func nextAsk(_ now: Timestamp) -> Timestamp {
        let fetched = Timestamp(rfc3339: current?["fetchedAt"]?.stringValue ?? "")?.milliseconds ?? now.milliseconds
        return Timestamp(milliseconds: max(fetched + cacheTTL * 1000, now.milliseconds + retry))
    }

    private mutating func render(_ now: Timestamp) -> [Action] {
        guard let current else { return [] }
        let line = BarView(
            style: style, format: format, current: current, forecast: forecast, nowcast: nowcast,
            alerts: activeAlerts(now), unreachable: unreachable, now: now
        ).line
        guard line != printed else { return [] }
        printed = line
        return [.print(line)]
    }

    /// The alerts raised on the place's local date today: an alert is for the day it was raised.
    func activeAlerts(_ now: Timestamp) -> [JSONValue] {
        let today = LocalTime.date(now, zone: .of(location: current?["location"], around: now))
        return alerts.filter { $0["localDate"]?.stringValue == today }
    }
}

/// One line of a bar in its style.
struct BarView {
    let style: BarStyle
    let format: OneLine
    let current: JSONValue
    let forecast: JSONValue?
    var nowcast: JSONValue? = nil
    let alerts: [JSONValue]
    let unreachable: Bool
    let now: Timestamp

    var stale: Bool { unreachable || current["stale"]?.boolValue == true }

    /// The line the bar prints. The answers' strings are terminal-safe already (`Context`); in polybar's
    /// style a `%{` in them is escaped too, or polybar would read it as a tag (`%{A1:command:}` runs the
    /// command on a click).
    var line: String {
        let text =
            style == .polybar
            ? format.render(
                current: current.mappingStrings(Self.polybarSafe), forecast: forecast?.mappingStrings(Self.polybarSafe),
                nowcast: nowcast, now: now)
            : format.render(current: current, forecast: forecast, nowcast: nowcast, now: now)
        let warning = alerts.isEmpty ? "" : "⚠ "
        let mark = stale ? "(\(staleness))" : ""
        switch style {
        case .waybar:
            var classes: [JSONValue] = [.string(current["theme"]?.stringValue ?? "unknown")]
            if stale { classes.append("stale") }
            if !alerts.isEmpty { classes.append("alert") }
            if let nowcast, NowcastText.rainSoon(nowcast, now: now) { classes.append("rain-soon") }
            let chance = OneLine.rainChance(in: forecast, now: now) ?? 0
            return JSONValue.object([
                "text": .string(warning + text), "tooltip": .string(tooltip), "class": .array(classes),
                "percentage": .int(Int64((chance * 100).rounded())),
            ]).jsonString
        case .plain, .i3blocks:
            return warning + text + (mark.isEmpty ? "" : " " + mark)
        case .polybar:
            return (warning.isEmpty ? "" : "%{F#e06c75}⚠%{F-} ") + text
                + (mark.isEmpty ? "" : " %{F#888888}\(mark)%{F-}")
        case .tmux:
            let escaped = text.replacingOccurrences(of: "#", with: "##")
            return (warning.isEmpty ? "" : "#[fg=red]⚠#[default] ") + escaped
                + (mark.isEmpty ? "" : " #[fg=colour244]\(mark)#[default]")
        }
    }

    /// `text` without polybar's tags: a `%{` is written `%\u{7B}` (polybar has no escape of its own for it).
    static func polybarSafe(_ text: String) -> String { text.replacingOccurrences(of: "%{", with: "%\\u{7B}") }

    /// `stale, 12 min old` (`Staleness`, the rule of every face), or `weatherd unreachable` when the daemon is
    /// gone.
    var staleness: String {
        if unreachable { return "stale, weatherd unreachable" }
        return Staleness.mark(current, now: now) ?? "stale"
    }
}
