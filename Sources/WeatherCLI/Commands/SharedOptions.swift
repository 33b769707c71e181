import WeatherEngine

/// Options several commands take, declared once.
enum SharedOptions {
    /// `--units`: the system an answer is given in, else the settings' units.
    static let units = CommandOption(
        "--units", value: .choice(["metric", "imperial", "standard"]),
        help: "the units of the answer: a system whole (else the settings' units)")

    /// `--format`: wttr.in's named formats or %-codes (`OneLine`), `standard` when not given.
    static func format(default standard: String) -> CommandOption<String> {
        CommandOption(
            "--format",
            value: OptionValue(
                placeholder: "FORMAT",
                read: { text throws(OptionRefusal) in
                    do {
                        _ = try OneLine(text)
                    } catch {
                        throw OptionRefusal("must be a named format (1, 2, 3, 4) or %-codes: \(error)")
                    }
                    return text
                }, write: { $0 }), default: standard, help: "wttr.in's named formats 1, 2, 3, 4, or %-codes")
    }
}
