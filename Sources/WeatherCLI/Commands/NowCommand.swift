import WeatherDomain
import WeatherService

/// `weatherd now [PLACE]`: the weather in one line, then exit.
enum NowCommand {
    static let command = Command(
        name: "now", summary: "the weather in one line (wttr.in's formats and %-codes)",
        details: """
            PLACE is a city, LAT,LON, a favorite's name or id, or nothing for the current location. The line
            comes from the cache when it is fresh; when the provider cannot be reached, the last weather known is
            printed with "(stale, AGE old)". With nothing known, a message goes to stderr and the exit status
            is 1. --json prints the weather/current result instead.

            --format takes wttr.in's named formats 1, 2, 3, 4 or a text with %-codes (default "\(OneLine.standard)"):
            \(OneLine.codes.map { "  %\($0.code)".padding(toLength: 7, withPad: " ", startingAt: 0) + $0.meaning }
                .joined(separator: "\n"))

            example:
              weatherd now Berlin                       Berlin: ⛅️ +12°C
              weatherd now --format "%l %c %t %w %r"    Berlin ⛅️ +12°C ↙3m/s 40%
              weatherd now 48.86,2.35 --format 1
              weatherd now Oslo --format "%c %t, %N"     ☁️ +4°C, rain in 12 min
            """,
        forms: [ArgumentForm([Argument.place.orNone])], options: [format.option, SharedOptions.units.option]
    ) { context in
        let format = try OneLine(context.invocation[Self.format])
        let params = try await weatherParams(context)
        let current = try await context.call("weather/current", params)
        if context.printedAsJSON(current) { return CLI.Exit.ok }
        // The forecast adds what the current conditions lack (sun, moon, chance of rain); without it those
        // codes print "?".
        let forecast = format.needsForecast ? try? await context.call("weather/forecast", params) : nil
        let nowcast = format.needsNowcast ? try? await context.call("weather/nowcast", params) : nil
        let now = context.now()
        var line = format.render(current: current, forecast: forecast, nowcast: nowcast, now: now)
        line += context.output.staleMark(current, now: now)
        if try await isApproximate(context) {
            line += " " + context.output.styled("(\(LocationWording.approximate))", "33")
        }
        context.output.print(line)
        return CLI.Exit.ok
    }

    /// `--format`: wttr.in's named formats or %-codes.
    static let format = SharedOptions.format(default: OneLine.standard)

    /// Whether the command's place is the current location and that is only the time zone's city.
    static func isApproximate(_ context: Context) async throws -> Bool {
        guard context.invocation.positional.isEmpty else { return false }
        do {
            return try await context.call("location/get")["approximate"]?.boolValue == true
        } catch let error as RPCError where error.kind == "no_location" {
            // Cleared since the weather was answered: nothing to label.
            return false
        }
    }

    /// The weather methods' params for the command's PLACE and `--units`.
    static func weatherParams(_ context: Context) async throws -> [String: JSONValue] {
        var params = try await placeParams(context)
        if let units = context.invocation[SharedOptions.units] { params["units"] = .string(units) }
        return params
    }

    /// The weather methods' place params for the command's PLACE; without one, the current location, which
    /// weatherd finds when none is set unless `--auto-location off`.
    static func placeParams(_ context: Context) async throws -> [String: JSONValue] {
        guard let place = context.invocation.positional.first else {
            return ["autoLocation": .bool(context.autoLocation)]
        }
        if try PlaceArgument.coordinates(place) != nil { return try PlaceArgument.params(place, favorites: []) }
        let favorites = try await FavoritesCommand.list(context)["favorites"]?.arrayValue ?? []
        return try PlaceArgument.params(place, favorites: favorites)
    }
}
