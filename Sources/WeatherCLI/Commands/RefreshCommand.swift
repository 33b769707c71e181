import WeatherDomain
import WeatherService

/// `weatherd refresh [PLACE]`: fetch the weather again now, whatever the cache holds.
enum RefreshCommand {
    static let command = Command(
        name: "refresh", summary: "fetch a place's weather again now, or every favorite's (a bar's on-click)",
        details: """
            Calls the provider for PLACE's current weather and forecast (as for `weatherd now`), however fresh
            the cache is; without PLACE, for the current location and every favorite. Every `weatherd bar` on
            those places shows the new weather at once, which makes it a status bar's on-click. Prints one line
            per place; a place the provider could not be reached for is named on stderr, and the exit status
            is 1.

            example:
              weatherd refresh Berlin
              weatherd refresh
            """,
        forms: [ArgumentForm([Argument.place.orNone])]
    ) { context in
        guard context.invocation.positional.first != nil else { return try await refreshAll(context) }
        var params = try await NowCommand.placeParams(context)
        params["maxAgeSeconds"] = .int(0)
        let current = try await context.call("weather/current", params)
        let forecast = try await context.call("weather/forecast", params.merging(["detail": "summary"]) { $1 })
        if context.json {
            context.output.print(JSONValue.object(["current": current, "forecast": forecast]).jsonString)
        }
        let place = PlaceText.name(current["location"])
        if current["stale"]?.boolValue == true || forecast["stale"]?.boolValue == true {
            context.output.error(
                "weatherd refresh: \(place): the provider could not be reached; the weather known is from "
                    + (current["fetchedAt"]?.stringValue ?? "?"))
            return CLI.Exit.failed
        }
        if !context.json { context.output.print("refreshed \(place)") }
        return CLI.Exit.ok
    }

    /// Refreshes the current location and every favorite; status 1 when one failed.
    static func refreshAll(_ context: Context) async throws -> Int32 {
        let result = try await context.call("refresh", ["scope": "all"])
        if context.json { context.output.print(result.jsonString) }
        var status = CLI.Exit.ok
        let places = result["results"]?.arrayValue ?? []
        for place in places {
            let name = place["name"]?.stringValue ?? place["place"]?.stringValue ?? "?"
            if place["ok"]?.boolValue == true {
                if !context.json { context.output.print("refreshed \(name)") }
            } else {
                context.output.error("weatherd refresh: \(name): \(place["error"]?.stringValue ?? "failed")")
                status = CLI.Exit.failed
            }
        }
        if places.isEmpty, !context.json {
            context.output.print("nothing to refresh: no current location and no favorites")
        }
        return status
    }
}
