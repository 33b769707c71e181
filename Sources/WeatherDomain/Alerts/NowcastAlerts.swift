/// The `nowcast` rule: precipitation starting, stopping or coming and going in the next minutes, read from a
/// `nowcast.changed` of a place with alerts on. Off unless configured.
///
/// Once per transition (the reading's time keys the alert), and not when an alert of the rule was raised for
/// the place within `debounceMinutes`, so a forecast that flickers between two states does not notify twice.
/// A change to `dry` raises nothing (the `stopping` before it said so), nor does `starting` → `ongoing`, which
/// is what `starting` announced.
package enum NowcastAlerts {
    /// The least time between two alerts of the rule at one place.
    package static let debounceMinutes: Int64 = 15

    /// The alert `changed` raises for `target`, if any; `sentence` is the reading in words, in the reader's
    /// units and the place's clock.
    package static func decide(
        _ state: AlertState, target: AlertTarget, changed: NowcastChanged, sentence: String, zone: ZoneOffsets,
        now: Timestamp
    ) -> [DomainEvent] {
        guard state.settings.nowcast, worthTelling(from: changed.from, to: changed.summary.state) else { return [] }
        let key = target.place.key
        let recent = state.recent.contains { alert in
            alert.rule == .nowcast && alert.key == key
                && now.milliseconds - alert.raisedAt.milliseconds < debounceMinutes * 60_000
        }
        guard !recent else { return [] }
        var details: [String: JSONValue] = [
            "at": .string(changed.at.description), "source": .string(changed.source.rawValue),
        ]
        changed.summary.write(into: &details)
        if let from = changed.from { details["from"] = .string(from.rawValue) }
        if let kind = changed.precipitation { details["precipitation"] = .string(kind.rawValue) }
        let alert = RaisedAlert(
            id: "alert-\(state.nextNumber)", rule: .nowcast, key: key, place: target.place,
            favoriteId: target.favoriteId, localDate: LocalDate.string(now, zone: zone), raisedAt: now,
            message: "\(target.place.name ?? key): \(sentence)", details: .object(details))
        return state.raised.contains(alert.dedupKey) ? [] : [.alertRaised(alert)]
    }

    /// Whether a change from `from` to `to` is news to a person.
    package static func worthTelling(from: NowcastSummary.State?, to: NowcastSummary.State) -> Bool {
        switch (from, to) {
        case (_, .dry): false
        case (.starting, .ongoing): false
        case (nil, _): to != .dry
        default: true
        }
    }
}
