/// The unit system answers are given in.
public enum Units: String, Sendable, Equatable, CaseIterable {
    /// °C, m/s, hPa.
    case metric
    /// °F, mph, hPa.
    case imperial
    /// K, m/s, hPa (the providers' "standard").
    case standard
}

/// The user's persisted settings.
public struct SettingsState: StateSlice {
    /// The default unit system for answers.
    public internal(set) var units: Units = .metric

    public init() {}

    public mutating func apply(_ event: DomainEvent) {
        if case .settingsChanged(let settings) = event { units = settings.units }
    }

    public var json: JSONValue { .object(["units": .string(units.rawValue)]) }
}

/// The payload of `settings.changed`: the whole settings after the change.
public struct SettingsChange: Sendable, Equatable {
    public var units: Units

    public init(units: Units) { self.units = units }

    public var json: JSONValue { .object(["units": .string(units.rawValue)]) }

    public init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        guard let units = try reader.choice("units", as: Units.self) else {
            throw FieldError(path: "data.units", problem: "is required")
        }
        self.init(units: units)
    }
}

/// Pure decisions about settings.
public enum SettingsDecisions {
    /// Changes the settings; no event when nothing changes.
    public static func set(_ state: SettingsState, units: Units?) -> [DomainEvent] {
        guard let units, units != state.units else { return [] }
        return [.settingsChanged(SettingsChange(units: units))]
    }
}
