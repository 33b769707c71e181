import WeatherDomain
import WeatherEngine

extension MCPTool {
    /// The settings tools, listed after the weather tools and before the official ones.
    static let settings: [MCPTool] = [
        MCPTool(
            name: "get_settings", title: "Unit settings",
            description: "The units weatherd answers in: the system (metric, imperial or standard), each quantity's "
                + "own unit or null (the system's), and resolved, the unit every answer gives each quantity in. The "
                + "first text block is a one-line summary.",
            properties: [:], output: settingsOutput, readOnly: true, openWorld: false),
        MCPTool(
            name: "set_units", title: "Set the units",
            description: "Sets the unit system and, apart from it, the unit of single quantities; every answer "
                + "that names no system of its own (weather, alerts, maps) then uses them. Give at least one "
                + "argument; a quantity given as null returns to the system's unit, one left out keeps its setting. "
                + "Answers the settings as get_settings does.",
            properties: setUnitsProperties, output: settingsOutput, readOnly: false, openWorld: false),
    ]

    private static let settingsOutput: JSONValue = [
        "type": "object", "required": ["units", "resolved"],
        "properties": ["units": ["type": "string"], "resolved": ["type": "object"]],
    ]

    private static let setUnitsProperties: [String: JSONValue] = {
        func units<Unit: RawRepresentable & CaseIterable>(_ type: Unit.Type, _ description: String) -> JSONValue
        where Unit.RawValue == String {
            [
                "type": ["string", "null"], "enum": .array(Unit.allCases.map { .string($0.rawValue) } + [.null]),
                "description": .string(description + "; null: the system's unit."),
            ]
        }
        return [
            "units": [
                "type": "string", "enum": .array(Units.allCases.map { .string($0.rawValue) }),
                "description": .string(
                    "The system: metric (°C, m/s, hPa, mm, km), imperial (°F, mph, inHg, in, mi) or standard "
                        + "(K, m/s, hPa, mm, km)."),
            ],
            "temperature": units(TemperatureUnit.self, "Temperatures (and feels-like, dew point)"),
            "windSpeed": units(SpeedUnit.self, "Wind speeds and gusts; Bft is the Beaufort force 0 to 12"),
            "pressure": units(PressureUnit.self, "Air pressure"),
            "precipitation": units(PrecipitationUnit.self, "Precipitation"),
            "visibility": units(VisibilityUnit.self, "Visibility"),
        ]
    }()

    /// One line for people: the system and the unit of each quantity, saying which are the user's own.
    static func settingsSummary(_ settings: JSONValue) -> String {
        let labels: [(Quantity, String)] = [
            (.temperature, "temperature"), (.windSpeed, "wind speed"), (.pressure, "pressure"),
            (.precipitation, "precipitation"), (.visibility, "visibility"),
        ]
        let units = labels.map { quantity, label in
            let unit = settings["resolved"]?[quantity.rawValue]?.stringValue ?? "?"
            let own = settings[quantity.rawValue]?.stringValue != nil ? " (own choice)" : ""
            return "\(label) in \(unit)\(own)"
        }
        let system = settings["units"]?.stringValue ?? "?"
        return "Units: \(system) system; " + units.joined(separator: ", ") + "."
    }
}

extension MCPController {
    /// Begins `get_settings` or `set_units` through the engine's settings API, as the native methods do; nil
    /// for another tool.
    func startSettingsTool(_ name: String, _ arguments: FieldReader, _ origin: Origin) async throws -> MCPToolRun? {
        let answer: Completion<SettingsChange>
        switch name {
        case "get_settings": answer = await engine.getSettings()
        case "set_units":
            answer = try await engine.changeSettings(try SettingsController.edit(arguments), origin: origin)
        default: return nil
        }
        return {
            let settings = try await answer().answer
            return MCPAnswer(MCPTool.settingsSummary(settings), settings)
        }
    }
}
