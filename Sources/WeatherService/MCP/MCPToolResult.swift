import Providers
import WeatherDomain
import WeatherEngine

/// Builds `CallToolResult`s: the structured result and the same JSON as one text block, or an
/// `isError` result whose text says what to do.
enum MCPToolResult {
    /// A successful tool result (its members; the era adds its own); a `summary` for people comes first.
    static func success(_ value: JSONValue, summary: String? = nil, version: MCPVersion) -> [String: JSONValue] {
        var content: [JSONValue] = [["type": "text", "text": .string(value.jsonString)]]
        if let summary { content.insert(["type": "text", "text": .string(summary)], at: 0) }
        var result: [String: JSONValue] = ["content": .array(content)]
        if version.hasStructuredContent { result["structuredContent"] = value }
        return result
    }

    /// The result for a failed tool call, or the protocol error to answer instead.
    ///
    /// weatherd's application errors (1000–1099) and provider failures are tool errors; invalid
    /// arguments are a tool error from 2025-11-25 on (SEP-1303) and `-32602` before; cancellation
    /// and internal errors stay protocol errors.
    static func failure(_ error: any Error, version: MCPVersion) throws -> [String: JSONValue] {
        let kind: String
        let message: String
        switch error {
        case let problem as FieldError:
            guard version.invalidArgumentsAreToolErrors else { throw RPCError.invalidParams(problem) }
            kind = "invalid_arguments"
            message = "Invalid arguments: \(problem). Check the tool's inputSchema and call it again."
        case let wire as RPCError where (1000...1099).contains(wire.rpcCode):
            (kind, message) = (wire.kind, wire.message)
        case is RPCError, is CancellationError:
            throw error
        case let wire as any WireError:
            (kind, message) = (wire.kind, wire.message)
        case let provider as ProviderError:
            (kind, message) = (provider.kind.rawValue, provider.message)
        default:
            throw error
        }
        let text = [message, hints[kind]].compactMap { $0 }.joined(separator: " ")
        return ["content": [["type": "text", "text": .string(text)]], "isError": true]
    }

    /// What an agent can do about each kind of failure.
    private static let hints: [String: String] = [
        "no_location": "Give the tool a city, lat and lon, or a favorite instead.",
        "not_found": "Check the spelling, or find the place with search_cities or list_favorites.",
        "offline": "The weather provider cannot be reached and nothing is cached; try again later.",
        "timeout": "The weather provider did not answer in time; try again later.",
        "upstream_error": "The weather provider failed; try again later.",
        "bad_upstream_response": "The weather provider answered something unusable; try again later.",
        "rate_limited": "Too many calls to the weather provider; wait a minute and try again.",
        "unauthorized": "The provider refused the API key: set OWM_API_KEY in the MCP server's env, or remove it "
            + "to use Open-Meteo.",
        "storage_failure": "weatherd's disk is full or failing; free space and restart it. Reads still work.",
    ]
}
