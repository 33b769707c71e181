import WeatherEngine

/// The values of a command's own options, as its command line gave them; each is read through its
/// declaration (`invocation[Self.limit]`), typed, with its default when it was not given.
package struct OptionValues: Sendable {
    /// The values given, by option name.
    fileprivate var given: [String: any Sendable] = [:]
}

/// A command's own option, declared once with the type of its value: its flag, parser, default and help
/// line, from which the command's parsing, `--help`, completions and "did you mean" are generated
/// (swift-argument-parser's `@Option`, as a value).
package struct CommandOption<Value: Sendable>: Sendable {
    /// The declaration, as the command's option table holds it.
    package let option: Option<OptionValues>
    /// Its value in parsed values.
    let value: @Sendable (OptionValues) -> Value

    /// An option with a value, `defaultValue` when it is not given.
    init(_ flags: String..., value: OptionValue<Value>, default defaultValue: Value, help: String) {
        let name = flags[0]
        option = Option(
            flags: flags, value: value, help: help, defaultText: value.write(defaultValue),
            get: { $0.given[name] as? Value ?? defaultValue }, set: { $0.given[name] = $1 })
        self.value = { $0.given[name] as? Value ?? defaultValue }
    }

    /// An option with a value, nil when it is not given.
    init<Wrapped: Sendable>(_ flags: String..., value: OptionValue<Wrapped>, help: String) where Value == Wrapped? {
        let name = flags[0]
        option = Option(
            flags: flags, value: value.optional, help: help, defaultText: nil, get: { $0.given[name] as? Wrapped },
            set: { $0.given[name] = $1 })
        self.value = { $0.given[name] as? Wrapped }
    }
}

extension CommandOption where Value == Bool {
    /// A switch: true when given.
    init(_ flags: String..., help: String) {
        let name = flags[0]
        option = Option(
            flags: flags, value: .on, help: help, defaultText: nil, get: { $0.given[name] as? Bool ?? false },
            set: { $0.given[name] = $1 })
        value = { $0.given[name] as? Bool ?? false }
    }
}

extension Invocation {
    /// The value of one of the command's options (or of the options every command takes).
    package subscript<Value>(option: CommandOption<Value>) -> Value { option.value(values) }
}
