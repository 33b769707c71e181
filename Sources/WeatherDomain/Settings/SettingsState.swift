/// The user's persisted settings: the unit system, and the quantities given in another unit.
package struct SettingsState: StateSlice {
    /// The default unit system for answers.
    package internal(set) var units: Units = .metric
    /// The quantities the user wants in a unit other than the system's.
    package internal(set) var overrides = UnitOverrides()

    package init() {}

    package mutating func apply(_ event: DomainEvent) {
        if case .settingsChanged(let settings) = event {
            units = settings.units
            overrides = settings.overrides
        }
    }

    /// The unit of each quantity in answers that ask for no system of their own.
    package var unitChoice: UnitChoice { UnitChoice(system: units, overrides: overrides) }

    /// The canonical form (snapshots): `units`, and a member for each override only.
    package var json: JSONValue { SettingsChange(units: units, overrides: overrides).json }

    /// The settings whole, as `settings.changed` records them.
    package var settings: SettingsChange { SettingsChange(units: units, overrides: overrides) }
}

/// The payload of `settings.changed`: the whole settings after the change.
///
/// `units` is the system; `temperature`, `windSpeed`, `pressure`, `precipitation` and `visibility` are
/// present only for an overridden quantity (absent: the system's unit), so a payload written before the
/// overrides existed reads as the settings it was.
package struct SettingsChange: Sendable, Equatable {
    package var units: Units
    package var overrides: UnitOverrides

    package init(units: Units, overrides: UnitOverrides = UnitOverrides()) {
        self.units = units
        self.overrides = overrides
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = ["units": .string(units.rawValue)]
        overrides.write(into: &object)
        return .object(object)
    }

    /// The settings as `settings/get` and `settings/set` answer them: `units`, each quantity's override or
    /// null, and `resolved`, the unit of every quantity (an answer's `units` object).
    package var answer: JSONValue {
        var object: [String: JSONValue] = ["units": .string(units.rawValue)]
        for quantity in Quantity.allCases {
            object[quantity.rawValue] = overrides.name(of: quantity).map { .string($0) } ?? .null
        }
        object["resolved"] = UnitChoice(system: units, overrides: overrides).json
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        guard let units = try reader.choice("units", as: Units.self) else {
            throw FieldError(path: "data.units", problem: "is required")
        }
        self.init(units: units, overrides: try UnitOverrides(reader))
    }
}

/// A `settings/set`: the system to switch to, the overrides to set and the quantities to return to the
/// system's unit; each nil or empty when the request leaves it as it is.
package struct SettingsEdit: Sendable, Equatable {
    package var units: Units?
    package var overrides: UnitOverrides
    package var cleared: Set<Quantity>

    package init(units: Units? = nil, overrides: UnitOverrides = UnitOverrides(), cleared: Set<Quantity> = []) {
        self.units = units
        self.overrides = overrides
        self.cleared = cleared
    }

    /// Whether the edit names nothing to change.
    package var isEmpty: Bool { units == nil && overrides == UnitOverrides() && cleared.isEmpty }
}

/// Pure decisions about settings.
package enum SettingsDecisions {
    /// Changes the settings; no event when nothing changes. A new system keeps the overrides.
    package static func set(_ state: SettingsState, _ edit: SettingsEdit) -> [DomainEvent] {
        var overrides = state.overrides
        for quantity in edit.cleared { overrides.clear(quantity) }
        if let unit = edit.overrides.temperature { overrides.temperature = unit }
        if let unit = edit.overrides.windSpeed { overrides.windSpeed = unit }
        if let unit = edit.overrides.pressure { overrides.pressure = unit }
        if let unit = edit.overrides.precipitation { overrides.precipitation = unit }
        if let unit = edit.overrides.visibility { overrides.visibility = unit }
        let change = SettingsChange(units: edit.units ?? state.units, overrides: overrides)
        guard change != SettingsChange(units: state.units, overrides: state.overrides) else { return [] }
        return [.settingsChanged(change)]
    }

    /// Changes the system only.
    package static func set(_ state: SettingsState, units: Units?) -> [DomainEvent] {
        set(state, SettingsEdit(units: units))
    }
}
