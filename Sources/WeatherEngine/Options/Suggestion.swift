/// The closest of some words to a word mistyped: the suggestion in "did you mean …?".
package enum Suggestion {
    /// The word of `candidates` closest to `word` by edit distance, when it is close enough to be a typo
    /// (at most a third of the longer word's letters, and at least one edit, apart) or `word` begins it.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }
        guard let (best, score) = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let allowed = max(1, max(word.count, best.count) / 3)
        return score <= allowed || best.hasPrefix(word) ? best : nil
    }

    /// The Levenshtein distance of two words: insertions, deletions and substitutions.
    package static func distance(_ a: String, _ b: String) -> Int {
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
