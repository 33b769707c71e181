import WeatherDomain
import WeatherEngine

/// A tool of the MCP face: its name, schemas and annotations, in `tools/list` order.
struct MCPTool: Sendable {
    var name: String
    var title: String
    var description: String
    /// The input schema's `properties`.
    var properties: [String: JSONValue]
    var required: [String] = []
    /// The output schema (an object schema).
    var output: JSONValue
    var readOnly: Bool
    var destructive = false
    var idempotent = true
    var openWorld: Bool

    /// The argument names it accepts.
    var argumentNames: Set<String> { Set(properties.keys) }

    /// The tool as `tools/list` lists it in `version`.
    func json(for version: MCPVersion) -> JSONValue {
        var input: [String: JSONValue] = [
            "type": "object", "properties": .object(properties), "additionalProperties": false,
        ]
        if !required.isEmpty { input["required"] = .array(required.map { .string($0) }) }
        var tool: [String: JSONValue] = [
            "name": .string(name), "description": .string(description), "inputSchema": .object(input),
        ]
        if version.hasAnnotations {
            var annotations: [String: JSONValue] = [
                "title": .string(title), "readOnlyHint": .bool(readOnly), "openWorldHint": .bool(openWorld),
            ]
            if !readOnly {
                annotations["destructiveHint"] = .bool(destructive)
                annotations["idempotentHint"] = .bool(idempotent)
            }
            tool["annotations"] = .object(annotations)
        }
        if version.hasStructuredContent {
            tool["title"] = .string(title)
            tool["outputSchema"] = output
        }
        return .object(tool)
    }

    /// The weather and favorites tools, in a fixed order (`listed` has every tool).
    static let all: [MCPTool] =
        [
            MCPTool(
                name: "get_current_weather", title: "Current weather",
                description: "Current conditions at a place: give city, or lat and lon, or favorite (id or name); "
                    + "give none for the current location (set_location sets it). Served from the cache while "
                    + "fresh (10 minutes) and marked stale when the provider cannot be reached. The place is named "
                    + "by the favorite, else the nearest known name. detail: summary (the line and the temperature, "
                    + "wind and condition), standard (the default) or full (the same: every field).",
                properties: placeProperties.merging([
                    "detail": MCPDetail.property(
                        "summary (the line, and a minimal result), standard (the default: every field) or full.")
                ]) { first, _ in first },
                output: object(["location", "current", "fetchedAt", "source", "stale"]), readOnly: true,
                openWorld: true),
            MCPTool(
                name: "get_forecast", title: "Forecast",
                description: "Forecast at a place (same place arguments as get_current_weather): each day's low, high, "
                    + "precipitation, UV and condition for up to \(ForecastDetail.days.upperBound) days (as many as the "
                    + "provider gives); detail \"full\" adds the steps of type: threeHourly, hourly (next 48 h; "
                    + "not from OpenWeatherMap 2.5), twiceDaily (day and night halves) or daily (none); detail \"summary\" gives "
                    + "the line and each day's low, high and condition. A result longer than "
                    + "\(MCPAnswer.maxTextCharacters) characters keeps fewer steps and says truncated: true.",
                properties: placeProperties.merging(forecastProperties) { first, _ in first },
                output: object(["location", "daily", "fetchedAt", "source", "stale"]), readOnly: true, openWorld: true),
            MCPTool(
                name: "search_cities", title: "Search cities",
                description: "Geocodes a city name to up to 5 candidates (name, country, state, lat, lon).",
                properties: [
                    "query": ["type": "string", "minLength": 3, "description": "A city name, 3 characters or more."],
                    "limit": ["type": "integer", "minimum": 1, "maximum": 5, "description": "At most this many (5)."],
                ],
                required: ["query"], output: object(["candidates"]), readOnly: true, openWorld: true),
            MCPTool(
                name: "list_favorites", title: "List favorites",
                description: "The saved favorite places, most recent first (paged with limit and cursor; a page "
                    + "longer than \(MCPAnswer.maxTextCharacters) characters is cut, with truncated: true and the "
                    + "nextCursor of the first left out).",
                properties: paging,
                output: object(["favorites"]), readOnly: true, openWorld: false),
            MCPTool(
                name: "add_favorite", title: "Add a favorite",
                description: "Saves a favorite place: a city name (geocoded), or name with lat and lon. "
                    + "Alerts are on for it.",
                properties: [
                    "city": ["type": "string", "description": "A city to geocode, e.g. \"Berlin\"."],
                    "name": ["type": "string", "description": "The favorite's name (with lat and lon)."],
                    "lat": ["type": "number", "minimum": -90, "maximum": 90],
                    "lon": ["type": "number", "minimum": -180, "maximum": 180],
                    "country": ["type": "string", "description": "ISO 3166 country code (with name)."],
                ],
                output: object(["id", "name", "lat", "lon", "addedAt", "notify"]), readOnly: false, idempotent: false,
                openWorld: true),
            MCPTool(
                name: "remove_favorite", title: "Remove a favorite",
                description: "Removes a favorite place, by id (fav-1) or name.",
                properties: ["favorite": ["type": "string", "description": "The favorite's id or name."]],
                required: ["favorite"], output: object(["id", "name", "lat", "lon"]), readOnly: false,
                destructive: true,
                openWorld: false),
            MCPTool(
                name: "get_alerts", title: "Weather alerts",
                description: "Alerts raised for favorites and the current location (temperature drops, severe "
                    + "weather, daily summaries), most recent first.",
                properties: paging,
                output: object(["alerts"]), readOnly: true, openWorld: false),
            MCPTool(
                name: "refresh_weather", title: "Refresh weather",
                description: "Fetches current weather and forecast again for the current location and/or every "
                    + "favorite, ignoring freshness; reports progress per place and answers within 60 s with a "
                    + "summary (places not done by then are listed as pending).",
                properties: [
                    "scope": [
                        "type": "string", "enum": ["all", "favorites", "current"],
                        "description": "all (default), favorites or current.",
                    ]
                ],
                output: object(["scope", "results"]), readOnly: false, openWorld: true),
        ]

    private static let placeProperties: [String: JSONValue] = [
        "city": ["type": "string", "description": "A city name, geocoded to its best match."],
        "lat": ["type": "number", "minimum": -90, "maximum": 90, "description": "Latitude (with lon)."],
        "lon": ["type": "number", "minimum": -180, "maximum": 180, "description": "Longitude (with lat)."],
        "favorite": ["type": "string", "description": "A favorite's id (fav-1) or name."],
        "units": [
            "type": "string", "enum": ["metric", "imperial", "standard"],
            "description": .string(
                "A whole system for this answer: metric (°C, m/s, hPa, mm, km), imperial (°F, mph, inHg, in, "
                    + "mi) or standard (K, m/s, hPa, mm, km); default: the settings, with their own unit per quantity."),
        ],
        "maxAgeSeconds": [
            "type": "integer", "minimum": 0, "description": "Refetch when the cached data is older than this.",
        ],
    ]

    /// The arguments `get_forecast` takes besides the place's.
    private static let forecastProperties: [String: JSONValue] = {
        let types: [JSONValue] = ForecastType.allCases.map { .string($0.rawValue) }
        let days: JSONValue = [
            "type": "integer", "minimum": .int(Int64(ForecastDetail.days.lowerBound)),
            "maximum": .int(Int64(ForecastDetail.days.upperBound)), "description": "Days to return (default 5).",
        ]
        let detail = MCPDetail.property(
            "summary (the line, and each day's low, high and condition), standard (the default: the days) or full "
                + "(the days, and the steps of type as entries).")
        let type: JSONValue = [
            "type": "string", "enum": .array(types),
            "description": .string(
                "The steps of a full forecast: threeHourly (the default), hourly (the next 48 hours; not with "
                    + "OpenWeatherMap 2.5), twiceDaily (day and night halves, split by sunrise and sunset) or daily "
                    + "(no steps)."),
        ]
        return ["days": days, "detail": detail, "type": type]
    }()

    /// The paging arguments of the list tools.
    private static let paging: [String: JSONValue] = [
        "limit": ["type": "integer", "minimum": 1, "maximum": 1000, "description": "Page size (100)."],
        "cursor": ["type": "string", "description": "nextCursor of the previous page."],
    ]

    /// An object schema requiring `required`.
    private static func object(_ required: [String]) -> JSONValue {
        ["type": "object", "required": .array(required.map { .string($0) })]
    }
}
