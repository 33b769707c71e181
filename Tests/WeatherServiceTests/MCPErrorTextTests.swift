import Providers
import Testing
import WeatherDomain
import WeatherEngine

@testable import WeatherService

@Suite("MCP error texts: MCP's terms, each thing said once")
struct MCPErrorTextTests {
    /// What only the JSON-RPC face, or whoever runs weatherd, can use.
    static let rpcOnly = [
        "weather/", "favorites/", "location/", "cities/", "alerts/", "settings/", "history/", "--provider",
        "--max-favorites", "--max-body-bytes", "base URL",
    ]

    /// Every error a tool call can meet from the domain and the providers.
    static let errors: [any Error] = [
        DomainError.favoriteNotFound("Atlantis"), DomainError.placeNotFound("Atlantis"),
        DomainError.tooManyFavorites(100), DomainError.noLocation,
        DomainError.alreadyExists("A favorite at these coordinates exists already: fav-1 (Berlin)."),
        ProviderError.from(status: 401, headers: [:], provider: "openweathermap")!,
        ProviderError.from(status: 404, headers: [:], provider: "openweathermap")!,
        ProviderError.from(status: 429, headers: ["retry-after": "30"], provider: "open-meteo")!,
        ProviderError.from(status: 503, headers: [:], provider: "open-meteo")!,
        ProviderError.from(status: 302, headers: [:], provider: "open-meteo")!,
        ProviderError.from(TransportError(.offline, "connection refused"), provider: "open-meteo"),
        ProviderError.from(TransportError(.timeout, "30 s"), provider: "open-meteo"),
        ProviderError.from(TransportError.tooLarge(limit: 16 << 20), provider: "open-meteo"),
        ProviderError.badBody("open-meteo", "not JSON"),
    ]

    @Test("no error text names a JSON-RPC method or a flag, and none says a sentence twice")
    func texts() throws {
        for error in Self.errors {
            let result = try MCPToolResult.failure(error, version: .v20251125)
            #expect(result["isError"] == true)
            let text = try #require(result["content"]?.arrayValue?.first?["text"]?.stringValue)
            #expect(Self.rpcOnly.allSatisfy { !text.contains($0) }, "\(text)")
            let sentences = text.split(separator: ".").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty }
            #expect(Set(sentences).count == sentences.count, "\(text)")
            for word in ["try again", "spelling", "refused", "cannot be reached"] {
                #expect(text.lowercased().components(separatedBy: word).count <= 2, "\(word) once: \(text)")
            }
        }
    }

    @Test("each remedy names the MCP tool to use", arguments: Remedy.allCases)
    func remedies(remedy: Remedy) {
        let tools = MCPTool.listed.map(\.name)
        #expect(tools.contains { MCPToolResult.advice(remedy).contains($0) }, "\(remedy)")
        #expect(!MCPToolResult.advice(remedy).contains("/"))
    }

    @Test("a forecast type the provider does not give is a tool error from 2025-11-25 on, -32602 before")
    func unsupportedType() throws {
        let error = EngineError.unsupportedForecastType(
            provider: "openweathermap", requested: .hourly, supported: [.threeHourly, .daily, .twiceDaily])
        let result = try MCPToolResult.failure(error, version: .v20251125)
        #expect(result["isError"] == true)
        let text = try #require(result["content"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(text.hasPrefix("Invalid arguments: openweathermap gives no hourly forecast"), "\(text)")
        #expect(text.contains("threeHourly, daily, twiceDaily"), "\(text)")
        do {
            _ = try MCPToolResult.failure(error, version: .v20250618)
            Issue.record("before 2025-11-25 an invalid argument is a protocol error")
        } catch let wire as RPCError {
            #expect(wire.rpcCode == -32602 && wire.kind == "unsupported_forecast_type")
        }
    }
}
