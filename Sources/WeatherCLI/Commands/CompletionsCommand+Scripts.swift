import Foundation
import WeatherEngine

extension CompletionsCommand {
    /// The bash script: one word list per line (`IFS` is a newline, so a favorite's name may hold spaces).
    static var bash: String {
        let plan = plan
        let valueCases = plan.valueCases { completion in
            switch completion {
            case .choices(let words): "words=\(bashWords(words))"
            case .file: "COMPREPLY=($(compgen -f -- \"$cur\")); return"
            case .directory: "COMPREPLY=($(compgen -d -- \"$cur\")); return"
            case .favorites: "words=\"$(\(favoriteNames))\""
            case .none: "return"
            }
        }
        let flagCases = plan.flags.map { "            \($0.command)) flags=\(bashWords($0.flags)) ;;" }
            .joined(separator: "\n")
        let positionCases = plan.positionCases { completion in
            switch completion {
            case .choices(let words): "words+=\(bashWords(words))$'\\n'"
            case .favorites: "words+=\"$(\(favoriteNames))\"$'\\n'"
            case .file: "COMPREPLY=($(compgen -f -- \"$cur\")); return"
            case .directory: "COMPREPLY=($(compgen -d -- \"$cur\")); return"
            case .none: ":"
            }
        }
        return """
            # weatherd completion for bash: source <(weatherd completions bash)
            _weatherd() {
                local IFS=$'\\n'
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" sub="${COMP_WORDS[1]}"
                local flags="" words="" word first="" n=0 i=2
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W \(bashWords(names + ["--help", "--version"])) -- "$cur"))
                    return
                fi
                [ "$prev" = "=" ] && prev="${COMP_WORDS[COMP_CWORD-2]}"
                if [[ "$prev" == --* ]]; then
                    case "$prev" in
            \(valueCases)
                    esac
                    if [ -n "$words" ]; then
                        COMPREPLY=($(compgen -W "$words" -- "$cur"))
                        return
                    fi
                fi
                if [[ "$cur" == -* ]]; then
                    case "$sub" in
            \(flagCases)
                    esac
                    COMPREPLY=($(compgen -W "$flags"$'\\n'\(bashWords(plan.serverFlags)) -- "$cur"))
                    return
                fi
                while [ "$i" -lt "$COMP_CWORD" ]; do
                    word="${COMP_WORDS[i]}"
                    case "$word" in
                        \(plan.valueFlags.joined(separator: "|")))
                            i=$((i + 1))
                            [ "${COMP_WORDS[i]}" = "=" ] && i=$((i + 1)) ;;
                        -[0-9.]*) n=$((n + 1)); [ "$n" -eq 1 ] && first="$word" ;;
                        -*|=) ;;
                        *) n=$((n + 1)); [ "$n" -eq 1 ] && first="$word" ;;
                    esac
                    i=$((i + 1))
                done
                case "$sub $n $first" in
            \(positionCases)
                esac
                COMPREPLY=($(compgen -W "$words" -- "$cur"))
            }
            complete -F _weatherd weatherd
            """
    }

    /// `$'a\nb\nc'`: words for bash, one a line.
    static func bashWords(_ words: [String]) -> String {
        "$'"
            + words.map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") }
            .joined(separator: "\\n") + "'"
    }

    /// The zsh script.
    static var zsh: String {
        let plan = plan
        let described = CLI.commands.map { "'\($0.name):\(quoted($0.summary))'" }.joined(separator: " ")
        let valueCases = plan.valueCases { completion in
            switch completion {
            case .choices(let words): "compadd -- \(zshWords(words)); return"
            case .file: "_files; return"
            case .directory: "_files -/; return"
            case .favorites: "compadd -- \"${(@f)$(\(favoriteNames))}\"; return"
            case .none: "return"
            }
        }
        let flagCases = plan.flags.map { "        \($0.command)) flags=(\($0.flags.joined(separator: " "))) ;;" }
            .joined(separator: "\n")
        let positionCases = plan.positionCases { completion in
            switch completion {
            case .choices(let words): "compadd -- \(zshWords(words))"
            case .favorites: "compadd -- \"${(@f)$(\(favoriteNames))}\""
            case .file: "_files"
            case .directory: "_files -/"
            case .none: ":"
            }
        }
        return """
            # weatherd completion for zsh: source <(weatherd completions zsh), after compinit
            _weatherd() {
                local -a commands flags
                local sub=$words[2] prev=$words[CURRENT-1] word first="" n=0 i
                commands=(\(described) 'log:read or compact the log offline' 'serve:the shared daemon itself')
                if (( CURRENT == 2 )); then
                    _describe 'command' commands
                    return
                fi
                case $prev in
            \(valueCases)
                esac
                if [[ $words[CURRENT] == -* ]]; then
                    case $sub in
            \(flagCases)
                    esac
                    compadd -- $flags \(plan.serverFlags.joined(separator: " "))
                    return
                fi
                for (( i = 3; i < CURRENT; i++ )); do
                    word=$words[i]
                    case $word in
                        \(plan.valueFlags.joined(separator: "|"))) i=$((i + 1)) ;;
                        -[0-9.]*) n=$((n + 1)); [[ $n == 1 ]] && first=$word ;;
                        -*) ;;
                        *) n=$((n + 1)); [[ $n == 1 ]] && first=$word ;;
                    esac
                done
                case "$sub $n $first" in
            \(positionCases)
                esac
            }
            compdef _weatherd weatherd
            """
    }

    /// `'a' 'b c'`: words for zsh.
    static func zshWords(_ words: [String]) -> String {
        words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    /// The fish script.
    static var fish: String {
        let plan = plan
        var lines = [
            "# weatherd completion for fish: weatherd completions fish > ~/.config/fish/completions/weatherd.fish",
            "complete -c weatherd -f",
        ]
        let completions = Dictionary(plan.values.flatMap { flags, completion in flags.map { ($0, completion) } }) {
            first, _ in first
        }
        func option(_ flag: String, _ condition: String) -> String {
            let name = flag.hasPrefix("--") ? "-l \(flag.dropFirst(2))" : "-s \(flag.dropFirst())"
            let value: String
            switch completions[flag] {
            case nil: value = ""
            case .choices(let words)?: value = " -x -a '\(fishQuoted(words.joined(separator: " ")))'"
            case .file?: value = " -r -F"
            case .directory?: value = " -x -a '(__fish_complete_directories)'"
            case .favorites?: value = " -x -a '(\(favoriteNames))'"
            case .none?: value = " -x"
            }
            return "complete -c weatherd -n '\(condition)' \(name)\(value)"
        }
        for command in CLI.commands {
            lines.append(
                "complete -c weatherd -n __fish_use_subcommand -a \(command.name) -d '\(fishQuoted(command.summary))'")
            let seen = "__fish_seen_subcommand_from \(command.name)"
            lines += command.table.options.flatMap(\.flags).map { option($0, seen) }
            let actions = command.forms.compactMap(\.action)
            for (position, completions) in plan.positions where position.command == command.name {
                var condition = seen
                if position.index == 0, !actions.isEmpty {
                    condition += "; and not __fish_seen_subcommand_from \(actions.joined(separator: " "))"
                } else if let action = position.action {
                    condition += "; and __fish_seen_subcommand_from \(action)"
                    condition += "; and test (count (commandline -opc)) -eq \(position.index + 2)"
                }
                for completion in completions {
                    switch completion {
                    case .choices(let words):
                        lines.append(
                            "complete -c weatherd -n '\(condition)' -a '\(fishQuoted(words.joined(separator: " ")))'")
                    case .favorites: lines.append("complete -c weatherd -n '\(condition)' -a '(\(favoriteNames))'")
                    case .file, .directory: lines.append("complete -c weatherd -n '\(condition)' -F")
                    case .none: continue
                    }
                }
            }
        }
        lines.append("complete -c weatherd -n __fish_use_subcommand -a log -d 'read or compact the log offline'")
        lines.append(
            "complete -c weatherd -n '__fish_seen_subcommand_from log' -a '\(logActions.joined(separator: " "))'")
        lines += plan.serverFlags.map { option($0, "not __fish_use_subcommand") }
        return lines.joined(separator: "\n")
    }
}

extension CompletionsCommand.Plan {
    /// The branches of a shell's `case "$prev" in`: each group of options that take a value, and what `write`
    /// says for their completion.
    func valueCases(_ write: (ShellCompletion) -> String) -> String {
        values.map { flags, completion in "        \(flags.joined(separator: "|"))) \(write(completion)) ;;" }
            .joined(separator: "\n")
    }

    /// The branches of a shell's `case "$sub $n $first" in` (the command, how many positional arguments come
    /// before the one completed, and the first of them): each position, the log tools' actions too, and what
    /// `write` says for each of its completions.
    func positionCases(_ write: (ShellCompletion) -> String) -> String {
        let log = (Position(command: "log", index: 0), [ShellCompletion.choices(CompletionsCommand.logActions)])
        return (positions + [log]).map { position, completions in
            let pattern =
                "\"\(position.command) \(position.index) \(position.action ?? "")\""
                + (position.action == nil ? "*" : "")
            return "        \(pattern)) \(completions.map(write).joined(separator: "; ")) ;;"
        }.joined(separator: "\n")
    }
}
