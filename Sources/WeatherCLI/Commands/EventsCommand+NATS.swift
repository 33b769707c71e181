import WeatherDomain
import WeatherEngine
import WeatherService

/// `weatherd events --nats URL`: a fleet's trail, every log shipped to the stream (`FleetTrail`).
extension EventsCommand {
    /// `--log-id ID[,ID…]`: with `--nats`, only these logs.
    static let logIDs = CommandOption(
        "--log-id",
        value: OptionValue<[String]>(
            placeholder: "ID[,ID…]",
            read: { text throws(OptionRefusal) in
                let ids = text.split(separator: ",").map(String.init)
                guard !ids.isEmpty else { throw OptionRefusal("must be one or more log ids, comma-separated") }
                return ids
            }, write: { $0.joined(separator: ",") }),
        help: "with --nats: only the events of these logs")

    /// How often `--follow` asks the stream for new events once it has read them all.
    static let pollInterval = Duration.seconds(1)

    /// Runs the command on the stream when `--nats` is on its command line; nil when it is not (it then reads
    /// the data dir's log through weatherd).
    static func fleet(_ context: LocalContext) async -> Int32? {
        let invocation = context.invocation
        let output = context.output
        let nats = invocation.serverOptions.contains { $0 == "--nats" || $0.hasPrefix("--nats=") }
        guard nats, let url = context.configuration.nats else {
            guard invocation[Self.logIDs] == nil else {
                output.error("weatherd events: --log-id goes with --nats URL (a stream's logs)")
                return CLI.Exit.usage
            }
            return nil
        }
        guard invocation[Self.afterSeq] == nil else {
            output.error("weatherd events: --after-seq is a seq of one log; with --nats use --since TIME")
            return CLI.Exit.usage
        }
        let configuration = context.configuration
        do {
            let jetStream = try await JetStream.connect(
                to: url, credentials: try NATSCredentials.load(path: configuration.natsCredentials),
                runtime: context.environment.runtime)
            defer { jetStream.close() }
            var trail = try await FleetTrail(
                jetStream: jetStream, stream: configuration.natsStream, subjectPrefix: configuration.natsSubjectPrefix,
                logIDs: invocation[Self.logIDs] ?? [])
            let wanted = { (event: FleetTrail.Event) in matches(event, invocation) }
            var newest: [FleetTrail.Event] = []
            while let entry = try await trail.next() {
                guard let event = shown(entry, output), wanted(event) else { continue }
                newest.append(event)
                if newest.count > invocation[Self.limit] { newest.removeFirst() }
            }
            for event in newest { print(event, invocation) }
            guard invocation[Self.follow] else { return CLI.Exit.ok }
            while !Task.isCancelled {
                while let entry = try await trail.next() {
                    if let event = shown(entry, output), wanted(event) { print(event, invocation) }
                }
                try await context.environment.clock.sleep(for: pollInterval)
            }
            return CLI.Exit.ok
        } catch  where Task.isCancelled {
            return CLI.Exit.ok
        } catch {
            output.error("weatherd events: \(error)")
            return CLI.Exit.failed
        }
    }

    /// The entry's event; a message that is not one is said on stderr.
    private static func shown(_ entry: FleetTrail.Entry, _ output: Output) -> FleetTrail.Event? {
        switch entry {
        case .event(let event): return event
        case .unreadable(let problem):
            output.error("weatherd events: \(problem)")
            return nil
        }
    }

    /// Whether the event passes `--type` and `--since`.
    private static func matches(_ event: FleetTrail.Event, _ invocation: Invocation) -> Bool {
        if let type = invocation[Self.type], event.envelope["type"]?.stringValue != type { return false }
        if let since = invocation[Self.since] {
            guard let time = event.envelope["ts"]?.stringValue.flatMap({ Timestamp(rfc3339: $0) }), time >= since
            else { return false }
        }
        return true
    }

    /// `LOGID  HOST  seq  time  type  cause  summary`, or with `--json` the envelope with `logId` and `host`.
    private static func print(_ event: FleetTrail.Event, _ invocation: Invocation) {
        if invocation[CLI.json] {
            var envelope = event.envelope.objectValue ?? [:]
            envelope["logId"] = .string(event.logID)
            envelope["host"] = event.host.map { .string($0) }
            return invocation.output.print(JSONValue.object(envelope).jsonString)
        }
        let label = [event.logID, event.host ?? "-"].map { TerminalText.safe($0) }.joined(separator: "  ")
        invocation.output.print(label + "  " + line(Context.shown(event.envelope, json: false)))
    }
}
