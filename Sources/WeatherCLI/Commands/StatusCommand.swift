import WeatherDomain

/// `weatherd status`: what the service is doing.
enum StatusCommand {
    static let command = Command(
        name: "status", summary: "the service: version, data dir, log, provider, connections",
        usage: "usage: weatherd status [--json] [options]",
        details: """
            Prints the running service's status (`service/status`): its version and pid, the data dir and the
            log's size, the provider and how many upstream calls it made, and the daemon's socket.

            example:
              weatherd status
              weatherd status --json | jq .lastSeq
            """
    ) { context in
        let status = try await context.client.call("service/status")
        if context.json {
            context.output.print(status.jsonString)
            return CLI.Exit.ok
        }
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
            (
                "provider",
                "\(status["provider"]?.stringValue ?? "?"), \(status["upstreamCalls"]?.intValue ?? 0) upstream calls"
            ),
            ("up", Text.duration(seconds: status["uptimeSeconds"]?.doubleValue ?? 0)),
        ]
        if let socket = status["socket"]?.stringValue {
            rows.append(("socket", "\(socket), connections: \(status["connections"]?.intValue ?? 0)"))
        }
        context.output.print(Text.table(rows.map { [$0.0, $0.1] }))
        return CLI.Exit.ok
    }
}
