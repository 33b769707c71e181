import EventLog

/// weatherd's settings from flags and environment variables.
public struct Configuration: Sendable, Equatable {
    public var dataDirectory: String
    public var fsync: FsyncMode = .always
    public var maxLineBytes = 1 << 20
    public var logLevel: Logger.Level = .info
    public var commandWindow = 100_000

    /// The defaults, with the given data dir.
    public init(dataDirectory: String) { self.dataDirectory = dataDirectory }

    /// The usage text for `--help` and flag errors.
    public static let usage = """
        usage: weatherd [options]            serve JSON-RPC on stdin/stdout
               weatherd --help | --version

        options:
          --data-dir DIR          data directory (else $WEATHERD_DATA_DIR, $XDG_DATA_HOME/weatherd,
                                  ~/.local/share/weatherd)
          --fsync MODE            always (default) | batch | never
          --max-line-bytes N      longest accepted input line (default 1048576)
          --log-level LEVEL       debug | info (default) | warning | error; logs go to stderr
          --command-window N      how many commandIds are remembered (default 100000)
        """

    /// Parses the arguments (without the program name).
    ///
    /// - Throws: `ConfigurationError` naming the flag that is wrong.
    public static func parse(
        _ arguments: [String], environment: [String: String]
    ) throws(ConfigurationError) -> Configuration {
        var config = Configuration(dataDirectory: defaultDataDirectory(environment))
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var flag = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(ConfigurationError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw ConfigurationError("\(flag) needs a value") }
                return next
            }
            func number(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
                let text = try value()
                guard let number = Int(text), range.contains(number) else {
                    throw ConfigurationError(
                        "\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                return number
            }
            switch flag {
            case "--data-dir":
                let path = try value()
                guard !path.isEmpty else { throw ConfigurationError("--data-dir must not be empty") }
                config.dataDirectory = path
            case "--fsync":
                let text = try value()
                guard let mode = FsyncMode(rawValue: text) else {
                    throw ConfigurationError("--fsync must be always, batch or never")
                }
                config.fsync = mode
            case "--max-line-bytes": config.maxLineBytes = try number(1024...(1 << 30))
            case "--log-level":
                let text = try value()
                guard let level = Logger.Level(rawValue: text) else {
                    throw ConfigurationError("--log-level must be debug, info, warning or error")
                }
                config.logLevel = level
            case "--command-window": config.commandWindow = try number(1...10_000_000)
            default: throw ConfigurationError("unknown option \(argument)")
            }
        }
        return config
    }

    /// `$WEATHERD_DATA_DIR`, else `$XDG_DATA_HOME/weatherd`, else `~/.local/share/weatherd`.
    public static func defaultDataDirectory(_ environment: [String: String]) -> String {
        if let path = environment["WEATHERD_DATA_DIR"], !path.isEmpty { return path }
        if let path = environment["XDG_DATA_HOME"], !path.isEmpty { return path + "/weatherd" }
        return (environment["HOME"] ?? ".") + "/.local/share/weatherd"
    }
}

/// A flag that is wrong, with a message that names it.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
