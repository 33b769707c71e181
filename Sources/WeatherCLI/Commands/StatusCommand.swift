import Foundation
import WeatherDomain
import WeatherEngine

/// `weatherd status`: what the service is doing.
enum StatusCommand {
    static let command = Command(
        name: "status", summary: "the service: version, data dir, log, provider and its URLs, cache, socket",
        details: """
            Prints the running service's status: its version and pid, the data dir and the log's size, the
            provider, how many upstream calls it made and how many answers the cache saved, how long answers
            are cached, the base URL of each upstream (never a key), every other option the daemon was started
            with otherwise than by default, and the daemon's socket. (--json shows every option it holds.)

            example:
              weatherd status
              weatherd status --json | jq .lastSeq
            """
    ) { context in
        let status = try await context.call("service/status")
        if context.printedAsJSON(status) { return CLI.Exit.ok }
        var rows: [(String, String)] = [
            ("version", "\(status["version"]?.stringValue ?? "?") (pid \(status["pid"]?.intValue ?? 0))"),
            ("data dir", status["dataDir"]?.stringValue ?? "?"),
            (
                "log",
                "\(status["lastSeq"]?.intValue ?? 0) events, \(Text.bytes(status["logBytes"]?.intValue ?? 0)), fsync "
                    + (status["fsync"]?.stringValue ?? "?")
                    + (status["readOnly"]?.boolValue == true
                        ? ", read-only: \(status["readOnlyReason"]?.stringValue ?? "")" : "")
            ),
            ("provider", provider(status)),
            ("upstream", upstreamCalls(status["upstreamCalls"])),
            (
                "cache",
                "current weather \(Text.duration(seconds: status["cacheTtlSeconds"]?.doubleValue ?? 0)), forecasts "
                    + Text.duration(seconds: status["forecastTtlSeconds"]?.doubleValue ?? 0)
                    + ", upstream timeout \(Text.duration(seconds: status["upstreamTimeoutSeconds"]?.doubleValue ?? 0))"
            ),
        ]
        let urls = roles.compactMap { role, label in
            status["baseURLs"]?[role]?.stringValue.map { label.padding(toLength: 12, withPad: " ", startingAt: 0) + $0 }
        }
        for (index, url) in urls.enumerated() { rows.append((index == 0 ? "URLs" : "", url)) }
        for (index, option) in options(status["options"]).enumerated() {
            rows.append((index == 0 ? "options" : "", option))
        }
        rows.append(("up", Text.duration(seconds: status["uptimeSeconds"]?.doubleValue ?? 0)))
        if let socket = status["socket"]?.stringValue {
            rows.append(("socket", "\(socket), connections: \(status["connections"]?.intValue ?? 0)"))
        }
        if let url = status["http"]?["url"]?.stringValue {
            rows.append(
                (
                    "HTTP",
                    "\(url): the dashboard (weatherd open), /{place} (wttr.in), /v1, /v1/events, /mcp, /metrics; \(url):help"
                ))
        }
        if let shipping = status["shipping"] { rows.append(("shipping", Self.shipping(shipping))) }
        context.output.print(Text.table(rows.map { [$0.0, $0.1] }))
        return CLI.Exit.ok
    }

    /// `to nats://127.0.0.1:4222 stream WEATHERD subject weatherd.ab12, shipped through seq 40, lag 2 events`.
    static func shipping(_ shipping: JSONValue) -> String {
        let head =
            "to \(shipping["url"]?.stringValue ?? "?") stream \(shipping["stream"]?.stringValue ?? "?") subject "
            + (shipping["subject"]?.stringValue ?? "?")
        let progress =
            "shipped through seq \(shipping["shippedSeq"]?.intValue ?? 0), lag \(shipping["lagEvents"]?.intValue ?? 0) "
            + "events, \(shipping["published"]?.intValue ?? 0) published since start"
        let state =
            shipping["problem"]?.stringValue.map { "not shipping: \($0)" }
            ?? (shipping["connected"]?.boolValue == true ? "connected" : "connecting")
        return "\(head), \(progress); \(state)"
    }

    /// The base URLs shown, by their role in `service/status`'s `baseURLs`.
    static let roles = [
        ("weather", "weather"), ("geocoding", "geocoding"), ("airQuality", "air"), ("nws", "NWS"),
        ("meteoAlarm", "MeteoAlarm"), ("brightSky", "Bright Sky"), ("fpas", "FOSS Public Alert Server"),
        ("archive", "past"), ("historicalForecast", "recent past"), ("metNorway", "MET Norway"),
        ("ensemble", "ensembles"),
    ]

    /// `--cache-ttl 60`: each option the daemon holds (`service/status`'s `options`) at another value than
    /// its default, in the order of weatherd's option table; the base URLs, shown above, left out.
    static func options(_ held: JSONValue?) -> [String] {
        let defaults = Configuration(dataDirectory: "")
        return Configuration.table.options.compactMap { option in
            guard option.holding != .client, option.placeholder != "URL",
                let value = held?[option.name]?.stringValue, value != option.written(defaults)
            else { return nil }
            return option.holding == .daemonSecret ? "\(option.name) (digest \(value))" : "\(option.name) \(value)"
        }
    }

    /// `openweathermap (One Call 3.0, with a key)`, `open-meteo`.
    static func provider(_ status: JSONValue) -> String {
        let name = status["provider"]?.stringValue ?? "?"
        var notes: [String] = []
        if let api = status["owmApi"]?.stringValue { notes.append(api == "onecall3" ? "One Call 3.0" : "API \(api)") }
        if status["owmKeyDigest"]?.stringValue != nil { notes.append("with a key") }
        return notes.isEmpty ? name : "\(name) (\(notes.joined(separator: ", ")))"
    }

    /// `12 calls (1 failed), 30 answers from the cache, 2 joined a call, 1 stale`: what `upstreamCalls` counts.
    static func upstreamCalls(_ counts: JSONValue?) -> String {
        let count = { (key: String) in counts?[key]?.intValue ?? 0 }
        var text = "\(count("calls")) call\(count("calls") == 1 ? "" : "s")"
        if count("failures") > 0 { text += " (\(count("failures")) failed)" }
        text += ", \(count("cacheHits")) answered from the cache"
        if count("sharedCalls") > 0 { text += ", \(count("sharedCalls")) joined a call in flight" }
        if count("notFoundHits") > 0 { text += ", \(count("notFoundHits")) known not found" }
        if count("staleAnswers") > 0 { text += ", \(count("staleAnswers")) served stale" }
        return text
    }
}
