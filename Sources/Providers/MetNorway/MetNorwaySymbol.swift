import WeatherDomain

/// MET Norway's weather symbols (`symbol_code`, e.g. `lightrainshowers_day`) read as the nearest WMO weather code.
///
/// A code is a base name and, for the symbols whose icon shows the Sun or the Moon, a suffix: `_day`, `_night` or
/// `_polartwilight`. The base names are those MET Norway's weather icon list documents (api.met.no, "Weather
/// icons"), including its two misspelt ones (`lightssleetshowersandthunder`, `lightssnowshowersandthunder`), which
/// it sends as written. The table:
///
/// | MET Norway | WMO |
/// |---|---|
/// | `clearsky` | 0 clear sky |
/// | `fair` | 1 mainly clear |
/// | `partlycloudy` | 2 partly cloudy |
/// | `cloudy` | 3 overcast |
/// | `fog` | 45 fog |
/// | `lightrain`, `rain`, `heavyrain` | 61, 63, 65 rain |
/// | `lightrainshowers`, `rainshowers`, `heavyrainshowers` | 80, 81, 82 rain showers |
/// | `lightsleet`; `sleet`, `heavysleet` | 68; 69 rain and snow (WMO 4677) |
/// | `lightsleetshowers`; `sleetshowers`, `heavysleetshowers` | 83; 84 rain and snow showers (WMO 4677) |
/// | `lightsnow`, `snow`, `heavysnow` | 71, 73, 75 snow fall |
/// | `lightsnowshowers`; `snowshowers`, `heavysnowshowers` | 85; 86 snow showers |
/// | every symbol with `thunder` | 95 thunderstorm (MET Norway's symbols never say hail, which 96 and 99 are) |
///
/// WMO's showers have two strengths for snow and sleet (slight; moderate or heavy), so MET Norway's normal and
/// heavy showers of those share one code. An unknown symbol is `unknown`: WMO -1, which weatherd reads as not
/// reported, with the symbol kept in its text.
package enum MetNorwaySymbol {
    /// The WMO codes of MET Norway's base names (the symbol code without its `_day`, `_night` or
    /// `_polartwilight`).
    package static let wmoCodes: [String: Int64] = [
        "clearsky": 0, "fair": 1, "partlycloudy": 2, "cloudy": 3, "fog": 45,
        "lightrain": 61, "rain": 63, "heavyrain": 65,
        "lightrainshowers": 80, "rainshowers": 81, "heavyrainshowers": 82,
        "lightsleet": 68, "sleet": 69, "heavysleet": 69,
        "lightsleetshowers": 83, "sleetshowers": 84, "heavysleetshowers": 84,
        "lightsnow": 71, "snow": 73, "heavysnow": 75,
        "lightsnowshowers": 85, "snowshowers": 86, "heavysnowshowers": 86,
        "lightrainandthunder": 95, "rainandthunder": 95, "heavyrainandthunder": 95,
        "lightrainshowersandthunder": 95, "rainshowersandthunder": 95, "heavyrainshowersandthunder": 95,
        "lightsleetandthunder": 95, "sleetandthunder": 95, "heavysleetandthunder": 95,
        "lightssleetshowersandthunder": 95, "sleetshowersandthunder": 95, "heavysleetshowersandthunder": 95,
        "lightsnowandthunder": 95, "snowandthunder": 95, "heavysnowandthunder": 95,
        "lightssnowshowersandthunder": 95, "snowshowersandthunder": 95, "heavysnowshowersandthunder": 95,
    ]

    /// The symbol's base name and whether its icon is the day's (`_day`: true, `_night` and `_polartwilight`:
    /// false, since the Sun is below the horizon in both; no suffix: nil).
    package static func split(_ symbol: String) -> (base: String, isDay: Bool?) {
        for (suffix, isDay) in [("_day", true), ("_night", false), ("_polartwilight", false)]
        where symbol.hasSuffix(suffix) {
            return (String(symbol.dropLast(suffix.count)), isDay)
        }
        return (symbol, nil)
    }

    /// The condition of `symbol`: its WMO code with the WMO text, or WMO -1 naming the symbol when it is unknown.
    package static func condition(_ symbol: String) -> Condition {
        guard let code = wmoCodes[split(symbol).base] else {
            return Condition(scheme: "wmo", code: -1, text: "not reported (MET Norway symbol \(symbol))")
        }
        return .wmo(code)
    }
}
