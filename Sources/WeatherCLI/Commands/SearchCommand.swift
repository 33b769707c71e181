import WeatherDomain
import WeatherService

/// `weatherd search CITY`: the places the geocoder knows by that name.
enum SearchCommand {
    /// `--limit N`: how many places at most.
    static let limit = CommandOption("--limit", value: .integer(1...5), default: 5, help: "how many places at most")

    static let command = Command(
        name: "search", summary: "find a place by name: its country, region and coordinates",
        details: """
            Asks the provider's geocoder for places called CITY (at least 3 characters) and prints each one's
            name, region, country and LAT,LON, best match first; `--limit` (1…5, default 5) caps how many.
            Any of them can be given to the other commands as LAT,LON, or added with `weatherd favorites add`.
            Nothing found is a message on stderr and exit status 1.

            example:
              weatherd search Springfield --limit 3
              weatherd favorites add 39.80,-89.64 --name Springfield
            """,
        forms: [ArgumentForm([Argument(name: "CITY", isPlace: true)])], options: [limit.option],
        check: { invocation in
            if (invocation.positional.first ?? "").count < 3 {
                throw UsageError("search needs at least 3 characters of a place's name")
            }
        }
    ) { context in
        let query = context.invocation.positional[0]
        let limit = Int64(context.invocation[Self.limit])
        let result = try await context.call(
            "cities/search", ["query": .string(query), "limit": .int(limit)])
        if context.printedAsJSON(result) { return CLI.Exit.ok }
        let candidates = result["candidates"]?.arrayValue ?? []
        guard !candidates.isEmpty else {
            context.output.error("weatherd search: no place called \"\(query)\" was found; check the spelling")
            return CLI.Exit.failed
        }
        context.output.print(
            Text.table(
                candidates.map { place in
                    [
                        place["name"]?.stringValue ?? "?", place["state"]?.stringValue ?? "",
                        place["country"]?.stringValue ?? "", PlaceText.coordinates(place),
                    ]
                }))
        return CLI.Exit.ok
    }
}

/// Places as the commands print them.
enum PlaceText {
    /// `52.52,13.405`: a place's `lat` and `lon`, as a command takes them back.
    static func coordinates(_ place: JSONValue) -> String {
        "\(Text.number(place["lat"]?.doubleValue ?? 0, decimals: 4)),"
            + Text.number(place["lon"]?.doubleValue ?? 0, decimals: 4)
    }

    /// `Berlin, DE`: a place's name and country (what of them it has).
    static func name(_ place: JSONValue?) -> String {
        let parts = [place?["name"]?.stringValue, place?["country"]?.stringValue].compactMap { $0 }
            .filter { !$0.isEmpty }
        return parts.isEmpty ? (place.map(coordinates) ?? "?") : parts.joined(separator: ", ")
    }
}
