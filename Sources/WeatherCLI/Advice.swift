import WeatherDomain
import WeatherEngine

/// What a person is told to do, in the terms of the commands (`weatherd location set`), never in those of the
/// JSON-RPC methods underneath (`location/set`).
enum Advice {
    /// A remedy in the commands' terms.
    static func command(_ remedy: Remedy) -> String {
        switch remedy {
        case .listFavorites: "`weatherd favorites` shows the ids and names."
        case .searchCities: "Check the spelling, or find the place with `weatherd search CITY`."
        case .removeFavorites: "Remove some with `weatherd favorites remove` first (or raise --max-favorites)."
        case .setLocation: "Set one with `weatherd location set PLACE`, or name a place."
        }
    }

    /// `message` (an RPC error's) with the JSON-RPC advice it ends with said in the commands' terms.
    static func inCommandTerms(_ message: String) -> String {
        for remedy in Remedy.allCases where message.hasSuffix(remedy.rpcAdvice) {
            return String(message.dropLast(remedy.rpcAdvice.count)) + command(remedy)
        }
        return message
    }
}

extension CLI {
    /// Every word that may follow `weatherd`: the commands, `log`, `serve` and `help`.
    package static var words: [String] { commands.map(\.name) + ["log", "serve", "help"] }

    /// The one line for `weatherd WORD` when WORD is no command: with the closest command, when one is close;
    /// WORD terminal-safe (`TerminalText`).
    package static func unknownCommand(_ word: String) -> String {
        let shown = TerminalText.safe(word)
        if let suggestion = Suggestion.closest(to: word, in: words) {
            return
                "weatherd: unknown command \(shown); did you mean `weatherd \(suggestion)`? (weatherd --help lists them)"
        }
        return "weatherd: unknown command \(shown); weatherd --help lists the commands"
    }
}

/// What a command that runs without a connection (`stop`, `completions`) gets.
package struct LocalContext: Sendable {
    package var invocation: Invocation
    /// weatherd's configuration from the command's options and environment.
    package var configuration: Configuration
    package var environment: CLI.Environment

    /// Where the command prints.
    var output: Output { invocation.output }
}
