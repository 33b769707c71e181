import WeatherDomain
import WeatherEngine

extension MCPTool {
    /// How sure the forecast is, how the models agree and how good the forecasts have been, listed last.
    static let confidence: [MCPTool] = [
        MCPTool(
            name: "get_forecast_confidence", title: "How sure the forecast is",
            description: "How sure the forecast at a place is (city, or lat and lon, or favorite; none for the "
                + "current location): for each day from today (days: 1–16, default all the model reaches) the "
                + "10th, 25th, 50th, 75th and 90th percentiles of an ensemble's members for the day's high, low and "
                + "precipitation, the share of members with precipitation (0.1 mm or more), and a label high, "
                + "medium or low (high: the 10–90 % band of the high and low at most 3 °C wide and at most 20 % or at "
                + "least 80 % of members wet; low: a band of 6 °C or more, or 35–65 % of members wet); for each of "
                + "the next 48 hours the temperature's percentiles and the share of wet members. From Open-Meteo's "
                + "Ensemble API (ECMWF IFS 0.25°, 51 members, unless weatherd runs with another --ensemble-model), "
                + "or MET Norway's own 10th and 90th percentiles when it is the provider. The members' spread, not a "
                + "calibrated probability.",
            properties: confidenceProperties.merging([
                "days": ["type": "integer", "minimum": 1, "maximum": 16, "description": "Days from today."]
            ]) { first, _ in first },
            output: [
                "type": "object", "required": ["location", "model", "method", "days", "hours"],
                "properties": [
                    "days": ["type": "array", "items": ["type": "object"]],
                    "hours": ["type": "array", "items": ["type": "object"]],
                ],
            ], readOnly: true, openWorld: true),
        MCPTool(
            name: "compare_models", title: "How the models agree",
            description: "Each day's high, low, precipitation and condition at a place from several deterministic "
                + "weather models (default: ecmwf_ifs025, gfs_seamless, icon_seamless, gem_seamless, "
                + "ukmo_seamless; never best_match), with the range of each figure across the models and the model "
                + "furthest from the others; a model missing at the place, or in a field, is listed as missing. "
                + "From Open-Meteo's forecast API.",
            properties: confidenceProperties.merging([
                "days": ["type": "integer", "minimum": 1, "maximum": 16, "description": "Days from today."],
                "models": [
                    "type": "array", "minItems": 2, "maxItems": 8, "items": ["type": "string"],
                    "description": "Open-Meteo model names, 2 to 8 (not best_match).",
                ],
            ]) { first, _ in first },
            output: [
                "type": "object", "required": ["location", "models", "days", "missingModels"],
                "properties": ["days": ["type": "array", "items": ["type": "object"]]],
            ], readOnly: true, openWorld: true),
        MCPTool(
            name: "get_forecast_accuracy", title: "How good the forecasts have been",
            description: "How good the forecasts weatherd fetched for a place have been, from its own log (compacted "
                + "days included): for each provider and lead time 1–7 days, the mean absolute error, bias and count "
                + "of the daily high and low, and the hit rate and Brier score of a wet day (1 mm or more), against "
                + "ERA5 (Open-Meteo's archive, once it covers the day) or else the current readings weatherd logged "
                + "that day. No figure under 10 days (5 wet days for the hit rate): the counts say how much there is. "
                + "Begins with a sentence such as \"Open-Meteo's day-3 highs here were off by 1.4 °C on average over "
                + "41 days (too warm by 0.3 °C)\".",
            properties: confidenceProperties,
            output: [
                "type": "object", "required": ["location", "providers", "sentence"],
                "properties": ["providers": ["type": "array", "items": ["type": "object"]]],
            ], readOnly: true, openWorld: true),
    ]

    private static let confidenceProperties: [String: JSONValue] = [
        "city": ["type": "string", "description": "A city name, geocoded to its best match."],
        "lat": ["type": "number", "minimum": -90, "maximum": 90, "description": "Latitude (with lon)."],
        "lon": ["type": "number", "minimum": -180, "maximum": 180, "description": "Longitude (with lat)."],
        "favorite": ["type": "string", "description": "A favorite's id (fav-1) or name."],
        "units": [
            "type": "string", "enum": ["metric", "imperial", "standard"],
            "description": "Units of the values; default: the settings'.",
        ],
    ]
}

extension MCPController {
    /// Begins `get_forecast_confidence`, `compare_models` or `get_forecast_accuracy`; nil for another tool. The
    /// texts are written from the engine's typed answers.
    func startConfidenceTool(_ name: String, _ arguments: FieldReader, _ origin: Origin) throws -> MCPToolRun? {
        switch name {
        case "get_forecast_confidence":
            let request = try PlaceParams(arguments)
            let days = try arguments.optionalInt("days").map { Int(clamping: $0) }
            return {
                let answer = try await engine.confidence(
                    request.place, days: days, units: request.units, origin: origin)()
                return MCPAnswer(answer.summaryLine, answer.json)
            }
        case "compare_models":
            let request = try PlaceParams(arguments)
            let days = try arguments.optionalInt("days").map { Int(clamping: $0) }
            let models = try arguments.optionalStrings("models")
            return {
                let answer = try await engine.compareModels(
                    request.place, models: models, days: days, units: request.units, origin: origin)()
                return MCPAnswer(answer.summaryLine, answer.json)
            }
        case "get_forecast_accuracy":
            let request = try PlaceParams(arguments)
            return {
                let answer = try await engine.accuracy(request.place, units: request.units, origin: origin)()
                return MCPAnswer(answer.summaryLine, answer.json)
            }
        default:
            return nil
        }
    }
}
