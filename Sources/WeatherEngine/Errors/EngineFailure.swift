import EventLog
import WeatherDomain

/// A failure the engine reports to its faces: a stable machine-readable `kind` and a message that says what
/// to do. Each face maps it to its own wire (a JSON-RPC error code, an MCP tool error, a CLI exit status).
package protocol EngineFailure: Error, Sendable {
    var kind: String { get }
    var message: String { get }
}

extension DomainError: EngineFailure {}

extension StorageFailure: EngineFailure {
    package var kind: String { "storage_failure" }
}

/// What the engine itself refuses or fails with, beside the domain's, the providers' and the log's errors.
package enum EngineError: EngineFailure, Equatable {
    /// The provider gives no forecast of the `requested` type; it gives the `supported` ones.
    case unsupportedForecastType(provider: String, requested: ForecastType, supported: [ForecastType])
    /// A `commandId` was used before for another method (`earlierMethod`) or, when it is `method`, other params.
    case commandConflict(commandId: String, earlierMethod: String, method: String)
    /// The log is damaged where a request had to read it.
    case logDamaged(LogDamage)
    /// The log kept changing while it was being verified.
    case logKeptChanging
    /// An answer of the wrong shape reached the engine: a bug, reported as an internal error.
    case inconsistent(String)
    /// The daemon answers no HTTP (it runs without `--http-listen`).
    case httpNotServed

    package var kind: String {
        switch self {
        case .unsupportedForecastType: "unsupported_forecast_type"
        case .commandConflict: "command_conflict"
        case .logDamaged: "log_damaged"
        case .logKeptChanging: "invalid_request"
        case .inconsistent: "internal_error"
        case .httpNotServed: "http_not_served"
        }
    }

    package var message: String {
        switch self {
        case .unsupportedForecastType(let provider, let requested, let supported):
            "\(provider) gives no \(requested.rawValue) forecast; ask for type "
                + "\(supported.map(\.rawValue).joined(separator: ", ")) instead."
        case .commandConflict(let commandId, let earlier, let method):
            "commandId \"\(commandId)\" was used "
                + (earlier == method
                    ? "with other params; a repeat must send the same params"
                    : "for \(earlier); a repeat must be the same method with the same params")
                + ". Use a new commandId for this \(method)."
        case .logDamaged(let damage):
            "The event log is damaged at \(damage.path) line \(damage.line) (seq \(damage.seq), byte offset "
                + "\(damage.offset)): \(damage.problem.detail). Events before it can be read; run "
                + "`weatherd log verify`, and restore the file from a backup."
        case .logKeptChanging:
            "the log kept changing during verification; try again"
        case .inconsistent(let what):
            "internal inconsistency: \(what)"
        case .httpNotServed:
            "this weatherd answers no HTTP; start it with `weatherd serve --http-listen 127.0.0.1` (or stop it and "
                + "let the next command start it with that option)."
        }
    }
}
