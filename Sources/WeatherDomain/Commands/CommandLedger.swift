/// The results of recent commands by their client `commandId`, so a repeat writes nothing.
///
/// Rebuilt from the `corr` of logged events: the result of a command is a pure function of the
/// events it caused (`CommandResult.of`), so a replayed ledger answers exactly as the live one did.
public struct CommandLedger: Sendable, Equatable {
    /// How many command ids are remembered (the oldest are forgotten first).
    public let window: Int
    var results: [String: JSONValue] = [:]
    /// Command ids in the order they were first recorded; those before `head` are forgotten.
    var order: [String] = []
    var head = 0

    public init(window: Int = 100_000) { self.window = max(1, window) }

    public var count: Int { results.count }

    public func result(for commandId: String) -> JSONValue? { results[commandId] }

    /// Records the result of the command whose events carried `corr`.
    public mutating func record(_ commandId: String, result: JSONValue) {
        if results.updateValue(result, forKey: commandId) != nil { return }
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

    /// Folds one logged event in.
    public mutating func apply(_ event: DomainEvent, corr: String?) {
        guard let corr, let result = CommandResult.of(event) else { return }
        record(corr, result: result)
    }

    public static func == (lhs: CommandLedger, rhs: CommandLedger) -> Bool {
        lhs.results == rhs.results && Array(lhs.order[lhs.head...]) == Array(rhs.order[rhs.head...])
    }

    public var json: JSONValue {
        .array(order[head...].map { .array([.string($0), results[$0] ?? .null]) })
    }
}

/// What a command answered, derived from the event it caused.
public enum CommandResult {
    /// The result of the command whose (last) event is `event`, or nil for events no command causes.
    public static func of(_ event: DomainEvent) -> JSONValue? {
        switch event {
        case .favoriteAdded(let favorite), .favoriteRemoved(let favorite): favorite.json
        case .favoriteUpdated(let update): update.favorite.json
        case .settingsChanged(let change): change.json
        case .historyCleared(let count): .object(["history": .array([]), "cleared": .int(count)])
        case .locationChanged(let location): location.json
        case .alertsConfigured(let settings): settings.json
        default: nil
        }
    }
}
