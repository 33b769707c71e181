import EventLog
import Providers
import WeatherDomain
import WeatherEngine

/// A JSON-RPC error object, ready to send: a code, a stable `kind` and a message that says what to do.
package struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
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
            message: "Method not found: \(method). The methods are listed in weatherd's documentation, "
                + "in the article \"JSON-RPC reference\".")
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
        "http_not_served": 1017,
    ]

    /// The code of a kind; unknown kinds get 1099 so they still fall in the application range.
    package static func code(for kind: String) -> Int { codes[kind] ?? 1099 }
}

extension RPCError {
    /// The application error for a provider failure.
    package init(_ error: ProviderError) {
        self.init(
            code: ApplicationErrorCode.code(for: error.kind.rawValue), kind: error.kind.rawValue, message: error.message
        )
    }
}

extension RPCError {
    /// The error for an engine failure: its code by kind, and in `data` the facts a client can act on.
    package init(_ failure: some EngineFailure) {
        switch failure {
        case let error as EngineError:
            self.init(error)
        case let error as StartupError:
            self.init(
                code: ApplicationErrorCode.code(for: error.kind), kind: error.kind, message: error.message,
                details: error.damage?.details ?? [:])
        default:
            self.init(code: ApplicationErrorCode.code(for: failure.kind), kind: failure.kind, message: failure.message)
        }
    }

    private init(_ error: EngineError) {
        switch error {
        case .unsupportedForecastType(_, let requested, let supported):
            self.init(
                code: -32602, kind: error.kind, message: error.message,
                details: [
                    "supported": .array(supported.map { .string($0.rawValue) }),
                    "requested": .string(requested.rawValue),
                ])
        case .commandConflict(let commandId, let earlier, _):
            self.init(
                code: -32602, kind: error.kind, message: "Invalid params: \(error.message)",
                details: ["commandId": .string(commandId), "method": .string(earlier)])
        case .logDamaged(let damage):
            self.init(
                code: ApplicationErrorCode.code(for: error.kind), kind: error.kind, message: error.message,
                details: damage.details)
        case .httpNotServed:
            self = .application(error.kind, error.message)
        case .logKeptChanging:
            self = .invalidRequest(error.message)
        case .inconsistent:
            self = .internalError
        }
    }
}

extension StartupError {
    /// The line written on stdout before exiting, so a client waiting for JSON gets an answer, not only EOF.
    package var responseLine: String {
        JSONValue.object(["jsonrpc": "2.0", "id": .null, "error": RPCError(self).json]).jsonString
    }
}

extension StartupError.DamagePlace {
    /// The error's `data` members naming the place: `file`, `line` when known, `seq`, `offset`.
    var details: [String: JSONValue] {
        var details: [String: JSONValue] = ["file": .string(file), "seq": .int(seq), "offset": .int(offset)]
        if let line { details["line"] = .int(line) }
        return details
    }
}

extension LogDamage {
    /// The error's `data` members naming the place: `file`, `line`, `seq`, `offset`.
    var details: [String: JSONValue] {
        ["file": .string(path), "line": .int(line), "seq": .int(seq), "offset": .int(offset)]
    }
}
