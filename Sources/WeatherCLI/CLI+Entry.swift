import WeatherEngine

extension CLI {
    /// What `weatherd` was asked to do, by its command line.
    package enum Entry: Sendable, Equatable {
        /// How a process that serves JSON-RPC serves it.
        package enum Mode: Sendable, Equatable {
            /// Through the data dir's shared daemon (the default).
            case relay
            /// As the daemon (`weatherd serve`).
            case serve
            /// Alone, in this process (`--standalone`).
            case standalone
        }

        /// `weatherd log …`: the offline log tools, with their arguments.
        case log([String])
        /// A command for people, by name, with its arguments.
        case command(String, [String])
        /// Text for standard output, then exit 0 (help, the version).
        case print(String)
        /// JSON-RPC, in `mode`, with weatherd's options as written.
        case serve(Mode, options: [String])
        /// A wrong command line: the text for standard error, then exit 64.
        case wrong(String)
    }

    /// `--json`, which every command takes.
    package static let json = CommandOption("--json", help: "print the method's result as JSON, exactly")
    /// `--standalone`, which every command and `weatherd` itself take.
    package static let standalone = CommandOption(
        "--standalone", help: "run in this process alone, without the data dir's shared daemon")
    /// `--help` or `-h`.
    package static let help = CommandOption("--help", "-h", help: "this help")
    /// `weatherd --version`.
    static let version = CommandOption("--version", help: "weatherd's version")

    /// The options every command takes besides its own and weatherd's.
    static let commonOptions = [json.option, standalone.option, help.option]

    /// The options `weatherd` takes besides weatherd's own when it serves JSON-RPC.
    static let entryTable = OptionTable([standalone.option, help.option, version.option])

    /// What `arguments` (without the program's name) ask for: the log tools, a command, help, the version,
    /// or JSON-RPC served through the daemon, as the daemon, or alone; "did you mean" for a mistyped command
    /// or option.
    package static func entry(_ arguments: [String]) -> Entry {
        guard let first = arguments.first else { return .serve(.relay, options: []) }
        if first == "log" { return .log(Array(arguments.dropFirst())) }
        if command(named: first) != nil { return .command(first, Array(arguments.dropFirst())) }
        if first == "help" {
            if arguments.count > 1, let command = command(named: arguments[1]) { return .print(command.help) }
            return .print(arguments.count > 1 && arguments[1] == "log" ? LogTools.usage : overview)
        }
        var words = arguments
        var mode = Entry.Mode.relay
        if first == "serve" {
            words.removeFirst()
            mode = .serve
        } else if !first.hasPrefix("-") {
            return .wrong(unknownCommand(first))
        }
        let scanned: ScannedArguments
        var values = OptionValues()
        do throws(OptionError) {
            scanned = try ScannedArguments(words, options: entryTable.shapes + Configuration.table.shapes)
            _ = try entryTable.read(scanned.given, into: &values)
        } catch {
            if words.contains("--help") || words.contains("-h") { return .print(overview) }
            return .wrong("weatherd: \(TerminalText.safe(error.description))\n\n\(overview)")
        }
        if help.value(values) { return .print(overview) }
        if version.value(values) { return .print("weatherd \(Engine.version)") }
        if let extra = scanned.positional.first {
            return .wrong("weatherd: unexpected argument \(TerminalText.safe(extra))\n\n\(overview)")
        }
        if standalone.value(values), mode == .relay { mode = .standalone }
        let options = scanned.given.filter { entryTable.option(named: $0.name) == nil }.flatMap(\.arguments)
        return .serve(mode, options: options)
    }

    /// The one line for stderr when `weatherd` reads JSON-RPC from a terminal, where a person may have
    /// expected something else.
    package static let terminalHint =
        "weatherd: reading JSON-RPC requests, one per line, from standard input (Ctrl-D ends it); "
        + "`weatherd --help` lists the commands for people, such as `weatherd now PLACE`"
}
