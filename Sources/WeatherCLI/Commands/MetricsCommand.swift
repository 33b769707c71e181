import WeatherDomain

/// `weatherd metrics`: the Prometheus exposition, once, for node_exporter's textfile collector.
enum MetricsCommand {
    static let command = Command(
        name: "metrics", summary: "the Prometheus metrics, once (for node_exporter's textfile collector)",
        details: """
            Prints what the daemon's GET /metrics answers (weatherd serve --metrics-listen): the cached weather
            of the current location and of every favorite, the official warnings in force, alerts raised,
            upstream requests and their durations, the log's size and events, the connected clients and the
            build, in the Prometheus text format 0.0.4. It reads the daemon's state only: no upstream call,
            nothing written to the log. --json prints {contentType, text}.

            example:
              weatherd metrics > weatherd.prom.tmp && mv weatherd.prom.tmp weatherd.prom
            """
    ) { context in
        // The text is printed as it came: label values are escaped by the format, and names in them are made
        // terminal-safe by the daemon (a control character becomes U+FFFD), so the file stays valid.
        let answer = try await context.client.call("metrics/get", [:])
        if context.printedAsJSON(answer) { return CLI.Exit.ok }
        let text = answer["text"]?.stringValue ?? ""
        context.output.print(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        return CLI.Exit.ok
    }
}
