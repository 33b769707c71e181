import WeatherDomain

/// A day's high against its 1991–2020 normal, from a `weather/forecast` day that carries a `normal` (it does
/// once the place's climate is cached): for `now`'s `%A`, `forecast`'s column and nothing that fetches.
enum Anomaly {
    /// The day's `max` less its `normal.high`, in the answer's unit (a difference: °F ones are 1.8 times the
    /// °C ones); nil when the day lacks either.
    static func high(_ day: JSONValue?) -> Double? {
        guard let high = day?["max"]?.doubleValue, let normal = day?["normal"]?["high"]?.doubleValue else {
            return nil
        }
        return high - normal
    }

    /// `+6 °C`, `-2 °F`, `±0 K`: whole degrees.
    static func text(_ difference: Double, unit: String) -> String {
        "\(signed(difference)) \(unit)"
    }

    /// `+3°`, `-1°`, `±0°` (`+3 K` in kelvin): whole degrees, for a column.
    static func short(_ difference: Double, unit: String) -> String {
        unit.hasPrefix("°") ? signed(difference) + "°" : "\(signed(difference)) \(unit)"
    }

    /// The whole number with its sign: `+3`, `-1`, `±0`.
    static func signed(_ difference: Double) -> String {
        let whole = Int(difference.rounded())
        return whole > 0 ? "+\(whole)" : whole < 0 ? "\(whole)" : "±0"
    }
}
