import EventLog
import WeatherDomain

/// Rebuilds state by folding the log: at start-up, and for `state/verify`.
///
/// Replay only rebuilds state: it never fetches, alerts or notifies.
public enum Replay {
    /// The result of a replay.
    public struct Result: Sendable {
        public var state: WeatherState
        public var outcome: LogReader.Outcome
        /// Events of a known type whose payload did not decode, skipped like unknown ones.
        public var undecodable: Int
    }

    /// Folds the log at `path` into a fresh state.
    ///
    /// - Parameters:
    ///   - through: stop after this seq (the whole valid log when nil).
    ///   - limit: ignore bytes past this offset (a committed length).
    /// - Throws: `LogDamage` for damage other than a torn tail, `ReplayError` for an intact line whose
    ///   `data` is not a JSON object, `StorageError` when the file cannot be read.
    public static func run(
        path: String, commandWindow: Int, through: Int64? = nil, limit: Int64? = nil,
        catalog: EventCatalog = .standard, logger: Logger? = nil
    ) throws -> Result {
        var state = WeatherState(commandWindow: commandWindow)
        var undecodable = 0
        let outcome = try LogReader.read(path: path, limit: limit) { envelope, offset in
            if let through, envelope.seq > through { return false }
            let data: JSONValue
            do {
                data = try envelope.decodedData()
            } catch {
                throw ReplayError(seq: envelope.seq, offset: offset, detail: "data is not valid JSON: \(error)")
            }
            do {
                switch try catalog.decode(type: envelope.type, version: envelope.v, data: data) {
                case .event(let event): state.apply(event, seq: envelope.seq, corr: envelope.corr)
                case .unknown(let kind): state.skip(kind, seq: envelope.seq)
                }
            } catch {
                undecodable += 1
                state.skip(EventKind(envelope.type, envelope.v), seq: envelope.seq)
                logger?.warning("seq \(envelope.seq) (\(envelope.type) v\(envelope.v)) was skipped: \(error)")
            }
            return true
        }
        return Result(state: state, outcome: outcome, undecodable: undecodable)
    }
}

/// An intact line (its crc holds) whose payload cannot be read: start-up refuses rather than guess.
public struct ReplayError: Error, Sendable, CustomStringConvertible {
    public var seq: Int64
    public var offset: Int64
    public var detail: String

    public var description: String { "seq \(seq) at byte offset \(offset): \(detail)" }
}
