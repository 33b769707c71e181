import EventLog
import Synchronization
import WeatherDomain

/// The first damage found in the committed log while serving (start-up from a snapshot does not read
/// the lines before it), for `service/status`.
package final class LogHealth: Sendable {
    private let damage = Mutex<LogDamage?>(nil)

    package init() {}

    /// The damage found so far, if any.
    package var known: LogDamage? { damage.withLock { $0 } }

    /// Remembers `found` (the first one found stays) and returns the error that reports it.
    func report(_ found: LogDamage) -> EngineError {
        damage.withLock { if $0 == nil { $0 = found } }
        return .logDamaged(found)
    }

    /// Reads committed lines of the log in `directory` (up to `limit`, a committed end), where nothing may be
    /// torn.
    ///
    /// - Throws: `EngineError.logDamaged` for damage, also a bad tail inside the committed length (it was
    ///   acknowledged); what `body` and the reader throw otherwise.
    func readCommitted(
        directory: String, start: LogWriter.Position, limit: LogEnd, _ body: (EventEnvelope, LinePlace) throws -> Bool
    ) throws -> LogReader.Outcome {
        let outcome: LogReader.Outcome
        do {
            outcome = try LogReader.read(directory: directory, start: start, limit: limit, body)
        } catch let found as LogDamage {
            throw report(found)
        }
        if let tail = outcome.tail {
            throw report(
                LogDamage(
                    path: directory + "/" + LogFiles.activeName,
                    line: outcome.position.nextSeq - outcome.position.file + 1, seq: outcome.position.nextSeq,
                    offset: tail.offset,
                    problem: LineProblem(tail.reason, "a committed line is damaged"), kind: .damagedLine))
        }
        return outcome
    }
}
