import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd forecast [PLACE]`: the days ahead (or, with `--hourly`, every forecast step) in aligned columns.
enum ForecastCommand {
    static let command = Command(
        name: "forecast", summary: "the forecast in columns: the days ahead, or every step with --hourly",
        details: """
            PLACE is a city, LAT,LON, a favorite's name or id, or nothing for the current location. Prints one
            row per day by the place's local date (low, high, the day's highest chance of precipitation,
            sunrise and sunset in local time; once `weatherd climate` has cached the place's climate, a "vs
            normal" column: the high against the 1991–2020 normal high, +3°; a "±" column: half the 10–90 %
            range of an ensemble's highs, from weather/confidence, left out when it cannot be had), or with --hourly one row per
            hour (the next 48; where the provider has no hourly steps, its 3-hourly ones, said on stderr) under
            its local date. --days N (1…\(ForecastDetail.days.upperBound), default all) is how many days. Colour only on a terminal, and never
            with NO_COLOR set. --json prints the weather/forecast result instead.

            example:
              weatherd forecast Berlin --days 3
              weatherd forecast 48.86,2.35 --hourly --units imperial
            """,
        forms: [ArgumentForm([Argument.place.orNone])],
        options: [days.option, hourly.option, SharedOptions.units.option]
    ) { context in
        let hourly = context.invocation[Self.hourly]
        if !hourly { try await askSpread(context) }
        let answer: JSONValue?
        do {
            answer = try await request(context, type: hourly ? .hourly : .threeHourly)
        } catch let error as RPCError where hourly && error.kind == "unsupported_forecast_type" {
            // OpenWeatherMap 2.5 has 3-hourly steps only: those, said so, rather than nothing.
            context.output.error("weatherd forecast: the provider gives no hourly forecast; its 3-hourly steps follow")
            answer = try await request(context, type: .threeHourly)
        }
        guard let forecast = answer else { return CLI.Exit.ok }
        let page = ForecastPage(forecast)
        context.output.print(page.heading(now: context.now(), output: context.output))
        context.output.print(hourly ? page.steps(context.output) : page.days(context.output))
        return CLI.Exit.ok
    }
}

extension ForecastCommand {
    /// The `weather/forecast` result for the command's PLACE, `--days` and `--units`, its steps of `type`; with
    /// `--json` it is printed here and nil returned (the command has nothing more to do).
    static func request(_ context: Context, type: ForecastType = .threeHourly) async throws -> JSONValue? {
        var params = try await NowCommand.weatherParams(context)
        params["type"] = .string(type.rawValue)
        if let days = context.invocation[Self.days] { params["days"] = .int(Int64(days)) }
        let forecast = try await context.call("weather/forecast", params)
        guard context.json else { return forecast }
        context.output.print(forecast.jsonString)
        return nil
    }

    /// Asks `weather/confidence` for the place (unless `--json`), so the forecast answered next carries each day's
    /// spread, which the engine keeps; weatherd's refusal of it costs only the "±" column.
    ///
    /// It costs no upstream call beyond what the spread itself costs: with MET Norway, the spread comes in the
    /// forecast's own answer, so the ask fetches (or finds cached) the forecast the command then reads from the
    /// cache, one call for both; otherwise it is the ensemble's call, once per place and model run however many ask.
    ///
    /// - Throws: what the connection to weatherd throws (not an `RPCError`).
    static func askSpread(_ context: Context) async throws {
        guard !context.json else { return }
        do {
            _ = try await context.call("weather/confidence", try await NowCommand.weatherParams(context))
        } catch is RPCError {
            // Without a message: the spread only adds a column (the ensemble unreachable, a model that does not
            // reach the place), and the forecast's own call reports an error the two share (an unknown place).
        }
    }

    /// `--days N`: how many days, as many as the forecast method takes.
    static let days = CommandOption(
        "--days", value: .integer(ForecastDetail.days), help: "how many days (default all the provider gives)")

    /// `--hourly`: every forecast step rather than one row per day.
    static let hourly = CommandOption("--hourly", help: "one row per forecast step, under its local date")
}

/// A `weather/forecast` result laid out for a terminal.
struct ForecastPage {
    let forecast: JSONValue
    let quantities: Quantities
    /// The place's clocks: its zone's rules, or its one offset from UTC when the zone is unknown.
    let zone: ZoneOffsets
    let entries: [JSONValue]

    init(_ forecast: JSONValue) {
        self.forecast = forecast
        quantities = Quantities(forecast["units"])
        let fetched = Timestamp(rfc3339: forecast["fetchedAt"]?.stringValue ?? "") ?? Timestamp(milliseconds: 0)
        zone = .of(location: forecast["location"], around: fetched)
        entries = forecast["entries"]?.arrayValue ?? []
    }

    /// `Berlin, DE · fetched 14:05 UTC+01:00`, and the stale mark with the data's age.
    func heading(now: Timestamp, output: Output) -> String {
        let location = forecast["location"] ?? .null
        var place = location["name"]?.stringValue ?? ""
        if place.isEmpty {
            place =
                "\(Text.number(location["lat"]?.doubleValue ?? 0, decimals: 2)),"
                + "\(Text.number(location["lon"]?.doubleValue ?? 0, decimals: 2))"
        }
        if let country = location["country"]?.stringValue { place += ", \(country)" }
        let fetched = Timestamp(rfc3339: forecast["fetchedAt"]?.stringValue ?? "") ?? now
        return output.styled(place, "1") + " · fetched " + LocalTime.stamp(fetched, zone: zone)
            + output.staleMark(forecast, now: now)
    }

    /// One row per day: its label, emoji, condition, low, high, chance of precipitation, sunrise and sunset;
    /// and, when the days carry their normal (the place's climate is cached), the high less the normal high.
    func days(_ output: Output) -> String {
        let days = forecast["daily"]?.arrayValue ?? []
        if days.isEmpty { return "no days in the forecast" }
        let unit = forecast["units"]?["temperature"]?.stringValue ?? "°C"
        let withNormal = days.contains { $0["normal"]?["high"] != nil }
        let withSpread = days.contains { $0["spread"]?["high"]?["p90"] != nil }
        var heading = ["day", "", "", "low", "high", "rain", "sunrise", "sunset"]
        if withSpread { heading.insert("±", at: 5) }
        if withNormal { heading.insert("vs normal", at: 5) }
        var rows = [heading]
        for day in days {
            let date = day["date"]?.stringValue ?? ""
            var row = [
                LocalTime.dayLabel(date), Symbols.emoji(day["condition"] ?? .null, night: false),
                day["condition"]?["text"]?.stringValue ?? "",
                quantities.temperature(day["min"], signed: false), quantities.temperature(day["max"], signed: false),
                (day["pop"]?.doubleValue ?? rainChance(on: date)).map(Quantities.percent) ?? "",
                sunTime(day, "sunrise"),
                sunTime(day, "sunset"),
            ]
            if withSpread { row.insert(Self.plusMinus(day["spread"]?["high"], unit: unit), at: 5) }
            if withNormal { row.insert(Anomaly.high(day).map { Anomaly.short($0, unit: unit) } ?? "", at: 5) }
            rows.append(row)
        }
        return output.headedTable(rows).joined(separator: "\n")
    }

    /// `±2°`: half the 10–90 % range of a day's high (`{p10, p90}`), whole degrees; empty without both ends.
    static func plusMinus(_ band: JSONValue?, unit: String) -> String {
        guard let low = band?["p10"]?.doubleValue, let high = band?["p90"]?.doubleValue else { return "" }
        let half = Text.number(((high - low) / 2).rounded(), decimals: 0)
        return "±" + half + (unit.hasPrefix("°") ? "°" : " " + unit)
    }

    /// One row per forecast step, under a heading for each local date.
    func steps(_ output: Output) -> String {
        if entries.isEmpty { return "no forecast steps ahead" }
        let rows = entries.map { entry in
            let time = Timestamp(rfc3339: entry["time"]?.stringValue ?? "") ?? Timestamp(milliseconds: 0)
            return [
                "  " + LocalTime.clock(time, zone: zone).prefix(5),
                Symbols.emoji(entry["condition"] ?? .null, night: isNight(time)),
                entry["condition"]?["text"]?.stringValue ?? "", quantities.temperature(entry["temperature"]),
                entry["feelsLike"].map { "feels " + quantities.temperature($0) } ?? "",
                entry["windSpeed"] == nil
                    ? "" : quantities.wind(speed: entry["windSpeed"], direction: entry["windDirection"]),
                entry["pop"]?.doubleValue.map { "rain " + Quantities.percent($0) } ?? "",
            ]
        }
        let lines = Text.table(rows).split(separator: "\n", omittingEmptySubsequences: false)
        var text: [String] = []
        var shownDate = ""
        for (entry, line) in zip(entries, lines) {
            let date = localDate(entry)
            if date != shownDate {
                text.append(output.styled(LocalTime.dayLabel(date), "1"))
                shownDate = date
            }
            text.append(String(line))
        }
        return text.joined(separator: "\n")
    }

    /// The local date of a forecast step.
    func localDate(_ entry: JSONValue) -> String {
        guard let time = Timestamp(rfc3339: entry["time"]?.stringValue ?? "") else { return "" }
        return LocalTime.date(time, zone: zone)
    }

    /// The highest chance of precipitation (0…1) among the steps on the local `date`; nil when none has one.
    func rainChance(on date: String) -> Double? {
        entries.filter { localDate($0) == date }.compactMap { $0["pop"]?.doubleValue }.max()
    }

    /// `HH:MM` local of a day's `sunrise` or `sunset`; `polar day`/`polar night` when the Sun does not rise or
    /// set; empty when unknown.
    private func sunTime(_ day: JSONValue, _ key: String) -> String {
        if let text = day[key]?.stringValue, let time = Timestamp(rfc3339: text) {
            return String(LocalTime.clock(time, zone: zone).prefix(5))
        }
        return day["polar"]?.stringValue.map { "polar \($0)" } ?? ""
    }

    /// Whether `time` falls outside its local day's sunrise–sunset (or in a polar night).
    func isNight(_ time: Timestamp) -> Bool {
        let date = LocalTime.date(time, zone: zone)
        let day = forecast["daily"]?.arrayValue?.first { $0["date"]?.stringValue == date }
        return Symbols.isNight(time, polar: day?["polar"], sunrise: day?["sunrise"], sunset: day?["sunset"])
    }
}
