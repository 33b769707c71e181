import WeatherDomain
import WeatherEngine

extension MCPTool {
    /// The past and the climate, listed after the official tools.
    static let past: [MCPTool] = [
        MCPTool(
            name: "get_history", title: "Past weather",
            description: "The weather of past days at a place (city, or lat and lon, or favorite; none for the "
                + "current location), from ERA5 reanalysis since 1940 (Open-Meteo's archive): each day's low, high, "
                + "mean, precipitation, wind max and condition, with the source of each day (era5 final, era5t "
                + "preliminary, weatherd-log for the last days ERA5 does not reach yet, historical-forecast where weatherd's "
                + "log has none either); hours too with "
                + "hourly: true. At most 10 years per call; dates are the place's local dates.",
            properties: placeProperties.merging([
                "from": ["type": "string", "description": "The first local date, YYYY-MM-DD, from 1940-01-01."],
                "to": ["type": "string", "description": "The last local date, YYYY-MM-DD, up to today."],
                "hourly": ["type": "boolean", "description": "The hours as well."],
                "units": unitsProperty,
            ]) { first, _ in first },
            required: ["from", "to"],
            output: [
                "type": "object", "required": ["location", "from", "to", "days"],
                "properties": ["days": ["type": "array", "items": ["type": "object"]]],
            ], readOnly: true, openWorld: true),
        MCPTool(
            name: "get_climate", title: "Normal and records",
            description: "What is normal at a place for a calendar day (date, default today there): the 1991–2020 "
                + "normal low and high (±7 days around it), the record high and low since 1940 with their years, "
                + "and how the forecast's high and low for the day compare (\"6 °C above normal\"). From one ERA5 "
                + "fetch of every day since 1940, cached a year.",
            properties: placeProperties.merging([
                "date": ["type": "string", "description": "A local date, YYYY-MM-DD; default today at the place."],
                "units": unitsProperty,
            ]) { first, _ in first },
            output: [
                "type": "object", "required": ["location", "date", "normal", "records", "sentence"],
                "properties": ["normal": ["type": "object"], "records": ["type": "object"]],
            ], readOnly: true, openWorld: true),
        MCPTool(
            name: "get_forecast_changes", title: "How the forecast changed",
            description: "How the forecast of coming days at a place changed across every fetch weatherd made of it "
                + "(\"Saturday's high has dropped from 14 °C to 9 °C since Thursday; rain chance up from 20 % to "
                + "70 %\"): each fetch's low, high, precipitation chance and amount and condition for the date, "
                + "oldest first, and what changed between consecutive fetches. From weatherd's own log; no weather "
                + "call. A date (YYYY-MM-DD), or days: the next N local dates from today (default 3).",
            properties: placeProperties.merging([
                "date": ["type": "string", "description": "A local date, YYYY-MM-DD."],
                "days": ["type": "integer", "minimum": 1, "maximum": 16, "description": "The next N dates."],
                "units": unitsProperty,
            ]) { first, _ in first },
            output: [
                "type": "object", "required": ["location", "today", "dates"],
                "properties": ["dates": ["type": "array", "items": ["type": "object"]]],
            ], readOnly: true, openWorld: false),
    ]

    private static let placeProperties: [String: JSONValue] = [
        "city": ["type": "string", "description": "A city name, geocoded to its best match."],
        "lat": ["type": "number", "minimum": -90, "maximum": 90, "description": "Latitude (with lon)."],
        "lon": ["type": "number", "minimum": -180, "maximum": 180, "description": "Longitude (with lat)."],
        "favorite": ["type": "string", "description": "A favorite's id (fav-1) or name."],
    ]

    private static let unitsProperty: JSONValue = [
        "type": "string", "enum": ["metric", "imperial", "standard"],
        "description": "Units of the values; default: the settings'.",
    ]
}

extension MCPController {
    /// Begins `get_history`, `get_climate` or `get_forecast_changes`; nil for another tool.
    func startPastTool(_ name: String, _ arguments: FieldReader, _ origin: Origin) throws -> MCPToolRun? {
        switch name {
        case "get_history":
            let request = try PlaceParams(arguments)
            let from = try arguments.optionalString("from") ?? ""
            let to = try arguments.optionalString("to") ?? ""
            let hourly = try arguments.optionalBool("hourly") ?? false
            return {
                let history = try await engine.history(
                    request.place, from: from, to: to, hourly: hourly, units: request.units, origin: origin)()
                return MCPAnswer(history.summaryLine, history.json)
            }
        case "get_climate":
            let request = try PlaceParams(arguments)
            let date = try arguments.optionalString("date")
            return {
                let climate = try await engine.climate(
                    request.place, date: date, units: request.units, origin: origin)()
                let warnings = climate.warnings.map { " (\($0))" }.joined()
                return MCPAnswer(
                    "\(climate.place.name ?? climate.place.key): \(climate.sentence)\(warnings)", climate.json)
            }
        case "get_forecast_changes":
            let request = try PlaceParams(arguments)
            let date = try arguments.optionalString("date")
            let days = try arguments.optionalInt("days").map { Int(clamping: $0) }
            return {
                let changes = try await engine.forecastChanges(
                    request.place, date: date, days: days, units: request.units, origin: origin)()
                return MCPAnswer(changes.summaryLine, changes.json)
            }
        default:
            return nil
        }
    }
}
