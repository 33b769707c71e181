/// A command line sorted into its positional arguments and the options given, in order, for the options
/// declared: `--flag value` or `--flag=value`, switches alone, `--` ending the options, and an argument
/// that starts with a minus sign and a digit (`-33.87,151.21`) taken for a positional one.
package struct ScannedArguments: Sendable, Equatable {
    /// One option as given.
    package struct Given: Sendable, Equatable {
        /// The option's name (its first flag), whichever of its flags was written.
        package var name: String
        /// The value's text; `""` for a switch.
        package var value: String
        /// The arguments that gave it, as written (`["--cache-ttl", "60"]`, `["--cache-ttl=60"]`).
        package var arguments: [String]
    }

    package var positional: [String] = []
    package var given: [Given] = []

    /// What a scan needs to know of an option: its flags, and whether it takes a value.
    package struct Shape: Sendable {
        package var flags: [String]
        package var takesValue: Bool

        package init(flags: [String], takesValue: Bool) {
            self.flags = flags
            self.takesValue = takesValue
        }

        package init<Root>(_ option: Option<Root>) { self.init(flags: option.flags, takesValue: option.takesValue) }
    }

    /// Sorts `arguments` for the options of `shapes`.
    ///
    /// - Throws: `OptionError` for a flag no option has (with the closest one, when one is close), a value
    ///   missing at the end, or a value given to a switch.
    package init(_ arguments: [String], options shapes: [Shape]) throws(OptionError) {
        var byFlag: [String: Shape] = [:]
        for shape in shapes {
            for flag in shape.flags where byFlag[flag] == nil { byFlag[flag] = shape }
        }
        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || !Self.isOption(argument) {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var flag = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let shape = byFlag[flag] else {
                throw OptionError(Self.unknown(flag, among: shapes.flatMap(\.flags)))
            }
            let name = shape.flags[0]
            if !shape.takesValue {
                guard inline == nil else { throw OptionError("\(flag) takes no value") }
                given.append(Given(name: name, value: "", arguments: [argument]))
            } else if let inline {
                given.append(Given(name: name, value: inline, arguments: [argument]))
            } else {
                guard let value = rest.popFirst() else { throw OptionError("\(flag) needs a value") }
                given.append(Given(name: name, value: value, arguments: [argument, value]))
            }
        }
    }

    /// Whether `argument` is an option (or `--`): it starts with a minus sign, and is neither `-` alone nor a
    /// number (a place such as `-33.87,151.21` starts with a minus sign but is no flag).
    package static func isOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument != "-" else { return false }
        let second = argument.dropFirst().first
        return !(second?.isNumber == true || second == ".")
    }

    /// `unknown option --fromat; did you mean --format?`: the flag, and the closest of `flags` when one is
    /// close.
    static func unknown(_ flag: String, among flags: [String]) -> String {
        guard let suggestion = Suggestion.closest(to: flag, in: flags) else { return "unknown option \(flag)" }
        return "unknown option \(flag); did you mean \(suggestion)?"
    }
}
