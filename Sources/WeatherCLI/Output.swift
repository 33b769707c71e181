import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command prints: its lines (standard output) and its errors (standard error), and whether it may
/// colour them.
public final class Output: Sendable {
    private let write: @Sendable (_ text: String, _ toError: Bool) -> Void
    /// Whether standard output is a terminal.
    public let isTerminal: Bool
    /// Whether to colour: on a terminal, unless `NO_COLOR` is set (to anything but the empty string).
    public let colour: Bool

    public init(
        isTerminal: Bool, environment: [String: String], write: @escaping @Sendable (String, Bool) -> Void
    ) {
        self.isTerminal = isTerminal
        colour = isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
        self.write = write
    }

    /// Standard output and standard error of this process.
    public static func standard(environment: [String: String]) -> Output {
        Output(isTerminal: isatty(1) == 1, environment: environment) { text, toError in
            (toError ? FileHandle.standardError : FileHandle.standardOutput).write(Data(text.utf8))
        }
    }

    /// Prints `text` and a newline.
    public func print(_ text: String) { write(text + "\n", false) }

    /// Prints `text` and a newline on standard error.
    public func error(_ text: String) { write(text + "\n", true) }

    /// `text` in an ANSI style (e.g. `1` bold, `2` dim, `31` red) when colouring, else as it is.
    public func styled(_ text: String, _ style: String) -> String {
        colour ? "\u{1B}[\(style)m\(text)\u{1B}[0m" : text
    }
}
