/// Which official warnings to show: pure rules over the decoded messages of one fetch and `now`.
package enum WarningRules {
    /// The warnings to show at `now`, one language each, in the order the feed first lists them.
    ///
    /// The rules, in order:
    /// 1. **Replaced**: a message whose id another message of the set lists in `replaces` (CAP
    ///    `references`), and that was sent no later than that message, is dropped: the update or
    ///    cancellation is the sender's last word. Expired updates and cancellations count too.
    /// 2. **Cancelled or all clear**: a `cancel` message is never shown, nor one whose `responseType` is
    ///    `AllClear` or whose `urgency` is `Past` (`isAllClear`); what such a message references is dropped by
    ///    rule 1.
    /// 3. **Expired**: a message is shown while `now` is before its `activeUntil` (`ends` when the
    ///    sender gives it, else `expires`; one with neither is shown while its source carries it); feeds such
    ///    as MeteoAlarm's keep expired messages.
    /// 4. **One language**: of the versions of one id, the one in `language` (the same tag, or the
    ///    same primary subtag: `en` takes `en-GB`), else English, else the first the feed lists.
    ///
    /// A warning whose onset is still to come is shown: it is announced, and that is its purpose.
    package static func active(_ messages: [OfficialWarning], now: Timestamp, language: String? = nil)
        -> [OfficialWarning]
    {
        let replaced = replacedIDs(messages)
        var order: [String] = []
        var versions: [String: [OfficialWarning]] = [:]
        for message in messages {
            guard message.messageType != .cancel, !message.isAllClear, message.inForce(at: now) else { continue }
            if let replacedAt = replaced[message.id], replacedAt >= message.sent { continue }
            if versions[message.id] == nil { order.append(message.id) }
            versions[message.id, default: []].append(message)
        }
        return order.compactMap { versions[$0].flatMap { choose($0, language: language) } }
    }

    /// One version of each message, in `language` else English else the first (rule 4 alone), in the order the
    /// messages first come: what a CAP document holds, kept whole (its cancels, all-clears and expired messages
    /// too) because what it replaces may be in another document.
    package static func oneLanguage(_ messages: [OfficialWarning], language: String? = nil) -> [OfficialWarning] {
        var order: [String] = []
        var versions: [String: [OfficialWarning]] = [:]
        for message in messages {
            if versions[message.id] == nil { order.append(message.id) }
            versions[message.id, default: []].append(message)
        }
        return order.compactMap { versions[$0].flatMap { choose($0, language: language) } }
    }

    /// The id of every message some other message replaces, with the latest time it was replaced.
    private static func replacedIDs(_ messages: [OfficialWarning]) -> [String: Timestamp] {
        var replaced: [String: Timestamp] = [:]
        for message in messages {
            for id in message.replaces where id != message.id {
                replaced[id] = max(replaced[id] ?? message.sent, message.sent)
            }
        }
        return replaced
    }

    /// The version in `language`, else in English, else the first.
    package static func choose(_ versions: [OfficialWarning], language: String?) -> OfficialWarning? {
        if let language, let wanted = versions.first(where: { matches($0.language, language) }) { return wanted }
        return versions.first { matches($0.language, "en") } ?? versions.first
    }

    /// Whether the language tag `tag` is `wanted`: the same tag, or the same primary subtag, in any case.
    package static func matches(_ tag: String, _ wanted: String) -> Bool {
        let have = tag.trimmingWhitespace.lowercased()
        let want = wanted.trimmingWhitespace.lowercased()
        guard !have.isEmpty, !want.isEmpty else { return false }
        return have == want || primarySubtag(have) == primarySubtag(want)
    }

    private static func primarySubtag(_ tag: String) -> Substring {
        tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? Substring(tag)
    }
}
