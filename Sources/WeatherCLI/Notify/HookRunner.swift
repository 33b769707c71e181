import Synchronization
import WeatherDomain
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the `--exec` command once per alert handed to it: at most `parallel` at a time, the rest queued (at
/// most `queueCapacity`; past it an alert's run is dropped and said so), each given `timeout` on the clock
/// before SIGTERM and `grace` more before SIGKILL. A run that fails is logged (its exit status or signal,
/// the timeout, the tail of its standard error); one that exits 0 is only counted (`succeeded`), and the count
/// is logged once, when the runner ends.
struct HookRunner: Sendable {
    /// One alert to run the command for.
    struct Job: Sendable {
        var notice: AlertNotice
        var alert: JSONValue
    }

    let command: String
    let clock: any RuntimeClock
    let loop: EventLoop
    let log: @Sendable (String) -> Void
    var parallel = 4
    var timeout = Duration.seconds(30)
    var grace = Duration.seconds(5)
    static let queueCapacity = 256

    private let jobs: AsyncStream<Job>
    private let feed: AsyncStream<Job>.Continuation
    private let successes = Successes()

    /// The count of the runs that exited 0, shared by every copy of the runner.
    private final class Successes: Sendable {
        let count = Mutex(0)
    }

    /// How many runs have exited 0 so far.
    var succeeded: Int { successes.count.withLock { $0 } }

    init(command: String, runtime: Runtime, log: @escaping @Sendable (String) -> Void) {
        self.command = command
        clock = runtime.clock
        loop = runtime.loop
        self.log = log
        (jobs, feed) = AsyncStream<Job>.makeStream(bufferingPolicy: .bufferingOldest(Self.queueCapacity))
        // A hook that ends without reading its input makes the write fail with EPIPE, never kill weatherd.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Queues a run for `alert`.
    func submit(_ notice: AlertNotice, _ alert: JSONValue) {
        if case .dropped = feed.yield(Job(notice: notice, alert: alert)) {
            log("hook: \(Self.queueCapacity) runs already wait; not run for \(Self.name(of: alert))")
        }
    }

    /// No more alerts: `run` ends once the queued runs have.
    func finish() { feed.finish() }

    /// Runs the queued jobs, `parallel` at a time, until `finish` and the last of them ends (or cancelled).
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await job in jobs {
                if running == parallel {
                    await group.next()
                    running -= 1
                }
                group.addTask { await perform(job) }
                running += 1
            }
        }
        let count = succeeded
        if count > 0 { log("hook: \(count) run\(count == 1 ? "" : "s") exited with status 0") }
    }

    private func perform(_ job: Job) async {
        let name = Self.name(of: job.alert)
        let process: HookProcess
        do throws(HookError) {
            process = try HookProcess(command, environment: job.notice.environment, loop: loop)
        } catch {
            log("hook for \(name): \(error)")
            return
        }
        // Stopping (the notifier's task cancelled) ends a run at once: SIGTERM, then SIGKILL after the grace, on
        // the clock and whatever the task; the run's end is still waited for, so no hook outlives the notifier.
        let (status, tail) = await withTaskCancellationHandler {
            await withTaskGroup(of: Outcome.self) { group in
                group.addTask {
                    async let fed: Void = process.feed(Array((job.alert.jsonString + "\n").utf8))
                    async let tail = process.errorTail()
                    let status = await process.exit()
                    await fed
                    return .ended(status, await tail)
                }
                group.addTask {
                    do {
                        try await clock.sleep(for: timeout, tolerance: nil)
                        process.signal(SIGTERM)
                        try await clock.sleep(for: grace, tolerance: nil)
                        process.signal(SIGKILL)
                    } catch {
                        return .waited
                    }
                    return .timedOut
                }
                while let outcome = await group.next() {
                    if case .ended(let status, let tail) = outcome {
                        group.cancelAll()
                        return (status, tail)
                    }
                }
                return (ChildProcess.Status.unknown, [UInt8]())
            }
        } onCancel: { [clock, loop, grace] in
            process.signal(SIGTERM)
            _ = clock.schedule(at: clock.now.advanced(by: grace), on: loop) { process.signal(SIGKILL) }
        }
        let timedOut = process.wasSignalled
        if status == .exited(0), !timedOut {
            successes.count.withLock { $0 += 1 }
            return
        }
        var line = "hook for \(name): " + Self.describe(status)
        if timedOut { line += Task.isCancelled ? " (stopped with weatherd notify)" : " (timed out after \(timeout))" }
        let text = String(decoding: tail, as: UTF8.self).trimmingWhitespace
        if !text.isEmpty { line += "; stderr: " + TerminalText.safe(text) }
        log(line)
    }

    private enum Outcome: Sendable {
        case ended(ChildProcess.Status, [UInt8])
        case timedOut
        case waited
    }

    /// `exited with status N` or `killed by signal N`.
    static func describe(_ status: ChildProcess.Status) -> String {
        switch status {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let signal): "killed by signal \(signal)"
        case .unknown: "ended (its status was taken elsewhere)"
        }
    }

    static func name(of alert: JSONValue) -> String {
        (alert["id"]?.stringValue ?? "an alert") + " (" + (alert["rule"]?.stringValue ?? "") + ")"
    }
}
