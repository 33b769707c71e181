import WeatherDomain
import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The owner of `weatherd notify`'s `NotifyMachine`: it feeds the machine the log's events, the backlog's end
/// and its wake-ups, one at a time, performs what the machine returns (notifications, closes, hook runs) and
/// keeps the cursor on disk.
struct Notifier {
    /// What arrives, in order.
    enum Input: Sendable {
        case notification(Notification)
        case woke
        case lost
    }

    let context: Context

    func run() async throws -> Int32 {
        let output = context.output
        let noDesktop = context.invocation[NotifyCommand.noDesktop]
        var desktop: Desktop?
        if !noDesktop {
            do throws(DBusError) {
                desktop = try await Desktop.connect(
                    address: context.variables["DBUS_SESSION_BUS_ADDRESS"] ?? "", uid: getuid(),
                    runtime: context.runtime)
            } catch {
                output.error("weatherd notify: \(Self.unavailable(error))")
                return CLI.Exit.unavailable
            }
        }
        let status = try await context.call("service/status")
        let store = try CursorStore(
            dataDirectory: status["dataDir"]?.stringValue ?? "", variables: context.variables)
        let units = try await readerUnits()
        let start = NotifyMachine(
            cursor: try store.load(), desktop: desktop != nil, hook: context.invocation[NotifyCommand.exec] != nil,
            units: units)
        let hook = context.invocation[NotifyCommand.exec].map { command in
            HookRunner(command: command, runtime: context.runtime) { output.error("weatherd notify: \($0)") }
        }
        let (inputs, feed) = AsyncStream<Input>.makeStream()
        try await subscribe(after: start.cursor.seq)
        let desktopShown = desktop
        let client = context.client
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
            if let hook {
                group.addTask {
                    await hook.run()
                    return nil
                }
            }
            group.addTask {
                defer { hook?.finish() }
                var machine = start
                var timer: Task<Void, Never>?
                defer { timer?.cancel() }
                var armed: Timestamp?
                // What the file holds. It is written before what an event decided is shown or run, so a notify
                // stopped in between shows nothing twice (it may miss that one alert instead); while the backlog
                // is read, only then (not for every event read), and never past a warning held back to its end.
                var saved = start.cursor
                for await input in inputs {
                    let now = context.now()
                    var actions: [NotifyMachine.Action] = []
                    switch input {
                    case .lost:
                        output.error("weatherd notify: the daemon went away")
                        return CLI.Exit.unavailable
                    case .woke: actions = machine.expired(now: now)
                    case .notification(let notification):
                        switch notification.method {
                        case "events/event": actions = machine.event(notification.params, now: now)
                        case "events/caughtUp": actions = machine.backlogRead(now: now)
                        case "events/lagged": try await subscribe(after: machine.cursor.seq)
                        default: break
                        }
                    }
                    let before = saved
                    if machine.cursorKeepable, machine.caughtUp || !actions.isEmpty, machine.cursor != saved {
                        try store.save(machine.cursor)
                        saved = machine.cursor
                    }
                    do throws(DBusError) {
                        try await perform(actions, on: desktopShown, hook: hook, machine: &machine)
                    } catch  where Task.isCancelled {
                        // Stopped while the desktop was being told: it has the alert, and the cursor says so.
                        return CLI.Exit.ok
                    } catch .noReply(let detail) {
                        // The desktop took the call and did not answer in time: it may show the alert, so the
                        // cursor stays past it, as when notify is stopped while waiting (nothing is shown twice).
                        output.error("weatherd notify: the notification server did not answer (no reply \(detail))")
                        return CLI.Exit.unavailable
                    } catch {
                        // The desktop refused or went away: what it was to show is shown when notify runs again.
                        if saved != before { try store.save(before) }
                        output.error("weatherd notify: \(Self.unavailable(error))")
                        return CLI.Exit.unavailable
                    }
                    // The ids the notification server gave the warnings shown, to replace or close them later.
                    if machine.caughtUp, machine.cursor != saved {
                        try store.save(machine.cursor)
                        saved = machine.cursor
                    }
                    if machine.nextExpiry != armed {
                        armed = machine.nextExpiry
                        timer?.cancel()
                        timer = armed.map { wakeUp(at: $0, feed: feed) }
                    }
                }
                return CLI.Exit.ok
            }
            defer { group.cancelAll() }
            while let finished = try await group.next() {
                if let status = finished { return status }
            }
            return CLI.Exit.ok
        }
    }

    /// Follows the log's alerts and warnings fetches from after `seq`.
    private func subscribe(after seq: Int64) async throws {
        _ = try await context.call(
            "events/subscribe",
            ["afterSeq": .int(seq), "types": .array([.string("alert.raised"), .string("warnings.fetched")])])
    }

    /// The units `--units` names, else the settings' (with their per-quantity choices).
    private func readerUnits() async throws -> UnitChoice {
        if let name = context.invocation[SharedOptions.units], let units = Units(rawValue: name) { return units.choice }
        return try Self.units(settings: try await context.call("settings/get"))
    }

    /// The reader's units in a `settings/get` answer.
    ///
    /// - Throws: `RPCError` `bad_settings` when the answer is not settings, saying so and what to do instead.
    static func units(settings: JSONValue) throws(RPCError) -> UnitChoice {
        do throws(FieldError) {
            let change = try SettingsChange(json: settings)
            return UnitChoice(system: change.units, overrides: change.overrides)
        } catch {
            throw RPCError.application(
                "bad_settings",
                "the daemon's settings (settings/get) could not be read: \(error); give --units to choose the units")
        }
    }

    private func perform(
        _ actions: [NotifyMachine.Action], on desktop: Desktop?, hook: HookRunner?, machine: inout NotifyMachine
    ) async throws(DBusError) {
        for action in actions {
            switch action {
            case .show(let notice, let replaces, let thread):
                guard let desktop else { continue }
                let id = try await desktop.show(notice, replaces: replaces)
                if let thread { machine.shown(thread: thread, id: id) }
            case .close(let id):
                try await desktop?.close(id)
            case .run(let notice, let alert):
                hook?.submit(notice, alert)
            }
        }
    }

    /// A task that feeds `.woke` at `time` on the context's clock (nothing when cancelled first).
    private func wakeUp(at time: Timestamp, feed: AsyncStream<Input>.Continuation) -> Task<Void, Never> {
        let delay = Duration.milliseconds(max(0, time.milliseconds - context.now().milliseconds))
        return Task { [clock = context.clock] in
            do {
                try await clock.sleep(for: delay, tolerance: nil)
            } catch {
                return
            }
            feed.yield(.woke)
        }
    }

    /// The one line said when the desktop cannot be reached.
    static func unavailable(_ error: DBusError) -> String {
        switch error {
        case .remote(let name, _) where name.hasSuffix(".ServiceUnknown") || name.hasSuffix(".NameHasNoOwner"):
            "no notification server on the session bus (org.freedesktop.Notifications is not owned); "
                + "use --no-desktop with --exec to run without one"
        default: "\(error)"
        }
    }
}
