import WeatherDomain
import WeatherEngine

extension MCPTool {
    /// The official warnings and air-quality tools, listed after the others.
    static let official: [MCPTool] = [
        MCPTool(
            name: "get_warnings", title: "Official weather warnings",
            description: "The official warnings in force at a place (city, or lat and lon, or favorite; none for "
                + "the current location): from the US National Weather Service for US places and from "
                + "EUMETNET – MeteoAlarm for European ones, texts as the sender wrote them. A place neither covers "
                + "gets an empty list and a coverage note. The first text block is a one-line summary.",
            properties: officialPlaceProperties,
            output: [
                "type": "object", "required": ["location", "warnings", "stale", "coverage"],
                "properties": [
                    "warnings": ["type": "array", "items": ["type": "object"]], "source": ["type": "string"],
                    "attribution": ["type": "string"], "coverage": ["type": "string"], "stale": ["type": "boolean"],
                ],
            ], readOnly: true, openWorld: true),
        MCPTool(
            name: "get_air_quality", title: "Air quality",
            description: "Air quality at a place (same place arguments as get_warnings) now and for the next 24 "
                + "hours: European and US AQI, PM2.5, PM10, ozone, NO₂, SO₂, CO, UV index and, in Europe in "
                + "season, pollen. Cached an hour; marked stale when the source cannot be reached. The first text "
                + "block is a one-line summary.",
            properties: officialPlaceProperties.merging([
                "maxAgeSeconds": [
                    "type": "integer", "minimum": 0, "description": "Refetch when the cached data is older than this.",
                ]
            ]) { first, _ in first },
            output: ["type": "object", "required": ["location", "hourly", "fetchedAt", "stale"]], readOnly: true,
            openWorld: true),
    ]

    /// Every tool `tools/list` lists, in order: the weather tools, the settings ones, then the official ones.
    static let listed: [MCPTool] = all + settings + official

    /// Looks a listed tool up by name.
    static func listedNamed(_ name: String) -> MCPTool? { listed.first { $0.name == name } }

    /// The tools whose result begins with a one-line summary for people, before the JSON text block.
    static let summarized: Set<String> = ["get_warnings", "get_air_quality", "get_alerts"]

    private static let officialPlaceProperties: [String: JSONValue] = [
        "city": ["type": "string", "description": "A city name, geocoded to its best match."],
        "lat": ["type": "number", "minimum": -90, "maximum": 90, "description": "Latitude (with lon)."],
        "lon": ["type": "number", "minimum": -180, "maximum": 180, "description": "Longitude (with lat)."],
        "favorite": ["type": "string", "description": "A favorite's id (fav-1) or name."],
    ]
}

extension MCPController {
    /// `tools/call` of a summarized tool: the engine's typed answer gives both the structured result and the
    /// summary line, which comes first in `content`.
    func callSummarizedTool(_ name: String, _ request: MCPRequest, _ call: MethodCall) async throws -> Completion {
        let origin = Origin(cause: call.cause)
        let answer: @Sendable () async throws -> (summary: String, value: JSONValue)
        do {
            let arguments = try FieldReader(call.params.members["arguments"], path: "arguments", allowAbsent: true)
            try arguments.rejectUnknown(MCPTool.listedNamed(name)?.argumentNames ?? [])
            switch name {
            case "get_warnings":
                let place = try PlaceParams(arguments).place
                answer = {
                    let warnings = try await engine.warningsAnswer(place, origin: origin)
                    return (warnings.summary, warnings.json)
                }
            case "get_air_quality":
                let place = try PlaceParams(arguments)
                answer = {
                    let air = try await engine.airQualityAnswer(place.place, maxAgeMs: place.maxAgeMs, origin: origin)
                    return (air.summary, air.json)
                }
            default:
                let page = try PageParams.read(arguments, defaultLimit: 100)
                answer = {
                    let overview = try await engine.alertsOverview(page)
                    return (overview.summary, overview.json)
                }
            }
        } catch {
            let failure = try MCPToolResult.failure(error, version: request.version)
            return Completion { request.result(failure) }
        }
        return Completion {
            do {
                let (summary, value) = try await answer()
                return request.result(MCPToolResult.success(value, summary: summary, version: request.version))
            } catch {
                return request.result(try MCPToolResult.failure(error, version: request.version))
            }
        }
    }
}
