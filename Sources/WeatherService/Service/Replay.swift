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
    }

    /// Folds the log at `path` into a fresh state.
    ///
    /// - Parameters:
    ///   - through: stop after this seq (the whole valid log when nil).
    ///   - limit: ignore bytes past this offset (a committed length).
    /// - Throws: `LogDamage` for damage other than a torn tail; `ReplayError` for an intact line whose
    ///   `data` is not JSON or, for a known type and version, does not match its schema (start-up refuses
    ///   rather than drop an event it cannot read); `StorageError` when the file cannot be read.
    public static func run(
        path: String, commandWindow: Int, through: Int64? = nil, limit: Int64? = nil,
        catalog: EventCatalog = .standard, logger: Logger? = nil
    ) throws -> Result {
        var state = WeatherState(commandWindow: commandWindow)
        let outcome = try LogReader.read(path: path, limit: limit) { envelope, offset in
            if let through, envelope.seq > through { return false }
            let data: JSONValue
            do {
                data = try envelope.decodedData()
            } catch {
                throw ReplayError(seq: envelope.seq, offset: offset, detail: "data is not valid JSON: \(error)")
            }
            let outcome: EventCatalog.Outcome
            do {
                outcome = try catalog.decode(type: envelope.type, version: envelope.v, data: data)
            } catch {
                throw ReplayError(
                    seq: envelope.seq, offset: offset,
                    detail: "\(envelope.type) v\(envelope.v) does not match its schema: \(error)")
            }
            switch outcome {
            case .event(let event): state.apply(event, seq: envelope.seq, corr: envelope.corr)
            case .unknown(let kind):
                state.skip(kind, seq: envelope.seq)
                logger?.debug("seq \(envelope.seq): \(kind) is not known to this build; kept and skipped")
            }
            return true
        }
        return Result(state: state, outcome: outcome)
    }
}

/// An intact line (its crc holds) whose payload cannot be read: start-up refuses rather than guess.
public struct ReplayError: Error, Sendable, CustomStringConvertible {
    public var seq: Int64
    public var offset: Int64
    public var detail: String

    public var description: String { "seq \(seq) at byte offset \(offset): \(detail)" }
}
