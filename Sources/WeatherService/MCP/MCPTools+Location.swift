import WeatherDomain
import WeatherEngine

extension MCPTool {
    /// The current location's tools, listed after the weather tools.
    static let location: [MCPTool] = [
        MCPTool(
            name: "set_location", title: "Set the current location",
            description: "Sets the current location, which the weather tools use when given no place: lat and "
                + "lon (rounded to about 1 km before weatherd records them), or an address to geocode. A first "
                + "location, or a move of 5 km or more, refreshes the weather of every place in the background.",
            properties: [
                "lat": ["type": "number", "minimum": -90, "maximum": 90, "description": "Latitude (with lon)."],
                "lon": ["type": "number", "minimum": -180, "maximum": 180, "description": "Longitude (with lat)."],
                "address": [
                    "type": "string",
                    "description": "An address or city to geocode, e.g. \"Kathmandu\" (not with lat and lon).",
                ],
            ],
            output: [
                "type": "object", "required": ["lat", "lon", "setAt", "refresh"],
                "properties": [
                    "lat": ["type": "number"], "lon": ["type": "number"], "name": ["type": "string"],
                    "setAt": ["type": "string"], "refresh": ["type": "boolean"], "approximate": ["type": "boolean"],
                ],
            ], readOnly: false, openWorld: true)
    ]
}

extension MCPController {
    /// Begins `set_location`, as `location/set` does; nil for another tool.
    func startLocationTool(_ name: String, _ arguments: FieldReader, _ origin: Origin) async throws -> MCPToolRun? {
        guard name == "set_location" else { return nil }
        let answer = try await engine.setLocation(try LocationController.newLocation(arguments), origin: origin)
        return {
            let location = try await answer()
            return MCPAnswer(MCPSummary.location(location), location.answer)
        }
    }
}

extension MCPController {
    /// What a weather tool's summary adds when it answered for the current location and weatherd found that
    /// only from the time zone: `. The current location is approximate location: …; set_location sets an exact
    /// one`; empty otherwise (a place named, a location set or found by GeoClue).
    static func approximateNote(_ place: PlaceQuery, engine: Engine, origin: Origin) async -> String {
        guard case .currentLocation = place else { return "" }
        let here: Location
        do {
            here = try await engine.currentLocation(autoLocation: false, origin: origin)()
        } catch {
            // Cleared since the weather was answered: nothing to say about it.
            return ""
        }
        guard here.isApproximate, let said = LocationWording.origin(here) else { return "" }
        return ". The current location is an \(said); set_location sets an exact one"
    }
}
