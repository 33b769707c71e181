import Providers
import WeatherDomain
import WeatherEngine

/// Builds `CallToolResult`s: a one-line summary, then the structured result as JSON, or an `isError`
/// result whose text says what happened and what to do, once each, naming MCP tools.
enum MCPToolResult {
    /// A successful tool result (its members; the era adds its own): the summary line as the first text block
    /// and the JSON as the last, together within `MCPAnswer.maxTextCharacters` (cut to fit when longer);
    /// `isError` when the answer tells of a failure.
    static func success(_ answer: MCPAnswer, version: MCPVersion) -> [String: JSONValue] {
        let capped = answer.capped()
        let content: [JSONValue] = [
            ["type": "text", "text": .string(capped.summary)],
            ["type": "text", "text": .string(capped.value.jsonString)],
        ]
        var result: [String: JSONValue] = ["content": .array(content)]
        if version.hasStructuredContent { result["structuredContent"] = capped.value }
        if answer.isError { result["isError"] = true }
        return result
    }

    /// The result for a failed tool call, or the protocol error to answer instead.
    ///
    /// weatherd's application errors (1000–1099) and provider failures are tool errors; invalid
    /// arguments (a `type` the provider does not give among them) are a tool error from 2025-11-25 on
    /// (SEP-1303) and `-32602` before; cancellation and internal errors stay protocol errors.
    static func failure(_ error: any Error, version: MCPVersion) throws -> [String: JSONValue] {
        let text: String
        switch error {
        case let problem as FieldError:
            guard version.invalidArgumentsAreToolErrors else { throw RPCError.invalidParams(problem) }
            text = "Invalid arguments: \(problem). Check the tool's inputSchema and call it again."
        case let engine as EngineError where engine.kind == "unsupported_forecast_type":
            guard version.invalidArgumentsAreToolErrors else { throw RPCError(engine) }
            text = "Invalid arguments: \(engine.message)"
        case let domain as DomainError:
            text = said(domain.situation, domain.remedy.map(advice) ?? hints[domain.kind])
        case let provider as ProviderError:
            let kind = provider.kind.rawValue
            text = said(provider.situation, provider.remedy.map(advice) ?? hints[kind] ?? provider.advice)
        case let wire as RPCError where (1000...1099).contains(wire.rpcCode):
            text = said(wire.message, hints[wire.kind])
        case is RPCError, is CancellationError:
            throw error
        case let failure as any EngineFailure:
            let wire = RPCError(failure)
            guard (1000...1099).contains(wire.rpcCode) else { throw wire }
            text = said(wire.message, hints[wire.kind])
        default:
            throw error
        }
        return ["content": [["type": "text", "text": .string(text)]], "isError": true]
    }

    /// A situation and, when there is one, the advice after it.
    private static func said(_ situation: String, _ advice: String?) -> String {
        [situation, advice].compactMap { $0 }.joined(separator: " ")
    }

    /// A remedy in the MCP face's terms: its tools and arguments.
    static func advice(_ remedy: Remedy) -> String {
        switch remedy {
        case .listFavorites: "list_favorites shows the ids and names."
        case .searchCities: "Check the spelling, or find the place with search_cities."
        case .removeFavorites: "Remove some with remove_favorite first."
        case .setLocation: "Call set_location first, or give the tool a city, lat and lon, or a favorite."
        }
    }

    /// What an agent can do about the kinds of failure whose own advice is in the terms of JSON-RPC and of
    /// whoever runs weatherd (flags), or that give none.
    private static let hints: [String: String] = [
        "offline": "Nothing is cached for this place yet; try again later.",
        "bad_upstream_response": "Try again later.",
        "unauthorized": "Set OWM_API_KEY in the MCP server's env to a valid key, or remove it to use Open-Meteo.",
        "storage_failure": "Reads still work.",
    ]
}
