import WeatherDomain
import WeatherService

/// `weatherd refresh [PLACE]`: fetch the weather again now, whatever the cache holds.
enum RefreshCommand {
    static let command = Command(
        name: "refresh", summary: "fetch a place's weather again now, or every favorite's (a bar's on-click)",
        details: """
            Calls the provider for PLACE's current weather and forecast (as for `weatherd now`), however fresh
            the cache is, then checks its official warnings, air quality and watched nowcast and runs the alert
            rules; without PLACE, the same for the current location and every favorite. Every `weatherd bar` on
            those places shows the new weather at once, which makes it a status bar's on-click. Prints one line
            per place; a place the provider could not be reached for is named on stderr, and the exit status
            is 1.

            example:
              weatherd refresh Berlin
              weatherd refresh
            """,
        forms: [ArgumentForm([Argument.place.orNone])]
    ) { context in
        let params: [String: JSONValue] =
            context.invocation.positional.first == nil ? ["scope": "all"] : try await NowCommand.placeParams(context)
        return try await refresh(context, params)
    }

    /// Refreshes PLACE, or the current location and every favorite; status 1 when one failed.
    static func refresh(_ context: Context, _ params: [String: JSONValue]) async throws -> Int32 {
        let result = try await context.call("refresh", params)
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
