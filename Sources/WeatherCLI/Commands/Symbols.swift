import WeatherDomain

/// Emoji for conditions, the wind and the moon.
enum Symbols {
    /// The condition's emoji, as wttr.in draws them, with night emoji where the sun would show.
    static func emoji(_ condition: JSONValue, night: Bool) -> String {
        switch kind(condition) {
        case .clear: return night ? "🌙" : "☀️"
        case .mostlyClear: return night ? "🌙" : "🌤️"
        case .partlyCloudy: return night ? "☁️" : "⛅️"
        case .cloudy: return "☁️"
        case .fog: return "🌫️"
        case .lightRain: return night ? "🌧️" : "🌦️"
        case .rain: return "🌧️"
        case .lightSnow: return "🌨️"
        case .snow: return "❄️"
        case .thunder: return "⛈️"
        case .tornado: return "🌪️"
        case .unknown: return "✨"
        }
    }

    /// The kind of a condition (`{code, scheme}`), whichever provider's codes it is in.
    static func kind(_ condition: JSONValue) -> Kind {
        let code = condition["code"]?.intValue ?? -1
        return condition["scheme"]?.stringValue == "owm" ? owmKind(code) : wmoKind(code)
    }

    /// What a condition is, as weatherd's faces draw it.
    enum Kind {
        case clear, mostlyClear, partlyCloudy, cloudy, fog, lightRain, rain, lightSnow, snow, thunder, tornado,
            unknown
    }

    private static func wmoKind(_ code: Int64) -> Kind {
        switch code {
        case 0: .clear
        case 1: .mostlyClear
        case 2: .partlyCloudy
        case 3: .cloudy
        case 45, 48: .fog
        case 51, 53, 56, 61, 80: .lightRain
        case 55, 57, 63, 65, 66, 67, 81, 82: .rain
        case 71, 77, 85: .lightSnow
        case 73, 75, 86: .snow
        case 95, 96, 99: .thunder
        default: .unknown
        }
    }

    private static func owmKind(_ code: Int64) -> Kind {
        switch code {
        case 200..<300: .thunder
        case 300..<400, 500, 520: .lightRain
        case 501..<600: .rain
        case 600, 612, 615, 620: .lightSnow
        case 600..<700: .snow
        case 781: .tornado
        case 700..<800: .fog
        case 800: .clear
        case 801: .mostlyClear
        case 802: .partlyCloudy
        case 803, 804: .cloudy
        default: .unknown
        }
    }

    /// Whether `time` is night: in a polar night, or before `sunrise` or from `sunset` on (RFC 3339 times, as
    /// the answers give them); not night when either is unknown.
    static func isNight(_ time: Timestamp, polar: JSONValue?, sunrise: JSONValue?, sunset: JSONValue?) -> Bool {
        if polar?.stringValue == "night" { return true }
        guard let sunrise = Timestamp(rfc3339: sunrise?.stringValue ?? ""),
            let sunset = Timestamp(rfc3339: sunset?.stringValue ?? "")
        else { return false }
        return time.milliseconds < sunrise.milliseconds || time.milliseconds >= sunset.milliseconds
    }

    /// wttr.in's arrows: where the wind blows to (a north wind, from 0°, points down).
    static func windArrow(_ degrees: Double) -> String {
        let arrows = ["↓", "↙", "←", "↖", "↑", "↗", "→", "↘"]
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return arrows[Int((normalized + 22.5) / 45) % 8]
    }

    /// The moon's emoji for a phase from 0 (new) through 0.5 (full) to 1 (new again).
    static func moon(_ phase: Double) -> String {
        let moons = ["🌑", "🌒", "🌓", "🌔", "🌕", "🌖", "🌗", "🌘"]
        return moons[Int((phase * 8).rounded()) % 8]
    }
}
