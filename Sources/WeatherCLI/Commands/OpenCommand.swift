import WeatherDomain

/// `weatherd open`: a link that lets a browser into the HTTP face once, without the token in its address bar.
enum OpenCommand {
    static let command = Command(
        name: "open", summary: "a one-time link to the dashboard for a browser (weatherd serve --http-listen)",
        details: """
            Prints the HTTP face's address with a one-time code (http://127.0.0.1:9466/?code=…). A browser that
            opens it within 2 minutes gets a session cookie (HttpOnly, SameSite=Strict) and is sent on to the
            dashboard at /; the code then works no more. The session reads what the token reads (the dashboard,
            the /v1 queries, /v1/events, /metrics) but changes nothing; a restarted daemon forgets it, and
            `weatherd open` gives a new link. The code is asked of the daemon over its socket, which only you can
            reach; a daemon that answers no HTTP (started without --http-listen) says so, exit status 1.

            example:
              weatherd open
              xdg-open "$(weatherd open)"
            """
    ) { context in
        let link = try await context.call("http/open")
        if context.printedAsJSON(link) { return CLI.Exit.ok }
        context.output.print(link["url"]?.stringValue ?? "")
        return CLI.Exit.ok
    }
}
