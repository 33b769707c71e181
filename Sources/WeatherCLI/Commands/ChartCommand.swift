import Foundation
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `weatherd chart [PLACE]`: the forecast as an SVG chart, to a file or standard output.
enum ChartCommand {
    /// `--out FILE`: where the chart goes, else standard output.
    static let out = CommandOption(
        "--out", value: .path("FILE", .file), help: "write the chart to FILE, whole or not at all")

    static let command = Command(
        name: "chart", summary: "the forecast as an SVG chart (temperature, chance of precipitation, lows and highs)",
        details: """
            PLACE is a city, LAT,LON, a favorite's name or id, or nothing for the current location, as for
            `weatherd now`. The chart shows the temperature as a line and the chance of precipitation as bars,
            hour by hour where the provider has hourly steps (the next 48 hours), then 3-hourly; the days after
            the steps, each as a bar from its low to its high with its chance of precipitation, from the day's
            own figures (Open-Meteo's reach 16 days). A dashed line marks each local midnight, each day has its
            date with its low and high, the nights are shaded, and the place, the units and when the forecast
            was fetched are said; once `weatherd climate` has cached the place's climate, a faint band behind
            each day runs from its 1991–2020 normal low to its normal high; and a band around the temperature
            (then behind each day's bar) shows the 10–90 % range of an ensemble's members, from
            weather/confidence, when it can be had. It is SVG 1.1 without scripts or links.

            --out FILE writes the chart to FILE (whole or not at all) and prints one line; without it the chart
            goes to standard output. --days (1…\(ForecastDetail.days.upperBound), default all) is how many days; --json prints the
            weather/forecast result instead. A file that cannot be written is a message on stderr and exit
            status 1.

            example:
              weatherd chart Berlin --out berlin.svg    wrote berlin.svg (Berlin, 16 days)
              weatherd chart 48.86,2.35 --days 3 --units imperial > paris.svg
            """,
        forms: [ArgumentForm([Argument.place.orNone])],
        options: [out.option, ForecastCommand.days.option, SharedOptions.units.option]
    ) { context in
        try await ForecastCommand.askSpread(context)
        guard let forecast = try await ForecastCommand.request(context) else { return CLI.Exit.ok }
        let svg = Chart.svg(forecast, hourly: try await hourly(context))
        guard let path = context.invocation[Self.out] else {
            context.output.print(String(svg.dropLast()))
            return CLI.Exit.ok
        }
        try save(svg, to: path)
        context.output.print("wrote \(path) (\(summary(forecast)))")
        return CLI.Exit.ok
    }

    /// The forecast's hourly steps, as `weather/forecast` gives them (the next 48 hours); nil from a provider
    /// without them (OpenWeatherMap 2.5), whose 3-hourly steps are then drawn alone.
    static func hourly(_ context: Context) async throws -> JSONValue? {
        do {
            return try await ForecastCommand.request(context, type: .hourly)
        } catch let error as RPCError where error.kind == "unsupported_forecast_type" {
            return nil
        }
    }

    /// `Berlin, 5 days`: the place (or its coordinates) and how many days the forecast has.
    static func summary(_ forecast: JSONValue) -> String {
        let location = forecast["location"]
        let place =
            location?["name"]?.stringValue
            ?? "\(location?["lat"]?.doubleValue ?? 0),\(location?["lon"]?.doubleValue ?? 0)"
        let days = forecast["daily"]?.arrayValue?.count ?? 0
        return "\(place), \(days) \(days == 1 ? "day" : "days")"
    }

    /// Writes `text` to `path` whole or not at all: into a new file beside it, flushed to the disk, then
    /// renamed over `path`. The new file is removed when anything fails.
    static func save(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).tmp"
        ).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, code: errno) }
        var failure = Descriptor.writeAll(descriptor, Array(text.utf8))
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, code: failure)
        }
    }

    /// A chart that could not be written: the file and the system's reason.
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var code: Int32

        var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
    }
}
