import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService

/// `weatherd bar [PLACE] --style STYLE`: a status-bar module that prints a line at start and a new one
/// whenever what it shows changes.
enum BarCommand {
    static let command = Command(
        name: "bar", summary: "a status-bar module: a new line whenever the weather, its staleness or an alert changes",
        details: """
            Runs until interrupted. Prints one line at start, then a new one whenever the place's weather
            changes (any client's fetch, or the daemon's scheduled refresh), when it turns stale (the provider
            cannot be reached once the cache's --cache-ttl has passed; asked again then, and every minute at
            most while it fails), and when an alert (temperature drop, severe weather) is raised for the place
            (a favorite with alerts on, or the current location). Nothing is printed when nothing changed.
            PLACE and --format are as for `weatherd now` (default format "%c %t").

            --style waybar prints one JSON object per line: text, tooltip (the next hours, the days ahead and
            the alerts, all in the bar's units), class (the condition's theme, plus "stale" and "alert" when
            they apply) and percentage (the chance of rain in the next 6 hours). i3blocks and plain print the
            text, with "⚠ " before it under an alert and "(stale, AGE old)" after it; polybar and tmux colour
            those marks in their own markup. Names and texts from elsewhere show control characters as
            escapes (\u{1B}), and never carry polybar's or tmux's markup.

            When the daemon goes away the last line is printed again marked stale and the command exits with
            status 69 (the bar's own restart setting starts it again); when whoever reads it goes away, it
            exits with status 1.

            example:
              weatherd bar Berlin --style waybar
              weatherd bar --style tmux --format "%c %t %r"
            """,
        forms: [ArgumentForm([Argument.place.orNone])],
        options: [style.option, format.option, SharedOptions.units.option]
    ) { context in
        try await BarModule(context: context).run()
    }

    static let defaultFormat = "%c %t"

    /// `--style`: the bar's markup.
    static let style = CommandOption(
        "--style", value: .cases(BarStyle.self), default: .plain, help: "the bar's markup (plain: the text alone)")
    /// `--format`: as for `weatherd now`.
    static let format = SharedOptions.format(default: defaultFormat)
}

/// The owner of a bar's `BarMachine`: it feeds the machine what arrives (answers, events, alerts, its wake-ups,
/// the end of the connection) one at a time and does what the machine returns.
private struct BarModule {
    /// What arrives, in order.
    enum Input: Sendable {
        case notification(Notification)
        case woke
        case lost
    }

    let context: Context

    func run() async throws -> Int32 {
        do {
            return try await serve()
        } catch let error as RPCError where context.invocation[CLI.standalone] && error.endsEngine {
            // With --standalone the engine is this process's own and ends only when the process is told to stop
            // (SIGTERM, SIGINT): a request it cut on the way (the first ask, say) means stop, quietly.
            return CLI.Exit.ok
        }
    }

    /// Subscribes, then follows the place until told to stop.
    private func serve() async throws -> Int32 {
        let client = context.client
        let params = try await NowCommand.weatherParams(context)
        let status = try await context.call("service/status")
        let style = context.invocation[BarCommand.style]
        let machine = BarMachine(
            style: style, format: try OneLine(context.invocation[BarCommand.format]),
            cacheTTL: status["cacheTtlSeconds"]?.intValue ?? 600)

        let (inputs, feed) = AsyncStream<Input>.makeStream()
        // Subscribed before the first answer, so that nothing between the two is missed.
        _ = try await context.call(
            "events/subscribe",
            [
                "types": .array(
                    [
                        "weather.fetched", "weather.fetch_failed", "nowcast.fetched", "settings.changed",
                        "favorite.updated", "location.changed", "location.cleared",
                    ]
                    .map { .string($0) })
            ])
        // Alerts in the bar's units, as its weather is: an imperial bar reads °F in them too.
        let units = context.invocation[SharedOptions.units].map { ["units": JSONValue.string($0)] } ?? [:]
        _ = try await context.call("alerts/subscribe", units)
        // The bar's place is watched while it runs: weatherd keeps its nowcast fresh and says when it changes.
        var place = params
        place["units"] = nil
        _ = try await context.call("nowcast/watch", place)
        // The inputs the bar reacts to, each fed by a child task that ends with the run; the bar itself runs in a
        // child too, so that its reader going away ends it even while it waits for an answer.
        return try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask { [notifications = context.notifications] in
                for await notification in notifications { feed.yield(.notification(notification)) }
                return nil
            }
            group.addTask {
                await client.waitForEnd()
                feed.yield(.lost)
                return nil
            }
            // A status bar that restarts its module closes the pipe: notice at once, not at the next line.
            if let fd = context.output.readerDescriptor {
                group.addTask {
                    await waitForHangup(of: fd, named: "weatherd-bar-reader")
                    try Task.checkCancellation()
                    throw RPCError.application("output_closed", "standard output is closed; nothing reads the bar")
                }
            }
            group.addTask {
                try await follow(params, alertParams: units, machine: machine, inputs: inputs, feed: feed)
            }
            defer { group.cancelAll() }
            while let finished = try await group.next() {
                if let status = finished { return status }
            }
            return CLI.Exit.ok
        }
    }

    /// Prints the first line, then a new one whenever an input calls for it, until told to stop.
    private func follow(
        _ params: [String: JSONValue], alertParams: [String: JSONValue], machine: BarMachine,
        inputs: AsyncStream<Input>, feed: AsyncStream<Input>.Continuation
    ) async throws -> Int32 {
        var machine = machine
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }

        let first = try await ask(params)
        let raised =
            try await context.call("alerts/list", alertParams.merging(["limit": 100]) { $1 })["alerts"]?.arrayValue
            ?? []
        var pending = machine.answered(
            current: first.current, forecast: first.forecast, nowcast: first.nowcast, alerts: raised,
            now: context.now())
        var inputIterator = inputs.makeAsyncIterator()
        // With --standalone the engine is this process's own: it ends only when the process is told to stop
        // (SIGTERM, SIGINT), and so does the bar, quietly.
        let standalone = context.invocation[CLI.standalone]
        while true {
            let goOn = try await carryOut(
                pending, params: params, machine: &machine, timer: &timer, feed: feed, standalone: standalone)
            guard goOn else { break }
            if machine.unreachable {
                throw RPCError.application("daemon_unavailable", "weatherd's daemon went away")
            }
            guard let input = await inputIterator.next() else { break }
            guard let next = react(to: input, machine: &machine, standalone: standalone) else { break }
            pending = next
        }
        return CLI.Exit.ok
    }

    /// Does what the machine said, in order, feeding it the answers of the asks (and whatever it says then);
    /// false when the bar is to stop at once: under `--standalone`, the engine has ended.
    private func carryOut(
        _ actions: [BarMachine.Action], params: [String: JSONValue], machine: inout BarMachine,
        timer: inout Task<Void, Never>?, feed: AsyncStream<Input>.Continuation, standalone: Bool
    ) async throws -> Bool {
        var pending = actions
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .print(let line):
                context.output.print(line)
                if context.output.isClosed {
                    throw RPCError.application("output_closed", "standard output is closed; nothing reads the bar")
                }
            case .wake(let time):
                timer?.cancel()
                timer = wakeUpTask(at: time, feed: feed)
            case .ask:
                do {
                    let answer = try await ask(params)
                    pending += machine.answered(
                        current: answer.current, forecast: answer.forecast, nowcast: answer.nowcast, now: context.now())
                } catch let error as RPCError where error.kind == "daemon_gone" {
                    if standalone { return false }
                    pending += machine.lost(now: context.now())
                } catch {
                    pending += machine.askFailed(now: context.now())
                }
            }
        }
        return true
    }

    /// A task that feeds `.woke` at `time` on the context's clock (nothing when cancelled first).
    private func wakeUpTask(at time: Timestamp, feed: AsyncStream<Input>.Continuation) -> Task<Void, Never> {
        let delay = Duration.milliseconds(max(0, time.milliseconds - context.now().milliseconds))
        return Task { [clock = context.clock] in
            guard (try? await clock.sleep(for: delay, tolerance: nil)) != nil else { return }
            feed.yield(.woke)
        }
    }

    /// What the machine says to do about `input`; nil when the bar is to stop: under `--standalone`, the
    /// engine has ended.
    private func react(to input: Input, machine: inout BarMachine, standalone: Bool) -> [BarMachine.Action]? {
        let now = context.now()
        switch input {
        case .woke: return machine.woke(now: now)
        case .lost:
            if standalone { return nil }
            return machine.lost(now: now)
        case .notification(let notification):
            switch notification.method {
            case "events/event": return machine.event(notification.params)
            case "alerts/raised": return machine.alertRaised(notification.params, now: now)
            default: return []
            }
        }
    }

    /// The place's current weather, forecast and nowcast (the last two may fail alone: they only add to the
    /// line).
    private func ask(_ params: [String: JSONValue]) async throws -> (
        current: JSONValue, forecast: JSONValue?, nowcast: JSONValue?
    ) {
        let current = try await context.call("weather/current", params)
        // The tooltip lists the next hours and the days: five, as many as every provider gives.
        var days = params
        days["days"] = 5
        let forecast = try? await context.call("weather/forecast", days)
        let nowcast = try? await context.call("weather/nowcast", params)
        return (current, forecast, nowcast)
    }
}

extension RPCError {
    /// Whether the error says the engine is ending: a request cut by its shutdown, or the engine gone.
    fileprivate var endsEngine: Bool { kind == "cancelled" || kind == "daemon_gone" }
}
