/// The `official` alert rule: one alert per official warning in force at a place with alerts on, and one
/// more each time an update of it raises its severity.
///
/// A warning's updates are new messages (new ids) that name what they replace, so the rule follows each
/// warning's thread back to its first message (`Lineage`) and remembers, per place key and first message,
/// each severity it raised: `<key>|official|<first id>|<severity>` (the severity in lower case, `severe`). A message is raised when no severity
/// at or above its own was raised for its thread; an update at the same or a lower severity raises nothing.
package enum OfficialAlerts {
    /// The de-duplication key of an `official` alert.
    package static func dedupKey(key: String, firstId: String, severity: String) -> String {
        "\(key)|official|\(firstId)|\(severity)"
    }

    /// The first message of each warning's thread of updates, as far as weatherd has seen them.
    package struct Lineage: Sendable, Equatable {
        /// Message id → the id of the first message of its thread.
        package private(set) var first: [String: String] = [:]
        /// Ids remembered at most; past it only the last recorded warnings' are kept.
        package static let capacity = 10_000

        package init() {}

        /// Records `warnings` and answers the first message of each: its own recorded thread, else that of a
        /// message it replaces, else a replaced message `isFirst` knows as a thread's first (raised before
        /// weatherd last started), else itself.
        package mutating func record(_ warnings: [OfficialWarning], isFirst: (String) -> Bool) -> [String: String] {
            var firsts: [String: String] = [:]
            for warning in warnings {
                var thread = first[warning.id]
                for id in warning.replaces where thread == nil { thread = first[id] }
                let resolved = thread ?? warning.replaces.first(where: isFirst) ?? warning.id
                first[warning.id] = resolved
                firsts[warning.id] = resolved
            }
            if first.count > Self.capacity { first = firsts }
            return firsts
        }
    }

    /// The first-message ids of the `official` alerts the state remembers.
    package static func firstIds(in state: AlertState) -> Set<String> {
        var ids: Set<String> = []
        for key in state.raised {
            let parts = key.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count >= 4, parts[1] == "official" else { continue }
            ids.insert(parts[2..<(parts.count - 1)].joined(separator: "|"))
        }
        return ids
    }

    /// The alerts `warnings` (those in force at the target now) raise.
    ///
    /// - Parameters:
    ///   - firstIds: each warning's first message (`Lineage.record`); a warning missing there is its own.
    ///   - attribution: the credit each source asks for, kept in the alert's details.
    package static func decide(
        _ state: AlertState, target: AlertTarget, warnings: [OfficialWarning], firstIds: [String: String],
        attribution: (OfficialWarning.Source) -> String, zone: ZoneOffsets, now: Timestamp
    ) -> [DomainEvent] {
        guard state.settings.official else { return [] }
        let key = target.place.key
        var raised = state.raised
        var number = state.nextNumber
        var events: [DomainEvent] = []
        for warning in warnings {
            let first = firstIds[warning.id] ?? warning.id
            let raisedAt = WarningSeverity.allCases.filter {
                raised.contains(dedupKey(key: key, firstId: first, severity: $0.rawValue))
            }
            guard !raisedAt.contains(where: { $0 >= warning.severity }) else { continue }
            let name = target.place.name ?? key
            var message = "\(warning.sender): \(warning.headline ?? warning.event) (\(name))"
            if let before = raisedAt.max() {
                message += "; raised from \(before.cap) to \(warning.severity.cap)"
            }
            let alert = RaisedAlert(
                id: "alert-\(number)", rule: .official, key: key, place: target.place, favoriteId: target.favoriteId,
                localDate: LocalDate.string(now, zone: zone), raisedAt: now,
                message: message + ".",
                details: [
                    "warning": warning.json, "firstId": .string(first),
                    "attribution": .string(attribution(warning.source)),
                ])
            raised.insert(alert.dedupKey)
            events.append(.alertRaised(alert))
            number += 1
        }
        return events
    }
}
