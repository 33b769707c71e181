import WeatherDomain
import WeatherService

/// `weatherd location [set PLACE|LAT,LON | clear]`: the current location, which a command without a PLACE uses.
enum LocationCommand {
    static let command = Command(
        name: "location", summary: "show, set or clear the current location (what a command without PLACE uses)",
        details: """
            The current location is where `weatherd now`, `forecast`, `bar` and the rest look when no PLACE is
            given. `set` takes an address or a city (geocoded) or LAT,LON; the coordinates are kept to
            --location-precision decimals (2 by default, about 1 km). A move of more than 5 km refreshes the
            weather there. `clear` forgets it. Without an action, it prints the location; with none set it finds
            the machine's, as a command without PLACE does (GeoClue on the system bus, else the principal city of
            the time zone, marked approximate; `--auto-location off` does not look), and says where it came from,
            or that none was found (exit status 1).

            example:
              weatherd location set Berlin
              weatherd location set 48.8566,2.3522
              weatherd location
              weatherd location clear
            """,
        forms: [
            ArgumentForm(), ArgumentForm([.action("set"), Argument(name: "PLACE|LAT,LON", isPlace: true)]),
            ArgumentForm([.action("clear")]),
        ],
        check: { invocation in
            if invocation.positional.first == "set", invocation.positional[1].isEmpty {
                throw UsageError("location set takes one PLACE")
            }
        }
    ) { context in
        let words = context.invocation.positional
        if words.first == "clear" {
            let answer = try await context.client.call("location/clear")
            if context.json {
                context.output.print(answer.jsonString)
            } else if let cleared = answer["location"] {
                context.output.print("location cleared: \(describe(cleared))")
            } else {
                context.output.print("no location was set")
            }
            return CLI.Exit.ok
        }
        guard words.first == "set" else {
            let location = try await context.call("location/get", ["autoLocation": .bool(context.autoLocation)])
            context.output.print(context.json ? location.jsonString : describe(location))
            return CLI.Exit.ok
        }
        let params: [String: JSONValue] =
            if let (lat, lon) = try PlaceArgument.coordinates(words[1]) {
                ["lat": .double(lat), "lon": .double(lon)]
            } else {
                ["address": .string(words[1])]
            }
        let location = try await context.call("location/set", params)
        if context.json {
            context.output.print(location.jsonString)
        } else {
            let refreshed = location["refresh"]?.boolValue == true ? " (its weather is being refreshed)" : ""
            context.output.print("location set: \(describe(location))\(refreshed)")
        }
        return CLI.Exit.ok
    }

    /// `Berlin  52.52,13.41  set 2026-05-26T09:50:00.000Z`, and where weatherd found it when it did
    /// (`(approximate location: the principal city of the time zone Europe/Berlin)`).
    static func describe(_ location: JSONValue) -> String {
        let name = location["name"]?.stringValue.map { "\($0)  " } ?? ""
        let since = location["setAt"]?.stringValue.map { "  set \($0)" } ?? ""
        let origin = LocationWording.origin(location).map { "  (\($0))" } ?? ""
        return name + PlaceText.coordinates(location) + since + origin
    }
}
