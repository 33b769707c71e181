/// The unit of each quantity an answer gives: a system's units, with the user's overrides applied.
package struct UnitChoice: Sendable, Equatable {
    /// The system the units not overridden come from.
    package var system: Units
    package var temperature: TemperatureUnit
    package var windSpeed: SpeedUnit
    package var pressure: PressureUnit
    package var precipitation: PrecipitationUnit
    package var visibility: VisibilityUnit

    /// The units of `system`, with `overrides` in place of its own.
    package init(system: Units, overrides: UnitOverrides = UnitOverrides()) {
        self.system = system
        switch system {
        case .metric:
            (temperature, windSpeed, pressure, precipitation, visibility) = (
                .celsius, .metresPerSecond, .hectopascals, .millimetres, .kilometres
            )
        case .imperial:
            (temperature, windSpeed, pressure, precipitation, visibility) = (
                .fahrenheit, .milesPerHour, .inchesOfMercury, .inches, .miles
            )
        case .standard:
            (temperature, windSpeed, pressure, precipitation, visibility) = (
                .kelvin, .metresPerSecond, .hectopascals, .millimetres, .kilometres
            )
        }
        if let unit = overrides.temperature { temperature = unit }
        if let unit = overrides.windSpeed { windSpeed = unit }
        if let unit = overrides.pressure { pressure = unit }
        if let unit = overrides.precipitation { precipitation = unit }
        if let unit = overrides.visibility { visibility = unit }
    }

    /// The unit name of a quantity, as answers give it (`°F`, `km/h`, `inHg`).
    package func name(of quantity: Quantity) -> String {
        switch quantity {
        case .temperature: temperature.rawValue
        case .windSpeed: windSpeed.rawValue
        case .pressure: pressure.rawValue
        case .precipitation: precipitation.rawValue
        case .visibility: visibility.rawValue
        }
    }

    /// The `units` object of an answer: the system, and the unit of each quantity under its member name,
    /// so a client needs no table. Gusts are in `windSpeed`'s unit, feels-like and dew point in
    /// `temperature`'s.
    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "system": .string(system.rawValue), "humidity": "%", "pop": "0..1", "cloudCover": "%",
        ]
        for quantity in Quantity.allCases { object[quantity.rawValue] = .string(name(of: quantity)) }
        return .object(object)
    }
}

/// The quantities whose unit the user chose apart from the system; nil keeps the system's unit.
package struct UnitOverrides: Sendable, Equatable {
    package var temperature: TemperatureUnit?
    package var windSpeed: SpeedUnit?
    package var pressure: PressureUnit?
    package var precipitation: PrecipitationUnit?
    package var visibility: VisibilityUnit?

    package init(
        temperature: TemperatureUnit? = nil, windSpeed: SpeedUnit? = nil, pressure: PressureUnit? = nil,
        precipitation: PrecipitationUnit? = nil, visibility: VisibilityUnit? = nil
    ) {
        self.temperature = temperature
        self.windSpeed = windSpeed
        self.pressure = pressure
        self.precipitation = precipitation
        self.visibility = visibility
    }

    /// The overridden unit of `quantity`'s name, or nil.
    package func name(of quantity: Quantity) -> String? {
        switch quantity {
        case .temperature: temperature?.rawValue
        case .windSpeed: windSpeed?.rawValue
        case .pressure: pressure?.rawValue
        case .precipitation: precipitation?.rawValue
        case .visibility: visibility?.rawValue
        }
    }

    /// Clears the override of `quantity`.
    package mutating func clear(_ quantity: Quantity) {
        switch quantity {
        case .temperature: temperature = nil
        case .windSpeed: windSpeed = nil
        case .pressure: pressure = nil
        case .precipitation: precipitation = nil
        case .visibility: visibility = nil
        }
    }

    /// Adds the overrides present as members named after their quantity (absent ones are left out).
    package func write(into object: inout [String: JSONValue]) {
        for quantity in Quantity.allCases {
            if let name = name(of: quantity) { object[quantity.rawValue] = .string(name) }
        }
    }

    /// Reads the overrides from members named after their quantity; absent or null is no override.
    ///
    /// - Throws: `FieldError` naming a member whose value is not one of its quantity's units, and listing them.
    package init(_ reader: FieldReader) throws(FieldError) {
        self.init(
            temperature: try reader.choice("temperature", as: TemperatureUnit.self),
            windSpeed: try reader.choice("windSpeed", as: SpeedUnit.self),
            pressure: try reader.choice("pressure", as: PressureUnit.self),
            precipitation: try reader.choice("precipitation", as: PrecipitationUnit.self),
            visibility: try reader.choice("visibility", as: VisibilityUnit.self))
    }
}
