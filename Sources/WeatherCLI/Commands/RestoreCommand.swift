import WeatherEngine
import WeatherService

/// `weatherd restore --nats URL --log-id ID --data-dir DIR`: rebuilds a data dir from its log shipped to NATS
/// JetStream (`LogRestore`).
enum RestoreCommand {
    /// `--log-id ID`: the log to restore.
    static let logID = CommandOption(
        "--log-id", value: .text("ID"),
        help: "the log to restore (its id: `weatherd status`, or the subject's last token)")

    static let command = Command(
        name: "restore", summary: "rebuild a data dir from its log shipped to NATS JetStream (--nats)",
        details: """
            Reads every event of the log --log-id ID from the JetStream stream (--nats URL, --nats-stream,
            --nats-subject-prefix and --nats-credentials as for serve), checks each line's crc, the chain and
            the seqs (no gap, no repeat), and writes them as the log of --data-dir DIR, with the same log id:
            the data dir replays to the state the original had at its last shipped event, and a `weatherd serve
            --nats` on it ships on under the same subject. DIR must be new or empty; it is written whole or not
            at all. Restore a machine that is gone: while the original still ships, the two would share one
            subject, and whichever ships second stops and says so.

            example:
              weatherd restore --nats nats://127.0.0.1:4222 --log-id 3f9a0c1b22e47d15 --data-dir /var/lib/weatherd
            """,
        options: [logID.option],
        check: { invocation in
            guard invocation[logID] != nil else { throw UsageError("--log-id ID is required") }
        },
        local: { context in
            let output = context.output
            let configuration = context.configuration
            guard let url = configuration.nats, let id = context.invocation[logID] else {
                output.error("weatherd restore: --nats URL is required (the server that holds the stream)")
                return CLI.Exit.usage
            }
            let directory = configuration.dataDirectory
            do {
                try LogRestore.checkTarget(directory)
                let jetStream = try await JetStream.connect(
                    to: url, credentials: try NATSCredentials.load(path: configuration.natsCredentials),
                    runtime: context.environment.runtime)
                defer { jetStream.close() }
                let outcome = try await LogRestore.run(
                    from: jetStream, stream: configuration.natsStream, subjectPrefix: configuration.natsSubjectPrefix,
                    logID: id, into: directory)
                output.print(
                    "restored log \(id) into \(directory): seqs 1…\(outcome.lastSeq), \(outcome.bytes) bytes, "
                        + "every line checked")
                return CLI.Exit.ok
            } catch {
                output.error("weatherd restore: \(error)")
                return CLI.Exit.failed
            }
        }
    ) { _ in CLI.Exit.ok }
}
