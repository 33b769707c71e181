import WeatherDomain
import WeatherService

/// `weatherd warnings [PLACE]`: the official weather warnings in force there.
enum WarningsCommand {
    static let command = Command(
        name: "warnings",
        summary: "the official weather warnings in force (US NWS, DWD, MeteoAlarm, worldwide CAP feeds)",
        details: """
            Prints the warnings a national weather service has in force for PLACE (as for `weatherd now`; nothing
            for the current location): severity, event, until when, and the sender's headline, then the
            source's attribution (and, from the FOSS Public Alert Server, who issued each warning). A place no
            source covers prints why, and so does one where no source is known to watch it: that is no
            all-clear. --json prints the whole answer, with the senders' descriptions and instructions.

            example:
              weatherd warnings Vienna
              weatherd warnings 40.71,-74.01 --json | jq '.warnings[].headline'
            """,
        forms: [ArgumentForm([Argument.place.orNone])]
    ) { context in
        let result = try await context.call("warnings/list", try await NowCommand.placeParams(context))
        if context.printedAsJSON(result) { return CLI.Exit.ok }
        let place = PlaceText.name(result["location"])
        let warnings = result["warnings"]?.arrayValue ?? []
        guard result["source"] != nil else {
            context.output.print("\(place): no warnings source covers it (\(result["coverage"]?.stringValue ?? ""))")
            return CLI.Exit.ok
        }
        let stale = context.output.staleMark(result, now: context.now())
        if warnings.isEmpty, result["covered"]?.boolValue == false {
            context.output.print("\(place): no warnings known\(stale) (\(result["coverage"]?.stringValue ?? ""))")
        } else if warnings.isEmpty {
            context.output.print("\(place): no warnings in force\(stale)")
        } else {
            context.output.print("\(place): \(warnings.count) warning\(warnings.count == 1 ? "" : "s")\(stale)")
            context.output.print(Text.table(warnings.map { row($0, location: result["location"]) }))
        }
        if result["source"]?.stringValue == OfficialWarning.Source.fpas.rawValue, !warnings.isEmpty {
            var senders: [String] = []
            for sender in warnings.compactMap({ $0["sender"]?.stringValue }) where !senders.contains(sender) {
                senders.append(sender)
            }
            context.output.print(context.output.styled("issued by \(senders.joined(separator: "; "))", "2"))
        }
        if let attribution = result["attribution"]?.stringValue {
            context.output.print(context.output.styled(attribution, "2"))
        }
        return CLI.Exit.ok
    }

    /// A warning's row: severity, event, until when (with its zone: the place's when the answer's `location`
    /// names it, else UTC), headline.
    static func row(_ warning: JSONValue, location: JSONValue?) -> [String] {
        let until = (warning["ends"] ?? warning["expires"])?.stringValue.flatMap { Timestamp(rfc3339: $0) }.map {
            "until " + LocalTime.stamp($0, zone: .of(location: location, around: $0))
        }
        return [
            warning["severity"]?.stringValue ?? "", warning["event"]?.stringValue ?? "", until ?? "",
            warning["headline"]?.stringValue ?? "",
        ]
    }
}

/// `weatherd air [PLACE]`: the air quality there now.
enum AirCommand {
    /// The pollutants and pollens shown, with their names for people.
    static let fields: [(key: String, label: String)] = [
        ("pm2_5", "PM2.5"), ("pm10", "PM10"), ("ozone", "ozone"), ("nitrogenDioxide", "NO₂"),
        ("sulphurDioxide", "SO₂"), ("carbonMonoxide", "CO"), ("alderPollen", "alder pollen"),
        ("birchPollen", "birch pollen"), ("grassPollen", "grass pollen"), ("mugwortPollen", "mugwort pollen"),
        ("olivePollen", "olive pollen"), ("ragweedPollen", "ragweed pollen"),
    ]

    static let command = Command(
        name: "air", summary: "the air quality now: indices, pollutants, pollen",
        details: """
            Prints the air quality at PLACE (as for `weatherd now`; nothing for the current location) for the
            hour holding now: the European and US indices where the source gives them, the pollutants and the
            pollen, each in its unit. Stale data is marked with its age. --json prints the whole answer, with
            the next 24 hours.

            example:
              weatherd air Milan
            """,
        forms: [ArgumentForm([Argument.place.orNone])]
    ) { context in
        let result = try await context.call("weather/airQuality", try await NowCommand.placeParams(context))
        if context.printedAsJSON(result) { return CLI.Exit.ok }
        let stale = context.output.staleMark(result, now: context.now())
        context.output.print("\(PlaceText.name(result["location"]))\(stale)")
        guard let current = result["current"] else {
            context.output.print("no air quality for the hour now")
            return CLI.Exit.ok
        }
        context.output.print(Text.table(rows(current, units: result["units"])))
        return CLI.Exit.ok
    }

    /// The rows of what the hour has: the indices, then each pollutant and pollen with its unit.
    static func rows(_ current: JSONValue, units: JSONValue?) -> [[String]] {
        var rows: [[String]] = []
        if let index = current["europeanAqi"]?.doubleValue {
            rows.append([
                "European AQI", Text.number(index, decimals: 0), current["europeanAqiLevel"]?.stringValue ?? "",
            ])
        }
        if let index = current["usAqi"]?.doubleValue { rows.append(["US AQI", Text.number(index, decimals: 0)]) }
        if let index = current["owmAqi"]?.doubleValue { rows.append(["AQI (1…5)", Text.number(index, decimals: 0)]) }
        for field in fields {
            guard let value = current[field.key]?.doubleValue else { continue }
            let unit = field.key.hasSuffix("Pollen") ? "pollen" : "concentration"
            rows.append([field.label, Text.number(value, decimals: 1), units?[unit]?.stringValue ?? ""])
        }
        return rows
    }
}
