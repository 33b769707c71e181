import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd units [SYSTEM] [--wind U] …`: the units every answer gives, shown or chosen.
enum UnitsCommand {
    /// Each quantity's flag, its settings member, what it is called, and the units it takes.
    static let quantities: [(flag: String, member: String, label: String, units: [String])] = [
        ("--temperature", "temperature", "temperature", ["°C", "°F", "K"]),
        ("--wind", "windSpeed", "wind speed", ["m/s", "km/h", "mph", "kn", "Bft"]),
        ("--pressure", "pressure", "pressure", ["hPa", "inHg", "mmHg"]),
        ("--precipitation", "precipitation", "precipitation", ["mm", "in"]),
        ("--visibility", "visibility", "visibility", ["km", "mi"]),
    ]

    /// Each quantity's option, `--wind km/h`: checked by `changes`, which takes the `aliases` too.
    static let quantityOptions = quantities.map { quantity in
        CommandOption(
            quantity.flag,
            value: OptionValue(
                placeholder: quantity.units.joined(separator: "|"), completion: .choices(quantity.units + ["default"]),
                read: { $0 }, write: { $0 }), help: "the \(quantity.label)'s unit, or default: the system's")
    }

    /// What a person may type for a unit that has a sign in it.
    static let aliases = ["C": "°C", "F": "°F", "kmh": "km/h", "ms": "m/s", "bft": "Bft", "knots": "kn"]

    static let command = Command(
        name: "units", summary: "show or choose the units: a system, or a unit per quantity",
        details: """
            Without arguments, prints the unit every answer gives each quantity in, and which ones are chosen
            on their own. A system (metric, imperial, or standard: kelvin) sets them all but the quantities
            chosen on their own; a quantity's flag chooses its unit (C, F, kmh and ms are taken for °C, °F,
            km/h and m/s), and `default` returns it to the system's. The units are the data dir's: every client
            sees them.

            example:
              weatherd units metric --wind km/h
              weatherd units --pressure default
              weatherd units
            """,
        forms: [ArgumentForm([Argument.choice("system", ["metric", "imperial", "standard"]).orNone])],
        options: quantityOptions.map(\.option), check: { invocation in _ = try changes(invocation) }
    ) { context in
        let changes = try changes(context.invocation)
        let settings =
            changes.isEmpty
            ? try await context.call("settings/get") : try await context.call("settings/set", changes)
        if context.printedAsJSON(settings) { return CLI.Exit.ok }
        var rows = [["system", settings["units"]?.stringValue ?? "?"]]
        for quantity in quantities {
            let chosen = settings[quantity.member]?.stringValue != nil ? "(chosen)" : ""
            rows.append([quantity.label, settings["resolved"]?[quantity.member]?.stringValue ?? "?", chosen])
        }
        context.output.print(Text.table(rows))
        return CLI.Exit.ok
    }

    /// The `settings/set` params the arguments ask for; none to just show them.
    ///
    /// - Throws: a `UsageError` naming a system or unit that is not one.
    static func changes(_ invocation: Invocation) throws -> [String: JSONValue] {
        var params: [String: JSONValue] = [:]
        if let system = invocation.positional.first {
            guard ["metric", "imperial", "standard"].contains(system) else {
                throw UsageError("unknown system \(system): metric, imperial or standard")
            }
            params["units"] = .string(system)
        }
        for (quantity, option) in zip(quantities, quantityOptions) {
            guard let text = invocation[option] else { continue }
            if text == "default" {
                params[quantity.member] = .null
                continue
            }
            let unit = aliases[text] ?? text
            guard quantity.units.contains(unit) else {
                throw UsageError(
                    "\(quantity.flag) takes \(quantity.units.joined(separator: ", ")) or default, not \(text)")
            }
            params[quantity.member] = .string(unit)
        }
        return params
    }
}
