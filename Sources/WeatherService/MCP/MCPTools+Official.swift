import WeatherDomain
import WeatherEngine

extension MCPTool {
    /// The official warnings and air-quality tools, listed after the others.
    static let official: [MCPTool] = [
        MCPTool(
            name: "get_warnings", title: "Official weather warnings",
            description: "The official warnings in force at a place (city, or lat and lon, or favorite; none for "
                + "the current location), from the service of its jurisdiction: the US National Weather Service, "
                + "the Deutscher Wetterdienst by municipality (through Bright Sky), EUMETNET – MeteoAlarm for "
                + "Europe's other countries, and elsewhere the national services' CAP feeds relayed by KDE's FOSS "
                + "Public Alert Server (in beta; each warning names its sender and how it matched the place, "
                + "by polygon or circle). Texts, severity, urgency and certainty as the sender issued them. "
                + "`covered` says whether a service is known to watch the place: an empty list with covered false "
                + "is no all-clear, and the coverage note says why.",
            properties: officialPlaceProperties,
            output: [
                "type": "object", "required": ["location", "warnings", "stale", "coverage", "covered"],
                "properties": [
                    "warnings": ["type": "array", "items": ["type": "object"]], "source": ["type": "string"],
                    "covered": ["type": "boolean"], "problems": ["type": "array", "items": ["type": "string"]],
                    "attribution": ["type": "string"], "coverage": ["type": "string"], "stale": ["type": "boolean"],
                ],
            ], readOnly: true, openWorld: true),
        MCPTool(
            name: "get_air_quality", title: "Air quality",
            description: "Air quality at a place (same place arguments as get_warnings) now and for the next 24 "
                + "hours: European and US AQI, PM2.5, PM10, ozone, NO₂, SO₂, CO, UV index and, in Europe in "
                + "season, pollen. Cached an hour; marked stale when the source cannot be reached.",
            properties: officialPlaceProperties.merging([
                "maxAgeSeconds": [
                    "type": "integer", "minimum": 0, "description": "Refetch when the cached data is older than this.",
                ]
            ]) { first, _ in first },
            output: ["type": "object", "required": ["location", "hourly", "fetchedAt", "stale"]], readOnly: true,
            openWorld: true),
        MCPTool(
            name: "get_nowcast", title: "Precipitation in the next minutes",
            description: "Rain, snow or sleet at a place (same place arguments as get_warnings; none for the "
                + "current location) in the next two hours, minute by minute where the source allows: MET Norway's "
                + "radar in Norway, Sweden, Finland and Denmark (5-minute steps), OpenWeatherMap One Call 3.0 "
                + "(1-minute steps, when configured), else Open-Meteo (15-minute steps, interpolated outside "
                + "Central Europe and North America: `native` says which). The summary says when it starts and "
                + "stops (\"Light rain starting in about 10 min, easing off around 14:40\"). A place no source "
                + "serves gets covered: false and why.",
            properties: officialPlaceProperties.merging([
                "units": [
                    "type": "string", "enum": ["metric", "imperial", "standard"],
                    "description": "Rates in mm/h (metric, standard) or in/h (imperial); default: the settings'.",
                ]
            ]) { first, _ in first },
            output: [
                "type": "object", "required": ["location", "covered", "passedOver"],
                "properties": [
                    "covered": ["type": "boolean"], "source": ["type": "string"], "resolution": ["type": "integer"],
                    "native": ["type": "boolean"], "steps": ["type": "array", "items": ["type": "object"]],
                    "summary": ["type": "object"], "passedOver": ["type": "array", "items": ["type": "object"]],
                ],
            ], readOnly: true, openWorld: true),
    ]

    /// Every tool `tools/list` lists, in order: the weather tools, the current location's, the settings ones,
    /// then the official ones.
    static let listed: [MCPTool] = all + location + settings + official + past + confidence

    /// Looks a listed tool up by name.
    static func listedNamed(_ name: String) -> MCPTool? { listed.first { $0.name == name } }

    private static let officialPlaceProperties: [String: JSONValue] = [
        "city": ["type": "string", "description": "A city name, geocoded to its best match."],
        "lat": ["type": "number", "minimum": -90, "maximum": 90, "description": "Latitude (with lon)."],
        "lon": ["type": "number", "minimum": -180, "maximum": 180, "description": "Longitude (with lat)."],
        "favorite": ["type": "string", "description": "A favorite's id (fav-1) or name."],
    ]
}

extension MCPController {
    /// Begins one of the tools whose engine answer is typed with its own summary line (`get_warnings`,
    /// `get_air_quality`, `get_nowcast`, `get_alerts`); nil for another tool.
    func startOfficialTool(_ name: String, _ arguments: FieldReader, _ origin: Origin) throws -> MCPToolRun? {
        switch name {
        case "get_warnings":
            let place = try PlaceParams(arguments).place
            return {
                let warnings = try await engine.warnings(place, origin: origin)()
                return MCPAnswer(warnings.summary, warnings.json)
            }
        case "get_air_quality":
            let place = try PlaceParams(arguments)
            return {
                let air = try await engine.airQuality(place.place, maxAgeMs: place.maxAgeMs, origin: origin)()
                return MCPAnswer(air.summary, air.json)
            }
        case "get_nowcast":
            let request = try PlaceParams(arguments)
            return {
                let nowcast = try await engine.nowcast(request.place, units: request.units, origin: origin)()
                // No source answered: the answer says why, as a tool error.
                return MCPAnswer(nowcast.summaryLine, nowcast.json, isError: nowcast.answer == nil)
            }
        case "get_alerts":
            let page = try PageParams.read(arguments, defaultLimit: 100)
            return {
                let alerts = try await engine.listAlerts()()
                let overview = AlertsOverview(page: alerts.page(page), inForce: await engine.warningsInForce())
                return MCPAnswer(
                    overview.summary, overview.json, page: MCPAnswer.Page(member: "alerts", offset: page.offset))
            }
        default:
            return nil
        }
    }
}
