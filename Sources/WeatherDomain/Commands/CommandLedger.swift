/// The results of recent commands by their client `commandId`, so a repeat writes nothing.
///
/// Rebuilt from the `corr` of logged events: the result of a command is a pure function of the
/// events it caused (`CommandResult.of`), so a replayed ledger answers exactly as the live one did.
public struct CommandLedger: Sendable, Equatable {
    /// How many command ids are remembered (the oldest are forgotten first).
    public let window: Int
    var results: [String: Answer] = [:]
    /// Command ids in the order they were first recorded; those before `head` are forgotten.
    var order: [String] = []
    var head = 0

    /// A remembered answer: the event that carries it (turned into JSON only when a repeat asks, so
    /// replaying a long log builds no JSON), or the JSON itself. Boxed, so the ledger's table stays small.
    indirect enum Answer: Sendable {
        case event(DomainEvent)
        case json(JSONValue)

        var json: JSONValue {
            switch self {
            case .event(let event): CommandResult.of(event) ?? .null
            case .json(let json): json
            }
        }
    }

    public init(window: Int = 100_000) { self.window = max(1, window) }

    public var count: Int { results.count }

    public func result(for commandId: String) -> JSONValue? { results[commandId]?.json }

    /// Records the result of the command whose events carried `corr`.
    public mutating func record(_ commandId: String, result: JSONValue) { remember(commandId, .json(result)) }

    /// Folds one logged event in.
    public mutating func apply(_ event: DomainEvent, corr: String?) {
        guard let corr, CommandResult.answers(event) else { return }
        remember(corr, .event(event))
    }

    private mutating func remember(_ commandId: String, _ answer: Answer) {
        if results.updateValue(answer, forKey: commandId) != nil { return }
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
    public static func == (lhs: CommandLedger, rhs: CommandLedger) -> Bool {
        lhs.window == rhs.window && lhs.order[lhs.head...].elementsEqual(rhs.order[rhs.head...])
            && lhs.results.count == rhs.results.count
            && lhs.results.allSatisfy { id, answer in rhs.results[id].map { $0.json == answer.json } ?? false }
    }

    public var json: JSONValue {
        .array(order[head...].map { .array([.string($0), results[$0]?.json ?? .null]) })
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

    /// Whether `event` is one a command answers with (`of` is not nil), without building the answer.
    public static func answers(_ event: DomainEvent) -> Bool {
        switch event {
        case .favoriteAdded, .favoriteRemoved, .favoriteUpdated, .settingsChanged, .historyCleared, .locationChanged,
            .alertsConfigured:
            true
        default: false
        }
    }
}
