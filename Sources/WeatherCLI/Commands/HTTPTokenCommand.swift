import WeatherService

/// `weatherd http-token`: prints the HTTP face's token, for `Authorization: Bearer`.
enum HTTPTokenCommand {
    static let command = Command(
        name: "http-token", summary: "print the token the HTTP face's private routes need",
        details: """
            Prints the token in the data dir's http-token file (mode 0600, made by the first `weatherd serve
            --http-listen`). Send it as `Authorization: Bearer TOKEN` to the /v1 routes and to GET /; keep it
            as secret as the data dir. Without the file it says how it is made and exits 1; a file others may
            read is refused, with the chmod that fixes it.

            example:
              curl -H "Authorization: Bearer $(weatherd http-token)" http://127.0.0.1:9466/v1/favorites
            """,
        local: { context in
            let output = context.output
            do {
                guard let token = try HTTPToken.load(dataDirectory: context.configuration.dataDirectory) else {
                    output.error(
                        "weatherd http-token: no token yet in \(context.configuration.dataDirectory); "
                            + "the first `weatherd serve --http-listen 127.0.0.1` makes it")
                    return CLI.Exit.failed
                }
                output.print(token.text)
                return CLI.Exit.ok
            } catch {
                output.error("weatherd http-token: \(error)")
                return CLI.Exit.failed
            }
        }
    ) { _ in CLI.Exit.ok }
}
