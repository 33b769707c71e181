/// How a client may dress a weather answer: one of six moods.
package enum Theme: String, Sendable, Equatable, CaseIterable {
    case sunny, cloudy, rainy, snowy, stormy, foggy
}

/// A weather condition as the provider coded it, with weatherd's reading of it.
package struct Condition: Sendable, Equatable {
    /// The code system: `wmo` (Open-Meteo, and MET Norway's symbols read as WMO codes) or `owm` (OpenWeatherMap
    /// condition ids).
    package var scheme: String
    /// The provider's code.
    package var code: Int64
    /// A short English description, e.g. `light rain`.
    package var text: String

    package init(scheme: String, code: Int64, text: String) {
        self.scheme = scheme
        self.code = code
        self.text = text
    }

    /// A WMO weather interpretation code (Open-Meteo's `weather_code`), with its standard description.
    package static func wmo(_ code: Int64) -> Condition {
        Condition(scheme: "wmo", code: code, text: WMOCode.text(code))
    }

    /// The client-facing theme; unknown codes are `cloudy`.
    package var theme: Theme {
        scheme == "owm" ? OWMCode.theme(code) : WMOCode.theme(code)
    }

    /// Whether the condition is severe weather.
    package var isSevere: Bool {
        scheme == "owm" ? OWMCode.isSevere(code) : WMOCode.isSevere(code)
    }

    package var json: JSONValue {
        .object(["scheme": .string(scheme), "code": .int(code), "text": .string(text)])
    }

    package init(json: JSONValue, path: String) throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init(scheme: try reader.string("scheme"), code: try reader.int("code"), text: try reader.string("text"))
    }
}

/// WMO weather interpretation codes (WW), as Open-Meteo documents them, and the four of WMO 4677 for rain and
/// snow mixed (68, 69, 83, 84).
package enum WMOCode {
    package static func text(_ code: Int64) -> String {
        switch code {
        case 0: "clear sky"
        case 1: "mainly clear"
        case 2: "partly cloudy"
        case 3: "overcast"
        case 45: "fog"
        case 48: "depositing rime fog"
        case 51: "light drizzle"
        case 53: "moderate drizzle"
        case 55: "dense drizzle"
        case 56: "light freezing drizzle"
        case 57: "dense freezing drizzle"
        case 61: "slight rain"
        case 63: "moderate rain"
        case 65: "heavy rain"
        case 66: "light freezing rain"
        case 67: "heavy freezing rain"
        // 68, 69, 83 and 84 are WMO 4677's rain and snow mixed (sleet), which Open-Meteo never sends; MET Norway's
        // sleet symbols read as them.
        case 68: "slight rain and snow"
        case 69: "rain and snow"
        case 71: "slight snow fall"
        case 73: "moderate snow fall"
        case 75: "heavy snow fall"
        case 77: "snow grains"
        case 80: "slight rain showers"
        case 81: "moderate rain showers"
        case 82: "violent rain showers"
        case 83: "slight rain and snow showers"
        case 84: "rain and snow showers"
        case 85: "slight snow showers"
        case 86: "heavy snow showers"
        case 95: "thunderstorm"
        case 96: "thunderstorm with slight hail"
        case 99: "thunderstorm with heavy hail"
        default: "unknown (WMO \(code))"
        }
    }

    package static func theme(_ code: Int64) -> Theme {
        switch code {
        case 0, 1: .sunny
        case 2, 3: .cloudy
        case 45, 48: .foggy
        case 51...67, 80...82: .rainy
        case 68, 69, 71...77, 83...86: .snowy
        case 95...99: .stormy
        default: .cloudy
        }
    }

    /// Heavy rain, freezing rain, heavy snow, violent showers, thunderstorms.
    package static func isSevere(_ code: Int64) -> Bool {
        [65, 67, 75, 82, 86].contains(code) || (95...99).contains(code)
    }
}

/// OpenWeatherMap condition ids.
package enum OWMCode {
    package static func theme(_ code: Int64) -> Theme {
        switch code {
        case 200..<300: .stormy
        case 300..<600: .rainy
        case 600..<700: .snowy
        case 700..<800: code == 781 || code == 771 ? .stormy : .foggy
        case 800: .sunny
        case 801..<900: .cloudy
        default: .cloudy
        }
    }

    /// Thunderstorms, heavy rain, freezing rain, heavy snow, squalls, tornado.
    package static func isSevere(_ code: Int64) -> Bool {
        (200..<300).contains(code) || [502, 503, 504, 511, 522, 602, 622, 771, 781].contains(code)
    }
}
