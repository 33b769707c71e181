import Foundation

/// A shell example of the documentation: the commands of one ```` ```sh ```` block, what they read, and what the
/// documentation shows them print.
///
/// The forms a block takes:
/// - commands, one per line (a line ending in `\` goes on on the next); what they print, when the docs show it,
///   is the ```` ```text ```` block right after;
/// - a transcript: `$ command`, then the lines it prints;
/// - a session: one command, then the lines it reads (`→ …`) and those it answers (`← …`).
///
/// In what the docs show, `…` stands for any text, and times, ports and latencies are whatever the run gives.
struct DocExample: CustomStringConvertible {
    /// A step of a session.
    enum Step: Equatable {
        /// A line sent to the command (`→ …`).
        case send(String)
        /// An answer waited for (`← …`).
        case receive
        /// Something the docs say happens here (an indented line in parentheses), which the stage makes happen.
        case event(String)
    }

    /// The file, relative to the repository's root.
    var file: String
    /// The line of the block's opening fence.
    var line: Int
    var commands: [String] = []
    /// A session's steps in order: the lines it reads, the answers it waits for, what happens in between.
    var session: [Step] = []
    /// What the commands print, in order; nil when the docs do not show it.
    var expected: [String]?

    var description: String { "\(file):\(line)" }

    /// The documents whose shell examples the suite runs: the README and the articles.
    static let documents: [String] = {
        let catalog = "Sources/weatherd/weatherd.docc"
        let articles = (try? FileManager.default.contentsOfDirectory(atPath: path(catalog))) ?? []
        return ["README.md"] + articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
    }()

    /// The absolute path of `file`, a path relative to the repository's root.
    static func path(_ file: String) -> String { Repository.root.appendingPathComponent(file).path }

    /// Every shell example of `file`.
    static func examples(in file: String) throws -> [DocExample] {
        let lines = try String(contentsOfFile: path(file), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [DocExample] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```sh" else {
                index += 1
                continue
            }
            let body = block(lines, from: index + 1)
            var example = DocExample(file: file, line: index + 1)
            example.read(body)
            index += body.count + 2
            // A ```text block right after (blank lines between) is what the block prints.
            var next = index
            while next < lines.count, lines[next].trimmingCharacters(in: .whitespaces).isEmpty { next += 1 }
            if next < lines.count, lines[next].trimmingCharacters(in: .whitespaces) == "```text" {
                example.expected = block(lines, from: next + 1)
                index = next + (example.expected?.count ?? 0) + 2
            }
            examples.append(example)
        }
        return examples
    }

    /// The lines from `start` up to the closing fence.
    private static func block(_ lines: [String], from start: Int) -> [String] {
        Array(lines[start...].prefix { $0.trimmingCharacters(in: .whitespaces) != "```" })
    }

    /// Takes the block's lines apart into commands, input and what is shown printed.
    private mutating func read(_ body: [String]) {
        var pending = ""
        for raw in body {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if raw.hasPrefix("→ ") {
                session.append(.send(String(raw.dropFirst(2))))
            } else if raw.hasPrefix("← ") {
                session.append(.receive)
                expected = (expected ?? []) + [String(raw.dropFirst(2))]
            } else if !session.isEmpty, trimmed.hasPrefix("("), trimmed.hasSuffix(")") {
                session.append(.event(trimmed))
            } else if raw.hasPrefix("$ ") {
                commands.append(String(raw.dropFirst(2)))
                expected = expected ?? []
            } else if expected != nil, !raw.isEmpty {
                expected?.append(raw)
            } else if raw.hasSuffix("\\") {
                pending += raw.dropLast() + " "
            } else if !(pending + raw).trimmingCharacters(in: .whitespaces).isEmpty {
                commands.append(pending + raw)
                pending = ""
            }
        }
    }
}

extension DocExample {
    /// Why a command is not run by the suite, or nil when it is.
    static func skipReason(_ command: String) -> String? {
        let reasons: [(prefix: String, reason: String)] = [
            ("swift test", "the suite itself"),
            ("docc ", "the documentation build (the toolchain's docc, not weatherd)"),
            ("docker ", "needs Docker; docker-compose.yml is checked on its own"),
            ("logcli ", "needs the shipping stack's Loki"),
        ]
        if let match = reasons.first(where: { command.hasPrefix($0.prefix) || command.contains("| " + $0.prefix) }) {
            return match.reason
        }
        if command.contains("; cat)") { return "follows live events until stopped" }
        if command.hasPrefix("jq ") || command.contains("| jq "), !jqInstalled { return "jq is not installed here" }
        return nil
    }

    /// Whether `jq`, which some examples pipe into, is on the PATH.
    static let jqInstalled = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/jq") }

    /// `command` as the suite runs it: the release build the docs name is the build under test, and
    /// `weatherd-check-log` its built binary, given the repository's schemas (which it finds when run from the
    /// repository's root, as the docs say).
    static func runnable(_ command: String) -> String {
        var command = command
        for build in ["swift build -c release && ", "swift build && "] where command.hasPrefix(build) {
            command.removeFirst(build.count)
        }
        return command.replacingOccurrences(
            of: ".build/release/weatherd-check-log", with: "weatherd-check-log --schemas \(path("Events/schemas"))"
        )
        .replacingOccurrences(of: ".build/release/weatherd", with: "weatherd")
    }

    /// Whether `printed` is what `shown` shows: line for line, in any order (answers come as their requests
    /// finish), `…` standing for any text, and times, ports and latencies as the run gives them.
    static func matches(_ printed: [String], _ shown: [String]) -> Bool {
        guard printed.count == shown.count else { return false }
        var unused = shown.map(regex)
        for line in printed {
            guard let index = unused.firstIndex(where: { line.range(of: $0, options: .regularExpression) != nil })
            else { return false }
            unused.remove(at: index)
        }
        return true
    }

    /// `shown` as an anchored regular expression: the variable parts stand out as placeholders first, the
    /// rest is escaped, then each placeholder becomes its pattern.
    private static func regex(_ shown: String) -> String {
        let variable = [
            #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#, #"127\.0\.0\.1:\d+"#, #""latencyMs":\d+"#, "…",
        ]
        var text = shown
        for (index, pattern) in variable.enumerated() {
            text = text.replacingOccurrences(of: pattern, with: "\u{1}\(index)\u{1}", options: .regularExpression)
        }
        var pattern = NSRegularExpression.escapedPattern(for: text)
        for (index, general) in variable.enumerated() {
            pattern = pattern.replacingOccurrences(of: "\u{1}\(index)\u{1}", with: general == "…" ? ".*" : general)
        }
        return "^" + pattern + "$"
    }
}
