/// The results of recent commands by their client `commandId`, so a repeat writes nothing.
///
/// Rebuilt from the `corr` of logged events: the result of a command is a pure function of the
/// events it caused (`CommandResult.of`), so a replayed ledger answers exactly as the live one did.
package struct CommandLedger: Sendable, Equatable {
    /// How many command ids are remembered (the oldest are forgotten first).
    package let window: Int
    var results: [String: Entry] = [:]
    /// Command ids in the order they were first recorded; those before `head` are forgotten.
    var order: [String] = []
    var head = 0

    /// What a command id was used for and what it answered.
    struct Entry: Sendable {
        var method: CommandMethod
        var answer: Answer
    }

    /// A remembered answer, kept in the form that costs least: the payload of the event that carries
    /// it (turned into JSON only when a repeat asks, so replaying a long log builds no JSON), or, for an
    /// answer read back from a snapshot, the JSON itself. Each case is boxed on its own, so an entry
    /// takes the size of its payload, not of the largest event.
    indirect enum Answer: Sendable {
        case favorite(Favorite)
        case settings(SettingsChange)
        case location(Location)
        case locationCleared(Location)
        case alerts(AlertSettings)
        case cleared(Int64)
        case json(JSONValue)

        init?(_ event: DomainEvent) {
            switch event {
            case .favoriteAdded(let favorite), .favoriteRemoved(let favorite): self = .favorite(favorite)
            case .favoriteUpdated(let update): self = .favorite(update.favorite)
            case .settingsChanged(let change): self = .settings(change)
            case .historyCleared(let count): self = .cleared(count)
            case .locationChanged(let location): self = .location(location)
            case .locationCleared(let location): self = .locationCleared(location)
            case .alertsConfigured(let settings): self = .alerts(settings)
            default: return nil
            }
        }

        var json: JSONValue {
            switch self {
            case .favorite(let favorite): return favorite.json
            case .settings(let change): return change.answer
            case .location(let location): return location.answer
            case .locationCleared(let location): return CommandResult.locationCleared(location)
            case .alerts(let settings): return settings.json
            case .cleared(let count): return CommandResult.cleared(count)
            case .json(let json): return json
            }
        }
    }

    package init(window: Int = 100_000) { self.window = max(1, window) }

    package var count: Int { results.count }

    package func result(for commandId: String) -> JSONValue? { results[commandId]?.answer.json }

    /// Whether the command id is remembered.
    package func remembers(_ commandId: String) -> Bool { results[commandId] != nil }

    /// The method a remembered command id was used for, and its result.
    package func command(_ commandId: String) -> (method: CommandMethod, result: JSONValue)? {
        results[commandId].map { ($0.method, $0.answer.json) }
    }

    /// Records the result of the command whose events carried `corr`.
    package mutating func record(_ commandId: String, method: CommandMethod, result: JSONValue) {
        remember(commandId, Entry(method: method, answer: .json(result)))
    }

    /// Folds one logged event in.
    package mutating func apply(_ event: DomainEvent, corr: String?) {
        guard let corr, let answer = Answer(event), let method = CommandMethod(event) else { return }
        remember(corr, Entry(method: method, answer: answer))
    }

    private mutating func remember(_ commandId: String, _ entry: Entry) {
        if results.updateValue(entry, forKey: commandId) != nil { return }
        order.append(commandId)
        if results.count > window {
            results[order[head]] = nil
            head += 1
            if head > 4096, head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
        }
    }

    /// Ledgers are equal when they remember the same ids, in the same order, with the same answers.
    package static func == (lhs: CommandLedger, rhs: CommandLedger) -> Bool {
        lhs.window == rhs.window && lhs.order[lhs.head...].elementsEqual(rhs.order[rhs.head...])
            && lhs.results.count == rhs.results.count
            && lhs.results.allSatisfy { id, entry in
                rhs.results[id].map { $0.method == entry.method && $0.answer.json == entry.answer.json } ?? false
            }
    }

    /// `[[commandId, result], …]`, oldest first (the form released snapshots and golden states have).
    package var json: JSONValue {
        .array(order[head...].map { .array([.string($0), results[$0]?.answer.json ?? .null]) })
    }

    /// The method of each remembered command, in the order of `json`.
    package var methodsJSON: JSONValue {
        .array(order[head...].map { .string(results[$0]?.method.rawValue ?? "") })
    }
}

/// The methods whose results the ledger remembers, each known from the event type it writes, so a
/// replayed ledger knows what every command id was used for.
package enum CommandMethod: String, Sendable, Equatable {
    case favoritesAdd = "favorites/add"
    case favoritesRemove = "favorites/remove"
    case favoritesUpdate = "favorites/update"
    case historyClear = "history/clear"
    case settingsSet = "settings/set"
    case locationSet = "location/set"
    case locationClear = "location/clear"
    case alertsConfigure = "alerts/configure"

    /// The method that writes `event` with the client's `commandId`; nil for events no command writes so.
    package init?(_ event: DomainEvent) {
        switch event {
        case .favoriteAdded: self = .favoritesAdd
        case .favoriteRemoved: self = .favoritesRemove
        case .favoriteUpdated: self = .favoritesUpdate
        case .historyCleared: self = .historyClear
        case .settingsChanged: self = .settingsSet
        case .locationChanged: self = .locationSet
        case .locationCleared: self = .locationClear
        case .alertsConfigured: self = .alertsConfigure
        default: return nil
        }
    }
}

/// What a command answered, derived from the event it caused.
package enum CommandResult {
    /// The result of the command whose (last) event is `event`, or nil for events no command causes.
    package static func of(_ event: DomainEvent) -> JSONValue? { CommandLedger.Answer(event)?.json }

    /// What `location/clear` answers: `{"cleared": true, "location": …}` with the location it cleared,
    /// or `{"cleared": false}` when none was set.
    package static func locationCleared(_ location: Location?) -> JSONValue {
        guard let location else { return .object(["cleared": .bool(false)]) }
        return .object(["cleared": .bool(true), "location": location.answer])
    }

    /// What `history/clear` answers.
    package static func cleared(_ count: Int64) -> JSONValue {
        .object(["history": .array([]), "cleared": .int(count)])
    }
}
