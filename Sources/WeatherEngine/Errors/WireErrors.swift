import EventLog
import Providers
import WeatherDomain

/// An error that reaches the wire: a JSON-RPC code, a stable `kind` and a message that says what to do.
package protocol WireError: Error, Sendable {
    var rpcCode: Int { get }
    var kind: String { get }
    var message: String { get }
}

/// A JSON-RPC error object, ready to send.
package struct RPCError: WireError, Equatable, CustomStringConvertible {
    package var rpcCode: Int
    package var kind: String
    package var message: String
    /// Members of `data` besides `kind` (MCP's `supported`/`requested`, `uri`).
    package var details: [String: JSONValue]

    package init(code: Int, kind: String, message: String, details: [String: JSONValue] = [:]) {
        self.rpcCode = code
        self.kind = kind
        self.message = message
        self.details = details
    }

    /// Wraps any wire error.
    package init(_ error: some WireError) {
        self.init(code: error.rpcCode, kind: error.kind, message: error.message)
    }

    package var description: String { "\(rpcCode) \(kind): \(message)" }

    /// The error object: `{"code":…,"message":…,"data":{"kind":…}}`.
    package var json: JSONValue {
        var data = details
        data["kind"] = .string(kind)
        return .object(["code": .int(Int64(rpcCode)), "message": .string(message), "data": .object(data)])
    }

    package static func parseError(_ detail: String, kind: String = "parse_error") -> RPCError {
        RPCError(code: -32700, kind: kind, message: "Parse error: \(detail). Send one JSON value per line, UTF-8.")
    }

    package static func invalidRequest(_ detail: String, kind: String = "invalid_request") -> RPCError {
        RPCError(code: -32600, kind: kind, message: "Invalid request: \(detail).")
    }

    package static func methodNotFound(_ method: String) -> RPCError {
        RPCError(
            code: -32601, kind: "method_not_found",
            message: "Method not found: \(method). See the README for the list of methods.")
    }

    package static func invalidParams(_ problem: FieldError) -> RPCError {
        RPCError(code: -32602, kind: "invalid_params", message: "Invalid params: \(problem).")
    }

    package static func invalidParams(_ detail: String) -> RPCError {
        RPCError(code: -32602, kind: "invalid_params", message: "Invalid params: \(detail).")
    }

    package static let internalError = RPCError(
        code: -32603, kind: "internal_error",
        message: "Internal error; the details are on weatherd's standard error. Please report it.")

    package static let cancelled = RPCError(code: -32800, kind: "cancelled", message: "Request cancelled.")

    /// The answer to a line over `--max-line-bytes`.
    package static func lineTooLong(limit: Int) -> RPCError {
        RPCError(
            code: -32600, kind: "line_too_long",
            message: "Invalid request: the line is longer than \(limit) bytes and was skipped; "
                + "send smaller requests or raise --max-line-bytes.")
    }
}

extension RPCError {
    /// An application error of a stable `kind`, with its code from `ApplicationErrorCode`.
    package static func application(_ kind: String, _ message: String) -> RPCError {
        RPCError(code: ApplicationErrorCode.code(for: kind), kind: kind, message: message)
    }
}

/// The JSON-RPC codes of application errors (1000–1099), one per stable kind.
package enum ApplicationErrorCode {
    /// Codes by kind; a kind is never renumbered.
    package static let codes: [String: Int] = [
        "not_found": 1000,
        "no_location": 1001,
        "already_exists": 1002,
        "storage_failure": 1003,
        "offline": 1004,
        "unauthorized": 1005,
        "rate_limited": 1006,
        "timeout": 1007,
        "upstream_error": 1008,
        "bad_upstream_response": 1009,
        "log_damaged": 1010,
        "data_dir_in_use": 1011,
        "too_many_favorites": 1012,
        "daemon_gone": 1013,
        "too_many_connections": 1014,
        "peer_refused": 1015,
        "daemon_unavailable": 1016,
    ]

    /// The code of a kind; unknown kinds get 1099 so they still fall in the application range.
    package static func code(for kind: String) -> Int { codes[kind] ?? 1099 }
}

extension DomainError: WireError {
    package var rpcCode: Int { ApplicationErrorCode.code(for: kind) }
}

extension StorageFailure: WireError {
    package var rpcCode: Int { ApplicationErrorCode.code(for: kind) }
    package var kind: String { "storage_failure" }
}

extension RPCError {
    /// The application error for a provider failure.
    package init(_ error: ProviderError) {
        self.init(
            code: ApplicationErrorCode.code(for: error.kind.rawValue), kind: error.kind.rawValue, message: error.message
        )
    }
}
