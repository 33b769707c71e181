import Foundation
import WeatherDomain
import WeatherService

/// `weatherd favorites list|add|remove|rename`.
enum FavoritesCommand {
    /// `--name NAME`: the name of a favorite added by its coordinates.
    static let name = CommandOption(
        "--name", value: .text("NAME"), help: "with add LAT,LON: the favorite's name (required)")
    /// `--names`: only the names.
    static let names = CommandOption("--names", help: "only the favorites' names, one a line")

    static let command = Command(
        name: "favorites", summary: "list, add, remove or rename favorite places, or turn their alerts on or off",
        details: """
            The favorites every client of the data dir shares. `add` geocodes a city (and takes the geocoder's
            name), or takes coordinates with a name; a favorite is named by its id or its name. `--names` prints
            only their names, one a line (what the shell completions read). `notify FAVORITE off` turns the
            alerts about a favorite off (the rules still decide what is alerted about: `weatherd alerts rules`),
            and `on` turns them on again.

            example:
              weatherd favorites add Berlin
              weatherd favorites add 48.8566,2.3522 --name Paris
              weatherd favorites rename Paris "Office"
              weatherd favorites notify Office off
              weatherd favorites
            """,
        forms: [
            ArgumentForm([Argument.action("list").orNone], flags: ["--names"]),
            ArgumentForm([.action("add"), Argument(name: "CITY|LAT,LON", isPlace: true)], flags: ["--name"]),
            ArgumentForm([.action("remove"), .favorite]),
            ArgumentForm([.action("rename"), .favorite, .text("NEW-NAME")]),
            ArgumentForm([.action("notify"), .favorite, .choice("switch", ["on", "off"])]),
        ],
        options: [name.option, names.option],
        check: { invocation in
            let words = invocation.positional
            if words.first == "add", try PlaceArgument.coordinates(words[1]) != nil, invocation[name] == nil {
                throw UsageError("favorites add LAT,LON needs --name NAME")
            }
        }
    ) { context in
        let words = context.invocation.positional
        let result: JSONValue
        switch words.first ?? "list" {
        case "add":
            if let (lat, lon) = try PlaceArgument.coordinates(words[1]) {
                result = try await context.call(
                    "favorites/add",
                    [
                        "name": .string(context.invocation[Self.name] ?? ""), "lat": .double(lat),
                        "lon": .double(lon),
                    ])
            } else {
                result = try await context.call("favorites/add", ["city": .string(words[1])])
            }
            if !context.json { context.output.print("added \(describe(result))") }
        case "remove":
            result = try await context.call("favorites/remove", ["favorite": .string(words[1])])
            if !context.json { context.output.print("removed \(describe(result))") }
        case "rename":
            result = try await context.call(
                "favorites/update", ["favorite": .string(words[1]), "name": .string(words[2])])
            if !context.json { context.output.print("renamed: \(describe(result))") }
        case "notify":
            result = try await context.call(
                "favorites/update", ["favorite": .string(words[1]), "notify": .bool(words[2] == "on")])
            if !context.json { context.output.print("alerts \(words[2]): \(describe(result))") }
        default:
            result = try await list(context)
            if context.invocation[Self.names], !context.json {
                for favorite in result["favorites"]?.arrayValue ?? [] {
                    context.output.print(favorite["name"]?.stringValue ?? "")
                }
            } else if !context.json {
                let favorites = result["favorites"]?.arrayValue ?? []
                if favorites.isEmpty {
                    context.output.print("no favorites yet: weatherd favorites add CITY")
                } else {
                    context.output.print(Text.table(favorites.map(row)))
                }
            }
        }
        if context.json { context.output.print(result.jsonString) }
        return CLI.Exit.ok
    }

    /// Every favorite, page by page, as one `favorites/list` result (as `context` shows answers).
    static func list(_ context: Context) async throws -> JSONValue {
        var favorites: [JSONValue] = []
        var cursor: JSONValue?
        repeat {
            var params: [String: JSONValue] = ["limit": 1000]
            if let cursor { params["cursor"] = cursor }
            let page = try await context.call("favorites/list", params)
            favorites += page["favorites"]?.arrayValue ?? []
            cursor = page["nextCursor"]
        } while cursor != nil
        return ["favorites": .array(favorites)]
    }

    static func row(_ favorite: JSONValue) -> [String] {
        [
            favorite["id"]?.stringValue ?? "", favorite["name"]?.stringValue ?? "",
            favorite["country"]?.stringValue ?? "",
            "\(Text.number(favorite["lat"]?.doubleValue ?? 0, decimals: 4)),"
                + Text.number(favorite["lon"]?.doubleValue ?? 0, decimals: 4),
            favorite["notify"]?.boolValue == false ? "alerts off" : "",
        ]
    }

    static func describe(_ favorite: JSONValue) -> String {
        let country = favorite["country"]?.stringValue.map { ", \($0)" } ?? ""
        return "\(favorite["name"]?.stringValue ?? "?")\(country) (\(favorite["id"]?.stringValue ?? "?"))"
    }
}

/// How a command line names a place.
enum PlaceArgument {
    /// `LAT,LON` (decimal degrees), or nil for a PLACE of another form; checked as every face checks a point
    /// (`Coordinates`).
    ///
    /// - Throws: `UsageError` for two numbers that are not a point on the globe (`91,181`).
    static func coordinates(_ text: String) throws(UsageError) -> (Double, Double)? {
        do throws(FieldError) {
            return try Coordinates(text: text, path: "PLACE").map { ($0.lat, $0.lon) }
        } catch {
            throw UsageError(error.description)
        }
    }

    /// The params of a weather method for PLACE: coordinates, else the id of the favorite whose id or name
    /// it is, else a city; none for the current location.
    ///
    /// Names are compared terminal-safe (`TerminalText`), as the commands show them, so that a favorite whose
    /// name holds a control character is found by its name as typed and as shown.
    static func params(_ place: String?, favorites: [JSONValue]) throws(UsageError) -> [String: JSONValue] {
        guard let place, !place.isEmpty else { return [:] }
        if let (lat, lon) = try coordinates(place) { return ["lat": .double(lat), "lon": .double(lon)] }
        let wanted = TerminalText.safe(place).lowercased()
        let named = favorites.first { favorite in
            favorite["id"]?.stringValue == place
                || favorite["name"]?.stringValue.map { TerminalText.safe($0).lowercased() } == wanted
        }
        if let id = named?["id"]?.stringValue { return ["favorite": .string(id)] }
        return ["city": .string(place)]
    }
}
