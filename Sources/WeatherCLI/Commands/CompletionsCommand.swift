import Foundation
import WeatherEngine

/// `weatherd completions bash|zsh|fish`: a completion script for the shell.
enum CompletionsCommand {
    static let command = Command(
        name: "completions", summary: "a completion script for bash, zsh or fish",
        usage: "usage: weatherd completions bash|zsh|fish",
        details: """
            Prints a script that completes weatherd's commands, their flags and weatherd's options, and, where a
            command takes a PLACE, the favorites' names (asked at each completion with
            `weatherd favorites --names`, which starts the data dir's daemon when none runs).

            example:
              source <(weatherd completions bash)          # in ~/.bashrc
              source <(weatherd completions zsh)           # in ~/.zshrc, after compinit
              weatherd completions fish > ~/.config/fish/completions/weatherd.fish
            """,
        positionals: 1...1, positionalText: "bash, zsh or fish",
        check: { invocation in
            guard ["bash", "zsh", "fish"].contains(invocation.positional[0]) else {
                throw UsageError("unknown shell \(invocation.positional[0]): bash, zsh or fish")
            }
        },
        local: { context in
            let shell = context.invocation.positional[0]
            context.output.print(shell == "bash" ? bash : shell == "zsh" ? zsh : fish)
            return CLI.Exit.ok
        }
    ) { _ in CLI.Exit.ok }

    /// The commands that take a PLACE, whose positional argument completes to a favorite's name.
    static let placeCommands = [
        "now", "forecast", "history", "climate", "changes", "chart", "bar", "warnings", "air", "refresh",
    ]

    /// The words a command takes first (`favorites add`, `units metric`).
    static let actions: [String: [String]] = [
        "favorites": ["list", "add", "remove", "rename"], "location": ["set", "clear"],
        "units": ["metric", "imperial", "standard"], "completions": ["bash", "zsh", "fish"],
        "log": ["verify", "dump", "stats", "compact"],
    ]

    /// weatherd's own options, from its usage text.
    static var serverOptions: [String] {
        let options = Configuration.usage.components(separatedBy: "options:\n").last ?? ""
        return options.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("--") else { return nil }
            return String(trimmed.prefix { !$0.isWhitespace })
        }
    }

    /// A command's flags, its own and the common ones.
    static func flags(_ command: Command) -> [String] {
        (command.valueFlags.union(command.switchFlags).sorted()) + ["--json", "--standalone", "--help"]
    }

    /// Every command's name and its words: the commands, `log`, `serve` and `help`.
    static var names: [String] { CLI.words }

    /// The bash script.
    static var bash: String {
        let cases = CLI.commands.map { command in
            "        \(command.name)) flags=\"\(flags(command).joined(separator: " "))\" ;;"
        }.joined(separator: "\n")
        let actionCases = actions.sorted { $0.key < $1.key }.map { name, words in
            "        \(name)) words=\"\(words.joined(separator: " "))\" ;;"
        }.joined(separator: "\n")
        return """
            # weatherd completion for bash: source <(weatherd completions bash)
            _weatherd() {
                local cur="${COMP_WORDS[COMP_CWORD]}" sub="${COMP_WORDS[1]}" flags="" words=""
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(names.joined(separator: " ")) --help --version" -- "$cur"))
                    return
                fi
                if [[ "$cur" == -* ]]; then
                    case "$sub" in
            \(cases)
                    esac
                    COMPREPLY=($(compgen -W "$flags \(serverOptions.joined(separator: " "))" -- "$cur"))
                    return
                fi
                if [ "$COMP_CWORD" -eq 2 ]; then
                    case "$sub" in
            \(actionCases)
                    esac
                fi
                case "$sub" in
                    \(placeCommands.joined(separator: "|")))
                        local IFS=$'\\n'
                        words="$(command weatherd favorites --names 2>/dev/null)" ;;
                esac
                COMPREPLY=($(compgen -W "$words" -- "$cur"))
            }
            complete -F _weatherd weatherd
            """
    }

    /// The zsh script.
    static var zsh: String {
        let described = CLI.commands.map { "'\($0.name):\(quoted($0.summary))'" }.joined(separator: " ")
        let cases = CLI.commands.map { command in
            "        \(command.name)) flags=(\(flags(command).joined(separator: " "))) ;;"
        }.joined(separator: "\n")
        let actionCases = actions.sorted { $0.key < $1.key }.map { name, words in
            "        \(name)) (( CURRENT == 3 )) && compadd -- \(words.joined(separator: " ")) ;;"
        }.joined(separator: "\n")
        return """
            # weatherd completion for zsh: source <(weatherd completions zsh), after compinit
            _weatherd() {
                local -a commands flags
                commands=(\(described) 'log:read or compact the log offline' 'serve:the shared daemon itself')
                if (( CURRENT == 2 )); then
                    _describe 'command' commands
                    return
                fi
                if [[ $words[CURRENT] == -* ]]; then
                    case $words[2] in
            \(cases)
                    esac
                    compadd -- $flags \(serverOptions.joined(separator: " "))
                    return
                fi
                case $words[2] in
            \(actionCases)
                    \(placeCommands.joined(separator: "|")))
                        local -a favorites
                        favorites=("${(@f)$(command weatherd favorites --names 2>/dev/null)}")
                        compadd -- $favorites ;;
                esac
            }
            compdef _weatherd weatherd
            """
    }

    /// The fish script.
    static var fish: String {
        var lines = [
            "# weatherd completion for fish: weatherd completions fish > ~/.config/fish/completions/weatherd.fish",
            "complete -c weatherd -f",
        ]
        for command in CLI.commands {
            lines.append(
                "complete -c weatherd -n __fish_use_subcommand -a \(command.name) -d '\(fishQuoted(command.summary))'")
            let condition = "'__fish_seen_subcommand_from \(command.name)'"
            for flag in flags(command) {
                let value = command.valueFlags.contains(flag) ? " -r" : ""
                lines.append("complete -c weatherd -n \(condition) -l \(flag.dropFirst(2))\(value)")
            }
        }
        lines.append("complete -c weatherd -n __fish_use_subcommand -a log -d 'read or compact the log offline'")
        for (name, words) in actions.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "complete -c weatherd -n '__fish_seen_subcommand_from \(name)' -a '\(words.joined(separator: " "))'")
        }
        let places = placeCommands.joined(separator: " ")
        lines.append(
            "complete -c weatherd -n '__fish_seen_subcommand_from \(places)' "
                + "-a '(command weatherd favorites --names 2>/dev/null)'")
        for option in serverOptions {
            lines.append("complete -c weatherd -n 'not __fish_use_subcommand' -l \(option.dropFirst(2)) -r")
        }
        return lines.joined(separator: "\n")
    }

    /// Text for inside a zsh single-quoted word.
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: ":", with: "\\:")
    }

    /// Text for inside a fish single-quoted word.
    static func fishQuoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }
}
