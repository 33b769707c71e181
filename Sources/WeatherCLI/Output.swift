import Foundation
import Synchronization
import WeatherDomain
import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command prints: its lines (standard output) and its errors (standard error), and whether it may
/// colour them.
package final class Output: Sendable {
    /// Writes the text, returning false when it could not (standard output closed, say).
    private let write: @Sendable (_ text: String, _ toError: Bool) -> Bool
    private let failed = Mutex(false)
    /// Whether standard output is a terminal.
    package let isTerminal: Bool
    /// Whether to colour: on a terminal, unless `NO_COLOR` is set (to anything but the empty string).
    package let colour: Bool
    /// The descriptor whose reader a long-running command watches for leaving (standard output, when it is
    /// not a terminal; nil for an output that is not a descriptor).
    package let readerDescriptor: Int32?

    package init(
        isTerminal: Bool, environment: [String: String], readerDescriptor: Int32? = nil,
        write: @escaping @Sendable (String, Bool) -> Bool
    ) {
        self.isTerminal = isTerminal
        self.readerDescriptor = readerDescriptor
        colour = isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
        self.write = write
    }

    /// Standard output and standard error of this process.
    package static func standard(environment: [String: String]) -> Output {
        let isTerminal = isatty(1) == 1
        return Output(isTerminal: isTerminal, environment: environment, readerDescriptor: isTerminal ? nil : 1) {
            text, toError in
            Descriptor.writeAll(toError ? 2 : 1, Array(text.utf8)) == nil
        }
    }

    /// Whether a line could not be printed: whoever read standard output is gone (SIGPIPE is ignored, so
    /// that is an error, `EPIPE`).
    package var isClosed: Bool { failed.withLock { $0 } }

    /// Prints `text` and a newline.
    package func print(_ text: String) {
        if !write(text + "\n", false) { failed.withLock { $0 = true } }
    }

    /// Prints `text` and a newline on standard error, each of its lines terminal-safe (`TerminalText`): an
    /// error quotes what was typed or answered (a place, a flag, an upstream's message), and weatherd never
    /// styles standard error, so it is all made safe here.
    package func error(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        _ = write(lines.map { TerminalText.safe(String($0)) }.joined(separator: "\n") + "\n", true)
    }

    /// `text` in an ANSI style (e.g. `1` bold, `2` dim, `31` red) when colouring, else as it is.
    package func styled(_ text: String, _ style: String) -> String {
        colour ? "\u{1B}[\(style)m\(text)\u{1B}[0m" : text
    }

    /// ` (stale, 12 min old)`, in the warning colour, when `answer` is stale (`Staleness`, the rule of every
    /// face); empty when it is fresh.
    func staleMark(_ answer: JSONValue?, now: Timestamp) -> String {
        Staleness.mark(answer, now: now).map { " " + styled("(\($0))", "33") } ?? ""
    }

    /// `rows` as aligned lines (`Text.table`), the first, the heading, dimmed.
    func headedTable(_ rows: [[String]]) -> [String] {
        var lines = Text.table(rows).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if !lines.isEmpty { lines[0] = styled(lines[0], "2") }
        return lines
    }
}
