/// One command-line option, declared once (swift-argument-parser's shape, as a value): its flags, the
/// environment variables it is also read from, its value's parser, its default, its help line, how a shell
/// completes it, and whether a running daemon holds it.
///
/// Parsing, every `--help`, the shell completions, "did you mean" for a mistyped flag and the check of a
/// client's settings against a running daemon's are all generated from these declarations, so an option
/// declared once is in every one of them. `Root` is what the option sets: weatherd's `Configuration`, or a
/// command's `OptionValues`.
package struct Option<Root>: Sendable {
    /// The flags that give it, its name first (`--contact`, then the older `--nws-contact`); none for an
    /// option read from the environment only (`OWM_API_KEY`: a flag would show the key in `ps`).
    package let flags: [String]
    /// The environment variables it is read from, before any flag; where several are set, the last wins.
    package let environment: [String]
    /// The value's name in usage and help (`SECONDS`, `URL`, `always|batch|never`); nil for a switch.
    package let placeholder: String?
    /// One line for `--help`.
    package let help: String
    /// The default as help shows it; nil when there is none to show.
    package let defaultText: String?
    package let completion: ShellCompletion
    package let holding: Holding
    /// The unit its value is shown in when a client's is compared with a daemon's (`s`), if any.
    package let unit: String?
    /// Reads the value's text (`""` for a switch) into the root.
    let set: @Sendable (inout Root, String) throws(OptionRefusal) -> Void
    /// The root's value as the option writes it (`600`, a URL, `forever`); nil when it has none.
    let write: @Sendable (Root) -> String?

    /// The flag it is known by, or its environment variable when it has no flag.
    package var name: String { flags.first ?? environment.first ?? "" }

    /// Whether it takes a value (`--cache-ttl 60`) rather than being a switch (`--json`).
    package var takesValue: Bool { placeholder != nil }

    /// The root's value as the option writes it; nil when it has none.
    package func written(_ root: Root) -> String? { write(root) }

    /// The root's value as a person reads it beside another: with its unit (`600 s`), `none` when unset.
    package func shown(_ written: String?) -> String {
        guard let written else { return "none" }
        return unit.map { "\(written) \($0)" } ?? written
    }

    /// Reads `text`, given as `given` (a flag or an environment variable), into `root`.
    ///
    /// - Throws: `OptionError` naming `given` and saying what the value must be.
    package func read(_ text: String, as given: String, into root: inout Root) throws(OptionError) {
        do {
            try set(&root, text)
        } catch {
            throw OptionError("\(given) \(error.problem)")
        }
    }

    package init<Value>(
        flags: [String], environment: [String] = [], value: OptionValue<Value>, help: String,
        defaultText: String?, holding: Holding = .client, get: @escaping @Sendable (Root) -> Value,
        set: @escaping @Sendable (inout Root, Value) -> Void
    ) {
        self.flags = flags
        self.environment = environment
        self.placeholder = value.placeholder
        self.help = help
        self.defaultText = defaultText
        self.completion = value.completion
        self.holding = holding
        self.unit = value.unit
        let read = value.read
        self.set = { root, text throws(OptionRefusal) in set(&root, try read(text)) }
        let write = value.write
        self.write = { write(get($0)) }
    }
}

extension Option {
    /// The option, with its value at `keyPath` and its default read from `defaults`.
    ///
    /// - Parameter defaultText: the default as help shows it, when the value's own text would not say it.
    package init<Value>(
        _ flags: String..., environment: [String] = [], at keyPath: any WritableKeyPath<Root, Value> & Sendable,
        _ value: OptionValue<Value>, help: String, defaults: Root, defaultText: String? = nil,
        holding: Holding = .client
    ) {
        self.init(
            flags: flags, environment: environment, value: value, help: help,
            defaultText: defaultText ?? value.write(defaults[keyPath: keyPath]), holding: holding,
            get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 })
    }
}

/// How a shell completes an option's value or a positional argument.
package enum ShellCompletion: Sendable, Equatable {
    /// Anything: the shell offers nothing.
    case none
    /// One of these words.
    case choices([String])
    /// A file's path.
    case file
    /// A folder's path.
    case directory
    /// A favorite's name, asked of the data dir's daemon at each completion (`weatherd favorites --names`).
    case favorites
}

/// Who holds an option's value once a daemon runs.
package enum Holding: Sendable, Equatable {
    /// The client: it picks the daemon (`--data-dir`, `--socket`), or it is a command's own.
    case client
    /// The daemon, which keeps the value it was started with: `service/status` shows it, and a client that
    /// gives another is told so.
    case daemon
    /// The daemon, and the value is a secret (`OWM_API_KEY`): shown and compared as a digest, never itself.
    case daemonSecret
}

/// What is wrong with an option's value, as the end of a sentence that begins with the option's name
/// ("must be a whole number from 1 to 10").
package struct OptionRefusal: Error, Sendable {
    package var problem: String

    package init(_ problem: String) { self.problem = problem }
}

/// A command line that is wrong: an unknown option, a value that is missing or wrong, an argument too many.
package struct OptionError: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
