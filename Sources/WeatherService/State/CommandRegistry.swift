import EventLog
import Synchronization
import WeatherDomain

/// Remembers the results of change requests by `commandId`, so a repeat writes nothing.
///
/// Results of completed commands come from the ledger (rebuilt from the log at start-up and fed
/// with every committed event). A repeat that arrives while the first is still running waits for
/// the first one's answer instead of running again.
public final class CommandRegistry: Sendable {
    /// What to do with a request carrying a `commandId`.
    public enum Start: Sendable {
        /// Run it: nothing is known of this id.
        case run
        /// Answer with the original result.
        case done(JSONValue)
        /// The same command is running: wait for its outcome.
        case wait(CommandOutcome)
    }

    private struct State {
        var ledger: CommandLedger
        var running: [String: CommandOutcome] = [:]
    }

    private let state: Mutex<State>

    /// Creates the registry from the ledger built by replay.
    public init(ledger: CommandLedger) { state = Mutex(State(ledger: ledger)) }

    /// Looks a command id up, marking it running when it is new.
    public func start(_ commandId: String) -> Start {
        state.withLock { state in
            if let result = state.ledger.result(for: commandId) { return .done(result) }
            if let outcome = state.running[commandId] { return .wait(outcome) }
            state.running[commandId] = CommandOutcome()
            return .run
        }
    }

    /// Ends a running command with its answer.
    public func finish(_ commandId: String, with result: Result<JSONValue, RPCError>) {
        let outcome = state.withLock { state in state.running.removeValue(forKey: commandId) }
        outcome?.resolve(result)
    }

    /// Folds a committed batch into the ledger.
    ///
    /// Called on the writer's thread before any caller of the batch is answered, so a client that
    /// repeats a command right after its answer finds the result here.
    public func record(_ batch: [EventEnvelope]) {
        var commands: [(DomainEvent, String)] = []
        for envelope in batch {
            guard let corr = envelope.corr else { continue }
            do {
                if case .event(let event) = try envelope.decodedEvent() { commands.append((event, corr)) }
            } catch {
                // This process encoded the event a moment ago from a DomainEvent, so it decodes; were it
                // ever not to, the only loss would be that a repeat of this one command runs again.
                continue
            }
        }
        guard !commands.isEmpty else { return }
        state.withLock { state in
            for (event, corr) in commands { state.ledger.apply(event, corr: corr) }
        }
    }

    /// The ledger, for `state/verify`.
    public var ledger: CommandLedger { state.withLock { $0.ledger } }
}

/// The answer of a running command, awaited by its repeats.
public final class CommandOutcome: Sendable {
    private let state = Mutex<
        (Result<JSONValue, RPCError>?, [CheckedContinuation<Result<JSONValue, RPCError>, Never>])
    >(
        (nil, []))

    func resolve(_ result: Result<JSONValue, RPCError>) {
        let waiters = state.withLock { state in
            state.0 = result
            defer { state.1 = [] }
            return state.1
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Waits for the answer.
    public func value() async -> Result<JSONValue, RPCError> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<JSONValue, RPCError>? in
                if let result = state.0 { return result }
                state.1.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
