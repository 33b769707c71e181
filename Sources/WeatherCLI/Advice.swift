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

    /// The word of `candidates` closest to `word` by edit distance, when it is close enough to be a typo
    /// (at most a third of the longer word's letters, and at least one edit, apart) or `word` begins it.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }
        guard let (best, score) = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let allowed = max(1, max(word.count, best.count) / 3)
        return score <= allowed || best.hasPrefix(word) ? best : nil
    }

    /// The Levenshtein distance of two words: insertions, deletions and substitutions.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension CLI {
    /// Every word that may follow `weatherd`: the commands, `log`, `serve` and `help`.
    package static var words: [String] { commands.map(\.name) + ["log", "serve", "help"] }

    /// The one line for `weatherd WORD` when WORD is no command: with the closest command, when one is close;
    /// WORD terminal-safe (`TerminalText`).
    package static func unknownCommand(_ word: String) -> String {
        let shown = TerminalText.safe(word)
        if let suggestion = Advice.closest(to: word, in: words) {
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
