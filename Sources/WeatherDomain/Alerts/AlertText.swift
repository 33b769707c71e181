/// The texts and figures of weatherd's own alerts in a reader's units.
///
/// An alert records its figures in °C (`details`) and its message as written when it was raised; a reader
/// gets both in their own units, the message written again from the figures, so an imperial reader never
/// reads °C. A temperature drop converts as a difference (a 20 °C drop is a 36 °F drop).
package enum AlertText {
    /// The message of `alert` in `units`: written from its figures for the temperature drops, the daily
    /// summary and a changed forecast, as it was raised for every other rule (no figures in a reader's units in them).
    package static func message(of alert: RaisedAlert, in units: UnitChoice) -> String {
        if alert.rule == .forecastChange {
            return ForecastChangeAlerts.message(
                details: alert.details, placeName: alert.place.name ?? alert.key, today: alert.localDate, in: units)
                ?? alert.message
        }
        return message(
            rule: alert.rule, details: alert.details, placeName: alert.place.name ?? alert.key, in: units)
            ?? alert.message
    }

    /// The message of a temperature drop or a daily summary with these `details` (°C), in `units`; nil for
    /// another rule, or figures missing.
    static func message(rule: AlertRule, details: JSONValue, placeName: String, in units: UnitChoice) -> String? {
        let unit = units.temperature
        let temperature = { (key: String) in details[key]?.doubleValue.map { number(unit.value(celsius: $0)) } }
        switch rule {
        case .tempDrop:
            if let drop = details["drop"]?.doubleValue, let now = temperature("temperature") {
                return "The temperature fell \(number(unit.difference(celsius: drop))) \(unit.rawValue), "
                    + "to \(now) \(unit.rawValue)."
            }
            guard let low = temperature("low"), let now = temperature("temperature") else { return nil }
            return "The temperature will fall to \(low) \(unit.rawValue) within 24 h (now \(now) \(unit.rawValue))."
        case .dailySummary:
            guard let low = temperature("low"), let high = temperature("high"),
                let condition = details["condition"]?["text"]?.stringValue
            else { return nil }
            return "\(placeName) today: \(condition), \(low) to \(high) \(unit.rawValue)."
        default:
            return nil
        }
    }

    /// The figures of `details` in `units`: temperatures (`temperature`, `previous`, `low`, `high`)
    /// converted, the `drop` and a temperature drop's `threshold` as differences, a nowcast's `peak` rate, two
    /// decimals as in answers; everything else as it is.
    package static func details(_ details: JSONValue, rule: AlertRule, in units: UnitChoice) -> JSONValue {
        if rule == .official, case .object(var object) = details,
            case .object(var warning) = object["warning"] ?? .null,
            let severity = warning["severity"]?.stringValue.flatMap(WarningSeverity.init(recorded:))
        {
            // Alerts raised before v3 recorded the severity in lower case: answers spell it as CAP does.
            warning["severity"] = .string(severity.cap)
            object["warning"] = .object(warning)
            return .object(object)
        }
        if rule == .nowcast, case .object(var object) = details, let peak = object["peak"]?.doubleValue {
            // The peak rate, mm/h, in the reader's precipitation unit per hour.
            object["peak"] = .double(Rounding.round(units.precipitation.value(millimetres: peak), decimals: 2))
            return .object(object)
        }
        guard rule == .tempDrop || rule == .dailySummary || rule == .forecastChange, case .object(var object) = details
        else { return details }
        let unit = units.temperature
        for key in ["temperature", "previous", "low", "high", "previousLow", "previousHigh"] {
            if let celsius = object[key]?.doubleValue {
                object[key] = .double(Rounding.round(unit.value(celsius: celsius), decimals: 2))
            }
        }
        for key in ["drop", "threshold"] {
            if let celsius = object[key]?.doubleValue {
                object[key] = .double(Rounding.round(unit.difference(celsius: celsius), decimals: 2))
            }
        }
        return .object(object)
    }

    /// A figure in a sentence: one decimal, without a needless `.0` (`-3.2`, `20`).
    static func number(_ value: Double) -> String {
        let rounded = Rounding.round(value, decimals: 1)
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded == 0 ? 0 : rounded)) }
        return String(rounded)
    }
}

extension RaisedAlert {
    /// The alert as answers and pushes give it to a reader of `units`: its message and figures in them, and
    /// `units` naming the unit of each quantity.
    package func json(in units: UnitChoice) -> JSONValue {
        guard case .object(var object) = json else { return json }
        object["message"] = .string(AlertText.message(of: self, in: units))
        object["details"] = AlertText.details(details, rule: rule, in: units)
        object["units"] = units.json
        return .object(object)
    }
}
