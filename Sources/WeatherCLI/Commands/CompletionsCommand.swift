import Foundation
import WeatherEngine

/// `weatherd completions bash|zsh|fish`: a completion script for the shell.
enum CompletionsCommand {
    static let command = Command(
        name: "completions", summary: "a completion script for bash, zsh or fish",
        details: """
            Prints a script that completes weatherd's commands, their flags and weatherd's options, and, where a
            command takes a PLACE, the favorites' names (asked at each completion with
            `weatherd favorites --names`, which starts the data dir's daemon when none runs).

            example:
              source <(weatherd completions bash)          # in ~/.bashrc
              source <(weatherd completions zsh)           # in ~/.zshrc, after compinit
              weatherd completions fish > ~/.config/fish/completions/weatherd.fish
            """,
        forms: [ArgumentForm([.choice("shell", ["bash", "zsh", "fish"])])],
        local: { context in
            context.output.print(CLI.completions(for: context.invocation.positional[0]) ?? "")
            return CLI.Exit.ok
        }
    ) { _ in CLI.Exit.ok }

    /// What the shell completes where: the value of each option that takes one, and each command's positional
    /// arguments, from the commands' declarations and weatherd's option table.
    struct Plan {
        /// A positional argument's completion: the command, its index among the positional arguments, and the
        /// action word the command line began with (nil: any).
        struct Position: Hashable {
            var command: String
            var index: Int
            var action: String?
        }

        /// Every option's flags and completion, the first declaration of a flag winning.
        var values: [(flags: [String], completion: ShellCompletion)] = []
        /// Every option that takes a value.
        var valueFlags: [String] = []
        /// Each command's own flags and the common ones.
        var flags: [(command: String, flags: [String])] = []
        /// weatherd's own flags.
        var serverFlags = Configuration.table.options.flatMap(\.flags)
        /// The completions of each position, in declaration order.
        var positions: [(position: Position, completions: [ShellCompletion])] = []

        init(_ commands: [Command]) {
            var seen: Set<String> = []
            let commandOptions = commands.flatMap(\.table.options).map { ($0.flags, $0.takesValue, $0.completion) }
            let serverOptions = Configuration.table.options.map { ($0.flags, $0.takesValue, $0.completion) }
            for (flags, takesValue, completion) in commandOptions + serverOptions where takesValue {
                let flags = flags.filter { seen.insert($0).inserted }
                guard !flags.isEmpty else { continue }
                valueFlags += flags
                // One entry per completion, with every flag that completes so.
                if let at = values.firstIndex(where: { $0.completion == completion }) {
                    values[at].flags += flags
                } else {
                    values.append((flags, completion))
                }
            }
            for command in commands {
                flags.append((command.name, command.table.options.flatMap(\.flags)))
                for form in command.forms {
                    for (index, argument) in form.arguments.enumerated() {
                        let action = index == 0 ? nil : form.action
                        let completion = argument.isAction ? .choices([argument.name]) : argument.completion
                        add(Position(command: command.name, index: index, action: action), completion)
                    }
                }
            }
        }

        /// Adds `completion` to those of `position`, merging words.
        private mutating func add(_ position: Position, _ completion: ShellCompletion) {
            guard completion != .none else { return }
            if let at = positions.firstIndex(where: { $0.position == position }) {
                if case .choices(let more) = completion,
                    let words = positions[at].completions.firstIndex(where: {
                        if case .choices = $0 { true } else { false }
                    }), case .choices(let known) = positions[at].completions[words]
                {
                    positions[at].completions[words] = .choices(known + more.filter { !known.contains($0) })
                } else if !positions[at].completions.contains(completion) {
                    positions[at].completions.append(completion)
                }
            } else {
                positions.append((position, [completion]))
            }
        }
    }

    /// The plan of every command.
    static var plan: Plan { Plan(CLI.commands) }

    /// Every word that may follow `weatherd`: the commands, `log`, `serve` and `help`.
    static var names: [String] { CLI.words }

    /// The asking of the favorites' names at completion time.
    static let favoriteNames = "command weatherd favorites --names 2>/dev/null"

    /// The log tools' actions.
    static let logActions = ["verify", "dump", "stats", "compact"]

    /// Text for inside a zsh single-quoted word.
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: ":", with: "\\:")
    }

    /// Text for inside a fish single-quoted word.
    static func fishQuoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }
}

extension CLI {
    /// The completion script for `shell` (`bash`, `zsh` or `fish`); nil for another shell.
    package static func completions(for shell: String) -> String? {
        switch shell {
        case "bash": CompletionsCommand.bash
        case "zsh": CompletionsCommand.zsh
        case "fish": CompletionsCommand.fish
        default: nil
        }
    }
}
