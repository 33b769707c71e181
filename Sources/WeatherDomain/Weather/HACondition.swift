/// Home Assistant's weather condition names, which dashboards key their icons and cards on.
///
/// All fifteen of HA's `weather` entity conditions. weatherd maps the provider's code (WMO for
/// Open-Meteo, condition ids for OpenWeatherMap) to one of them, with two facts the code alone lacks:
/// whether it is day (a clear sky at night is `clear-night`) and the wind (a dry sky in a strong
/// wind is `windy`, or `windy-variant` with clouds).
package enum HACondition: String, Sendable, Equatable, CaseIterable {
    case clearNight = "clear-night"
    case cloudy
    case exceptional
    case fog
    case hail
    case lightning
    case lightningRainy = "lightning-rainy"
    case partlycloudy
    case pouring
    case rainy
    case snowy
    case snowyRainy = "snowy-rainy"
    case sunny
    case windy
    case windyVariant = "windy-variant"

    /// The mean wind, in m/s, from which a dry sky reads as windy: Beaufort 6, a strong breeze.
    package static let windyFrom = 10.8

    /// The name of `condition` by day or night, in a wind of `windSpeed` m/s when known; nil for a code
    /// weatherd does not know (Open-Meteo's "not reported" among them).
    package static func of(_ condition: Condition, isDay: Bool, windSpeed: Double? = nil) -> HACondition? {
        let base = condition.scheme == "owm" ? owm(condition.code) : wmo(condition.code)
        guard let base else { return nil }
        let sky = base == .sunny && !isDay ? .clearNight : base
        guard let windSpeed, windSpeed >= windyFrom else { return sky }
        switch sky {
        case .sunny, .clearNight: return .windy
        case .partlycloudy, .cloudy: return .windyVariant
        default: return sky
        }
    }

    /// WMO weather interpretation codes, by day.
    ///
    /// As Home Assistant's Open-Meteo integration maps them, except the thunderstorms, where the WMO
    /// table is more precise than its single `lightning`: 95 is a thunderstorm with rain or snow, 96 and
    /// 99 are thunderstorms with hail. Rain and snow mixed (68, 69, 83, 84, which only MET Norway's sleet gives) is
    /// `snowy-rainy`.
    static func wmo(_ code: Int64) -> HACondition? {
        switch code {
        case 0, 1: .sunny
        case 2: .partlycloudy
        case 3: .cloudy
        case 45, 48: .fog
        case 51, 53, 55, 56, 57, 61, 63, 66, 80, 81: .rainy
        case 65, 67, 82: .pouring
        case 71, 73, 75, 77, 85, 86: .snowy
        case 68, 69, 83, 84: .snowyRainy
        case 95: .lightningRainy
        case 96, 99: .hail
        default: nil
        }
    }

    /// OpenWeatherMap condition ids, by day.
    ///
    /// As Home Assistant's OpenWeatherMap integration maps them (haze, 721, is `fog` there too), except
    /// sleet (611–613), which is HA's `snowy-rainy` by its own definition, squalls (771), which are wind,
    /// and three ids HA leaves unnamed: shower drizzle (321) and ragged shower rain (531) are `rainy`, a
    /// tornado (781) is `exceptional`. HA's retired ids (900–962), which OpenWeatherMap no longer sends,
    /// have no name here. The differences are listed in the Units and weather fields article.
    static func owm(_ code: Int64) -> HACondition? {
        switch code {
        case 200...202, 230...232: .lightningRainy
        case 210...221: .lightning
        case 300...313, 321, 500, 501, 520, 521, 531: .rainy
        case 314, 502...504, 522: .pouring
        case 511, 611...616: .snowyRainy
        case 600...602, 620...622: .snowy
        case 701, 721, 741: .fog
        case 711, 731, 751, 761, 762, 781: .exceptional
        case 771: .windy
        case 800: .sunny
        case 801, 802: .partlycloudy
        case 803, 804: .cloudy
        default: nil
        }
    }
}
