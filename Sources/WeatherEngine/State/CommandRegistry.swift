import EventLog
import Synchronization
import WeatherDomain
import WeatherRuntime

/// Remembers the results of change requests by `commandId`, so a repeat writes nothing.
///
/// Results of completed commands come from the ledger (rebuilt from the log at start-up and fed
/// with every committed event). A repeat that arrives while the first is still running waits for
/// the first one's answer instead of running again.
///
/// A repeat must be the same command: the same method (known for every remembered id, from the event
/// type it wrote) and the same params (known for the commands this process ran: the log does not
/// record params, so after a restart a repeat is checked by its method only). Anything else is a conflict.
package final class CommandRegistry: Sendable {
    /// What to do with a request carrying a `commandId`.
    package enum Start: Sendable {
        /// Run it: nothing is known of this id.
        case run
        /// Answer with the original result.
        case done(JSONValue)
        /// The same command is running: wait for its outcome.
        case wait(CommandOutcome)
        /// The id was used for another method or with other params: answer this error.
        case conflict(EngineError)
    }

    /// A command being run: its outcome, and what it was.
    private struct Running {
        var outcome: CommandOutcome
        var method: String
        var params: Int
    }

    private struct State {
        var ledger: CommandLedger
        var running: [String: Running] = [:]
        /// The params (hashed) of the commands this process ran, by id; pruned to the ids the ledger keeps.
        var params: [String: Int] = [:]
    }

    private let state: Mutex<State>

    /// Creates the registry from the ledger built by replay.
    package init(ledger: CommandLedger) { state = Mutex(State(ledger: ledger)) }

    /// Looks a command id up, marking it running when it is new.
    ///
    /// - Parameters:
    ///   - method: the request's method.
    ///   - params: the request's params without `commandId` and `_meta` (as JSON values, so `2` and `2.0`
    ///     or another member order are the same params).
    package func start(_ commandId: String, method: String, params: JSONValue) -> Start {
        let hash = params.hashValue
        return state.withLock { state in
            if let known = state.ledger.command(commandId) {
                if known.method.rawValue != method {
                    return .conflict(
                        .commandConflict(commandId: commandId, earlierMethod: known.method.rawValue, method: method))
                }
                if let earlier = state.params[commandId] ?? state.running[commandId]?.params, earlier != hash {
                    return .conflict(.commandConflict(commandId: commandId, earlierMethod: method, method: method))
                }
                return .done(known.result)
            }
            if let running = state.running[commandId] {
                guard running.method == method, running.params == hash else {
                    return .conflict(
                        .commandConflict(commandId: commandId, earlierMethod: running.method, method: method))
                }
                return .wait(running.outcome)
            }
            state.running[commandId] = Running(outcome: CommandOutcome(), method: method, params: hash)
            return .run
        }
    }

    /// Ends a running command with its answer.
    package func finish(_ commandId: String, with result: Result<JSONValue, any Error>) {
        let running = state.withLock { state in
            let running = state.running.removeValue(forKey: commandId)
            // The ledger has the id once the command's events are committed (before this answer); a command
            // that changed nothing is not remembered, and neither are its params.
            if let running, state.ledger.remembers(commandId) {
                state.params[commandId] = running.params
                if state.params.count > 2 * state.ledger.window {
                    state.params = state.params.filter { id, _ in state.ledger.remembers(id) }
                }
            }
            return running
        }
        running?.outcome.resolve(result)
    }

    /// Folds a committed batch into the ledger.
    ///
    /// Called on the writer's thread before any caller of the batch is answered, so a client that
    /// repeats a command right after its answer finds the result here.
    package func record(_ batch: [EventEnvelope]) {
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
    package var ledger: CommandLedger { state.withLock { $0.ledger } }
}

/// The answer of a running command, awaited by its repeats.
package final class CommandOutcome: Sendable {
    private let answer = Promise<Result<JSONValue, any Error>>()

    func resolve(_ result: Result<JSONValue, any Error>) { answer.fulfill(result) }

    /// Waits for the answer.
    package func value() async -> Result<JSONValue, any Error> { await answer.wait() }
}
