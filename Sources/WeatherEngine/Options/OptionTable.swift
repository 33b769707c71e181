/// The options over one root (weatherd's `Configuration`, a command's `OptionValues`): how they read the
/// environment and a scanned command line, and the lines `--help` shows for them.
package struct OptionTable<Root>: Sendable {
    package var options: [Option<Root>]

    package init(_ options: [Option<Root>]) { self.options = options }

    /// The option one of whose flags is `flag`, or whose name it is.
    package func option(named name: String) -> Option<Root>? {
        options.first { $0.name == name || $0.flags.contains(name) }
    }

    /// What a scan of the command line needs to know of each.
    package var shapes: [ScannedArguments.Shape] { options.map(ScannedArguments.Shape.init) }

    /// Reads every option's environment variables into `root` (an empty variable counts as unset).
    ///
    /// - Returns: the names of the options an environment variable set.
    /// - Throws: `OptionError` naming the variable whose value is wrong.
    package func readEnvironment(_ environment: [String: String], into root: inout Root) throws(OptionError)
        -> Set<String>
    {
        var set: Set<String> = []
        for option in options {
            for variable in option.environment {
                guard let text = environment[variable], !text.isEmpty else { continue }
                try option.read(text, as: variable, into: &root)
                set.insert(option.name)
            }
        }
        return set
    }

    /// Reads the options `given` on the command line that are this table's into `root`, in order (the last of
    /// an option given twice wins).
    ///
    /// - Returns: the names of the options given.
    /// - Throws: `OptionError` naming the flag whose value is wrong.
    package func read(_ given: [ScannedArguments.Given], into root: inout Root) throws(OptionError) -> Set<String> {
        var set: Set<String> = []
        for item in given {
            guard let option = option(named: item.name) else { continue }
            try option.read(item.value, as: item.arguments[0].prefix { $0 != "=" }.description, into: &root)
            set.insert(option.name)
        }
        return set
    }

    /// The help lines of every option, aligned: the flags and the value's name, then the help line and, in
    /// parentheses, the environment variables and the default, wrapped at `width` columns.
    package func helpLines(width: Int = 112) -> String {
        options.map { OptionHelp.line(for: $0, width: width) }.joined(separator: "\n")
    }
}

/// How `--help` writes one option.
package enum OptionHelp {
    /// The column the help text starts in.
    static let helpColumn = 26

    /// `  --cache-ttl SECONDS     serve cached current weather … (default 600)`, wrapped at `width`.
    package static func line<Root>(for option: Option<Root>, width: Int) -> String {
        var left = "  "
        if option.flags.isEmpty {
            left += option.environment.joined(separator: ", ") + (option.placeholder.map { "=\($0)" } ?? "")
        } else {
            left += option.flags.joined(separator: ", ") + (option.placeholder.map { " \($0)" } ?? "")
        }
        var text = option.help
        if let note = note(option) {
            // A help line that ends in parentheses takes the note into them.
            text = text.hasSuffix(")") ? "\(text.dropLast()); \(note))" : "\(text) (\(note))"
        }
        return wrap(left, text, width: width)
    }

    /// `$OWM_BASE_URL, else https://api.openweathermap.org`, `default 600`: where a value comes from when no
    /// flag gives it; nil for a switch or an option with neither.
    static func note<Root>(_ option: Option<Root>) -> String? {
        let variables = option.flags.isEmpty ? [] : option.environment.reversed().map { "$\($0)" }
        let fallback = option.takesValue ? option.defaultText : nil
        guard !variables.isEmpty else { return fallback.map { "default \($0)" } }
        return (variables + (fallback.map { [$0] } ?? [])).joined(separator: ", else ")
    }

    /// `left`, then `text` from the help column (or two spaces after a longer `left`), wrapped at word
    /// boundaries into lines of at most `width` columns that continue at the help column.
    package static func wrap(_ left: String, _ text: String, width: Int) -> String {
        var line = left + String(repeating: " ", count: max(2, helpColumn - left.count))
        var lines: [String] = []
        var lineHasWord = false
        for word in text.split(separator: " ") {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: helpColumn)
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
