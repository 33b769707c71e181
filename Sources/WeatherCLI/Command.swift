import WeatherEngine

/// A command line that is wrong.
struct UsageError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// One of weatherd's commands, declared once: its name, its positional arguments (`forms`) and its own
/// options, from which its parsing, usage, `--help`, completions and "did you mean" are generated.
package struct Command: Sendable {
    /// The word after `weatherd`.
    package var name: String
    /// One line for `weatherd --help`.
    package var summary: String
    /// The rest of `--help`: what it does, an example.
    package var details: String
    /// The ways of calling it: its positional arguments, one form per action (`favorites add PLACE`,
    /// `favorites remove FAVORITE`); a single form without arguments by default.
    package var forms: [ArgumentForm] = [ArgumentForm()]
    /// Its own options, besides those every command takes (`CLI.commonOptions`) and weatherd's.
    package var options: [Option<OptionValues>] = []
    /// Further checks of the arguments (options that go together), throwing a `UsageError`.
    var check: @Sendable (Invocation) throws -> Void = { _ in }
    /// Runs the command without a connection to weatherd (`stop`, `completions`, `restore`, `events --nats`) and
    /// returns its exit status, or nil when this invocation runs connected after all; nil: `run` runs, connected.
    var local: (@Sendable (LocalContext) async -> Int32?)? = nil
    /// Runs the command; returns the exit status.
    var run: @Sendable (Context) async throws -> Int32

    /// Every option it takes of its own and in common with the others: its option table.
    package var table: OptionTable<OptionValues> { OptionTable(options + CLI.commonOptions) }

    /// Its usage line(s), e.g. `usage: weatherd now [PLACE] [--format FORMAT] [options]`: one per form, each
    /// with the flags that go with it (with a single form, every option of the command's own).
    package var usage: String {
        let lines = forms.map { form in
            let flags = forms.count == 1 ? options.map(\.name) : form.flags
            let words =
                ["weatherd", name] + form.arguments.map(\.usage)
                + flags.compactMap { flag in
                    table.option(named: flag).map { "[\($0.name)\($0.placeholder.map { " \($0)" } ?? "")]" }
                } + ["[options]"]
            return Self.wrapped(words, indent: "weatherd \(name) ".count)
        }
        return "usage: " + lines.joined(separator: "\n       ")
    }

    /// The whole `--help` text: the usage, what it does and an example, then its options.
    package var help: String {
        """
        \(usage)

        \(details)

        options:
        \(table.helpLines())
          weatherd's options (--data-dir, --socket, the providers' URLs…): weatherd --help lists them
        """
    }

    /// `words` joined by spaces into lines that fit 112 columns after the 7 of `usage: `, the later ones
    /// indented by `indent` more.
    private static func wrapped(_ words: [String], indent: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.contains(where: { $0 != " " }), line.count + 1 + word.count > 105 {
                lines.append(line)
                line = String(repeating: " ", count: indent)
            }
            line += (line.last.map { $0 == " " } ?? true ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n       ")
    }
}

/// A command's arguments, sorted: positional ones, its own options' values, and weatherd's options (passed
/// on to the configuration and a daemon it starts).
package struct Invocation: Sendable {
    package var positional: [String] = []
    /// The values of the command's own options and the common ones; read them as `invocation[option]`.
    package var values = OptionValues()
    /// weatherd's own options as written, for the configuration and a daemon started.
    package var serverOptions: [String] = []
    package var output: Output

    /// Sorts `arguments` for `command`: its own options and the common ones into `values`, weatherd's into
    /// `serverOptions`, the rest positional (`--` ends the options).
    ///
    /// - Throws: `OptionError` for an option that is unknown (with the closest one), lacks its value or has a
    ///   wrong one.
    static func parse(_ arguments: [String], for command: Command, output: Output) throws(OptionError) -> Invocation {
        let own = command.table
        let scanned = try ScannedArguments(arguments, options: own.shapes + Configuration.table.shapes)
        var invocation = Invocation(positional: scanned.positional, output: output)
        _ = try own.read(scanned.given, into: &invocation.values)
        for given in scanned.given where own.option(named: given.name) == nil {
            invocation.serverOptions += given.arguments
        }
        return invocation
    }
}
