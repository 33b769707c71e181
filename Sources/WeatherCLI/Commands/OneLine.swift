import WeatherDomain
import WeatherService

/// wttr.in's one-line formats over weatherd's answers: the named formats `1`…`4` and the %-codes.
///
/// It reads a `weather/current` result and, for the codes that need it, a `weather/forecast` result (`%r`,
/// `%+Nh`, the sun and moon codes, `%A`, and whether it is night). A value the answers lack prints as `?`;
/// `%A` prints nothing without it, as the forecast's days carry a `normal` only once the place's climate is
/// cached, and a status line should not show a `?` for that.
package struct OneLine: Sendable {
    /// The named formats, as wttr.in defines them.
    package static let named: [String: String] = [
        "1": "%c %t", "2": "%c 🌡️%t 🌬️%w", "3": "%l: %c %t", "4": "%l: %c 🌡️%t 🌬️%w",
    ]

    /// The format used without `--format`.
    package static let standard = "%l: %c %t"

    /// Every code with what it prints, for the error that lists them and for `--help`.
    package static let codes: [(code: String, meaning: String)] = [
        ("c", "condition emoji, night emoji at night"), ("C", "condition text"), ("h", "humidity"),
        ("t", "temperature"), ("f", "feels-like temperature"), ("w", "wind speed with a direction arrow"),
        ("l", "place"), ("m", "moon phase emoji"), ("M", "moon day: days since new moon"),
        ("p", "precipitation"), ("P", "pressure"), ("u", "UV index"), ("D", "dawn"), ("S", "sunrise"),
        ("z", "zenith: solar noon"), ("s", "sunset"), ("d", "dusk"), ("T", "local time"), ("Z", "time zone"),
        ("r", "chance of rain in the next 6 hours"), ("N", "the next hour's rain, briefly: rain in 12 min"),
        ("A", "today's high against the 1991–2020 normal: +6 °C; empty without a cached climate"),
        ("+Nh", "the forecast N hours ahead: emoji and temperature"),
        ("%", "a percent sign"),
    ]

    /// One piece of a parsed format.
    enum Piece: Equatable, Sendable {
        case text(String)
        case code(Character)
        case hoursAhead(Int)
    }

    let pieces: [Piece]

    /// The format's text, or nil when it has no code that needs the forecast.
    package var needsForecast: Bool {
        pieces.contains { piece in
            switch piece {
            case .text: false
            case .hoursAhead: true
            case .code(let code): "cmMDSzsdrA".contains(code)
            }
        }
    }

    /// Whether the format has `%N`, which needs a `weather/nowcast` result.
    package var needsNowcast: Bool { pieces.contains(.code("N")) }

    /// Parses a named format (`1`…`4`) or a %-format.
    ///
    /// - Throws: a `UsageError` naming the unknown code and listing the known ones.
    init(_ format: String) throws {
        let text = Self.named[format] ?? format
        var pieces: [Piece] = []
        var literal = ""
        var characters = text[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                literal.append(character)
                continue
            }
            guard let code = characters.popFirst() else { throw Self.unknown("%") }
            if code == "%" {
                literal.append("%")
                continue
            }
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
            if code == "+" {
                let digits = characters.prefix { $0.isNumber }
                characters = characters.dropFirst(digits.count)
                guard let hours = Int(digits), (1...120).contains(hours), characters.popFirst() == "h" else {
                    throw UsageError("%+Nh takes N from 1 to 120 hours, e.g. %+3h")
                }
                pieces.append(.hoursAhead(hours))
            } else if Self.codes.contains(where: { $0.code == String(code) }) {
                pieces.append(.code(code))
            } else {
                throw Self.unknown("%\(code)")
            }
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.pieces = pieces
    }

    static func unknown(_ code: String) -> UsageError {
        UsageError(
            "unknown format code \(code); the codes are "
                + codes.map { "%\($0.code) (\($0.meaning))" }.joined(separator: ", ")
                + "; the named formats are 1, 2, 3 and 4")
    }

    /// A result's `location` as people name it: its name, else its coordinates.
    static func placeName(_ location: JSONValue) -> String {
        if let name = location["name"]?.stringValue, !name.isEmpty { return name }
        let lat = location["lat"]?.doubleValue ?? 0
        let lon = location["lon"]?.doubleValue ?? 0
        return "\(Text.number(lat, decimals: 2)),\(Text.number(lon, decimals: 2))"
    }

    /// The highest chance of precipitation (0…1) among the steps of `forecast` (a `weather/forecast` result)
    /// that overlap the 6 hours from `now`; nil when none does.
    static func rainChance(in forecast: JSONValue?, now: Timestamp) -> Double? {
        let end = now.milliseconds + 6 * 3_600_000
        return (forecast?["entries"]?.arrayValue ?? []).compactMap { entry -> Double? in
            guard let time = Timestamp(rfc3339: entry["time"]?.stringValue ?? "")?.milliseconds,
                time + 3 * 3_600_000 > now.milliseconds, time < end
            else { return nil }
            return entry["pop"]?.doubleValue
        }.max()
    }

    /// The line for `current` (a `weather/current` result) and `forecast` (a `weather/forecast` result, when
    /// the format needs one and it could be had), at `now`.
    func render(current: JSONValue, forecast: JSONValue?, nowcast: JSONValue? = nil, now: Timestamp) -> String {
        var reading = Reading(current: current, forecast: forecast, now: now)
        reading.nowcast = nowcast
        return pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .code(let code): reading.value(code)
            case .hoursAhead(let hours): reading.ahead(hours: hours)
            }
        }.joined()
    }
}

/// The values of the codes, read from the answers.
private struct Reading {
    let current: JSONValue
    let conditions: JSONValue
    let forecast: JSONValue?
    let today: JSONValue?
    let now: Timestamp
    /// When the current conditions were observed: the day whose sun and moon the codes show, and what
    /// day or night means for the condition's emoji.
    let observed: Timestamp
    /// The place's clocks around now.
    let zone: ZoneOffsets
    let quantities: Quantities
    /// A `weather/nowcast` result, for `%N`.
    var nowcast: JSONValue?

    init(current: JSONValue, forecast: JSONValue?, now: Timestamp) {
        self.current = current
        conditions = current["current"] ?? .null
        self.forecast = forecast
        self.now = now
        zone = .of(location: current["location"], around: now)
        quantities = Quantities(current["units"])
        observed = current["observedAt"]?.stringValue.flatMap { Timestamp(rfc3339: $0) } ?? now
        let localDate = LocalTime.date(observed, zone: zone)
        today = forecast?["daily"]?.arrayValue?.first { $0["date"]?.stringValue == localDate }
    }

    func value(_ code: Character) -> String {
        switch code {
        case "c": return Symbols.emoji(conditions["condition"] ?? .null, night: isNight)
        case "C": return (conditions["condition"]?["text"]?.stringValue).map(Text.capitalized) ?? "?"
        case "h": return conditions["humidity"]?.doubleValue.map { "\(Text.number($0, decimals: 0))%" } ?? "?"
        case "t": return temperature(conditions["temperature"])
        case "f": return temperature(conditions["feelsLike"])
        case "w": return wind(conditions)
        case "l": return place
        case "m": return today?["moonPhase"]?.doubleValue.map(Symbols.moon) ?? "?"
        case "M": return today?["moonDay"]?.doubleValue.map { Text.number($0.rounded(.down), decimals: 0) } ?? "?"
        case "p": return quantities.precipitation(conditions["precipitation"])
        case "P": return quantities.pressure(conditions["pressure"])
        case "u": return conditions["uvIndex"]?.doubleValue.map { Text.number($0, decimals: 0) } ?? "?"
        case "D": return localTime(today?["dawn"])
        case "S": return localTime(today?["sunrise"] ?? conditions["sunrise"])
        case "z": return localTime(today?["zenith"])
        case "s": return localTime(today?["sunset"] ?? conditions["sunset"])
        case "d": return localTime(today?["dusk"])
        case "T":
            return LocalTime.clock(now, zone: zone) + LocalTime.offsetText(zone.offsetSeconds(at: now), colon: false)
        case "Z":
            return current["location"]?["timezone"]?.stringValue
                ?? "UTC" + LocalTime.offsetText(zone.offsetSeconds(at: now), colon: true)
        case "r": return rainChance
        case "N": return nowcast.flatMap { NowcastText.short($0, now: now) } ?? "?"
        case "A": return Anomaly.high(today).map { Anomaly.text($0, unit: forecastUnit) } ?? ""
        default: return "?"
        }
    }

    /// `%+Nh`: the forecast step that holds the time N hours from now.
    func ahead(hours: Int) -> String {
        let target = now.milliseconds + Int64(hours) * 3_600_000
        let entries = forecast?["entries"]?.arrayValue ?? []
        let times = entries.map { Timestamp(rfc3339: $0["time"]?.stringValue ?? "")?.milliseconds ?? .max }
        guard let index = times.lastIndex(where: { $0 <= target }), target - times[index] < 6 * 3_600_000 else {
            return "?"
        }
        let entry = entries[index]
        return Symbols.emoji(entry["condition"] ?? .null, night: false) + " " + temperature(entry["temperature"])
    }

    /// Night: observed before that day's sunrise or after its sunset, where the answers give them.
    var isNight: Bool {
        Symbols.isNight(
            observed, polar: today?["polar"], sunrise: today?["sunrise"] ?? conditions["sunrise"],
            sunset: today?["sunset"] ?? conditions["sunset"])
    }

    var place: String { OneLine.placeName(current["location"] ?? .null) }

    func temperature(_ value: JSONValue?) -> String { quantities.temperature(value) }

    func wind(_ values: JSONValue) -> String {
        quantities.wind(speed: values["windSpeed"], direction: values["windDirection"])
    }

    /// The forecast's temperature unit, which its days' highs and normals are in.
    var forecastUnit: String { forecast?["units"]?["temperature"]?.stringValue ?? "°C" }

    var rainChance: String { Quantities.percent(OneLine.rainChance(in: forecast, now: now)) }

    func localTime(_ value: JSONValue?) -> String {
        guard let text = value?.stringValue, let time = Timestamp(rfc3339: text) else { return "?" }
        return LocalTime.clock(time, zone: zone)
    }
}
