import WeatherDomain
import WeatherEngine

/// What weatherd says about itself: `initialize` and `server/discover` results.
enum MCPDescription {
    /// Guidance for the model, sent as `instructions`.
    static let instructions =
        "weatherd keeps favorite places and serves their weather. Ask get_current_weather or get_forecast "
        + "with a city, lat and lon, or a favorite (id or name); with no place they use the current location, "
        + "which set_location sets. Manage places with list_favorites, add_favorite and remove_favorite, find "
        + "them with search_cities, read raised alerts with get_alerts, official warnings with get_warnings and "
        + "air quality with get_air_quality, and fetch everything again with refresh_weather. Every result "
        + "begins with a one-line summary, then the JSON; detail: summary keeps the weather tools' answers short. "
        + "Answers come from a 10-minute cache and are marked stale when the provider is unreachable."

    /// The server capabilities in `version`.
    static func capabilities(_ version: MCPVersion) -> JSONValue {
        var capabilities: [String: JSONValue] = [
            "tools": ["listChanged": false], "resources": ["subscribe": true, "listChanged": false],
        ]
        if version.hasAnnotations { capabilities["completions"] = [:] }
        if !version.isStateless { capabilities["logging"] = [:] }
        return .object(capabilities)
    }

    /// The `initialize` result.
    static func initialize(_ version: MCPVersion, _ session: MCPSession) -> JSONValue {
        var info = session.serverInfo.objectValue ?? [:]
        if version.hasStructuredContent { info["title"] = "weatherd" }
        return [
            "protocolVersion": .string(version.rawValue), "capabilities": capabilities(version),
            "serverInfo": .object(info), "instructions": .string(instructions),
        ]
    }

    /// The `server/discover` result (always the 2026-07-28 shape; it lists every version).
    static func discover(_ session: MCPSession) -> JSONValue {
        [
            "supportedVersions": .array(MCPVersion.newestFirst.map { .string($0.rawValue) }),
            "capabilities": capabilities(.v20260728), "instructions": .string(instructions),
            "resultType": "complete", "ttlMs": 3_600_000, "cacheScope": "public",
            "_meta": [MCPMeta.serverInfo: session.serverInfo],
        ]
    }
}
