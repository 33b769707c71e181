import WeatherDomain

extension MCPAnswer {
    /// The most characters a tool result's text blocks hold together: agents read every one of them.
    static let maxTextCharacters = 25_000

    /// The longest summary line kept whole.
    static let maxSummaryCharacters = 1_000

    /// The answer cut to fit `limit` characters of text (the summary line and the JSON together).
    ///
    /// The JSON stays valid and keeps every member: the longest top-level lists lose their last items
    /// (later forecast steps, further list items) until it fits, it gets `"truncated": true`, and the
    /// summary line says how many items of each list are left. A cut page of a paged list gets the
    /// `nextCursor` of its first item left out, so nothing is skipped.
    func capped(at limit: Int = maxTextCharacters) -> MCPAnswer { capped(at: limit, budget: limit) }

    /// The answer cut to fit `budget` characters, its note saying `limit`; cut again, tighter, in the rare
    /// case the estimate of what a cut saves fell short.
    private func capped(at limit: Int, budget: Int) -> MCPAnswer {
        var summary = self.summary
        if summary.count > Self.maxSummaryCharacters {
            summary = String(summary.prefix(Self.maxSummaryCharacters - 1)) + "…"
        }
        let text = value.jsonString
        guard summary.count + text.count > budget, case .object(var members) = value else {
            return MCPAnswer(summary, value, page: page)
        }
        // Room for the note in the summary line, the `truncated` member and a `nextCursor`.
        let note = 240
        var excess = summary.count + note + text.count + #","truncated":true"#.count - budget
        var lists = members.compactMap { key, value -> (key: String, sizes: [Int])? in
            guard let items = value.arrayValue, !items.isEmpty else { return nil }
            return (key, items.map { $0.jsonString.count + 1 })
        }
        var kept = Dictionary(uniqueKeysWithValues: lists.map { ($0.key, $0.sizes.count) })
        while excess > 0 {
            guard let index = lists.indices.max(by: { lists[$0].sizes.reduce(0, +) < lists[$1].sizes.reduce(0, +) }),
                let last = lists[index].sizes.popLast()
            else { break }
            excess -= last
            kept[lists[index].key, default: 0] -= 1
            if lists[index].sizes.isEmpty { lists.remove(at: index) }
        }
        var cuts: [String] = []
        for key in kept.keys.sorted() {
            guard let items = members[key]?.arrayValue, let count = kept[key], count < items.count else { continue }
            members[key] = .array(Array(items.prefix(count)))
            cuts.append("\(key) \(count) of \(items.count)")
            if let page, page.member == key { members["nextCursor"] = .string("o\(page.offset + count)") }
        }
        if excess > 0 {
            // Nothing left to cut from lists: keep the members that are no bigger than a line.
            members = members.filter { $0.value.jsonString.count <= 200 }
            cuts.append("only the short members")
        }
        members["truncated"] = true
        let more = page == nil ? "" : "; nextCursor continues"
        let line = "\(summary) [Truncated to \(limit) characters: \(cuts.joined(separator: ", "))\(more).]"
        let cut = MCPAnswer(line, .object(members), page: page)
        let over = cut.summary.count + cut.value.jsonString.count - limit
        guard over > 0, budget > limit / 2 else { return cut }
        return capped(at: limit, budget: budget - over)
    }
}
