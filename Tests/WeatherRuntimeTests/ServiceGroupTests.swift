import Synchronization
import Testing
import WeatherRuntime
import WeatherTesting

/// What the services of a test did, in order.
private final class Log: Sendable {
    init() {}
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A service that records what happens to it, and on graceful shutdown waits for `release` before returning.
private struct Recorder: Service {
    let name: String
    let log: Log
    let release: Latch

    func run() async throws {
        await withGracefulShutdownHandler {
            await gracefulShutdown()
            log.append("\(name) asked\(Task.isCancelled ? " (cancelled)" : "")")
            await release.wait()
            log.append("\(name) done\(Task.isCancelled ? " (cancelled)" : "")")
        } onGracefulShutdown: {
            log.append("\(name) told")
        }
    }
}

@Suite("The service group: graceful shutdown in reverse order, apart from cancellation")
struct ServiceGroupTests {
    @Test("a trigger asks the services in reverse order, each once the next has returned, none cancelled")
    func reverseOrder() async throws {
        let log = Log()
        let releases = (0..<3).map { _ in Latch() }
        let group = ServiceGroup(
            services: (0..<3).map { Recorder(name: "s\($0)", log: log, release: releases[$0]) }, clock: ManualClock())
        let running = Task { await group.run() }
        group.triggerGracefulShutdown()
        #expect(await eventually { log.all.contains("s2 asked") })
        #expect(!log.all.contains { $0.hasPrefix("s1") }, "s1 waits for s2")
        for release in releases.reversed() { release.open() }
        await running.value
        #expect(
            log.all == [
                "s2 told", "s2 asked", "s2 done", "s1 told", "s1 asked", "s1 done", "s0 told", "s0 asked", "s0 done",
            ])
    }

    @Test("a second trigger escalates to cancellation")
    func secondTrigger() async throws {
        let log = Log()
        let never = Latch()
        let group = ServiceGroup(services: [Recorder(name: "s", log: log, release: never)], clock: ManualClock())
        let running = Task { await group.run() }
        group.triggerGracefulShutdown()
        #expect(await eventually { log.all.contains("s asked") })
        group.triggerGracefulShutdown()
        await running.value
        #expect(log.all.last == "s done (cancelled)")
    }

    @Test("the escalation deadline, on the clock, cancels what has not returned")
    func deadline() async throws {
        let log = Log()
        let clock = ManualClock()
        let group = ServiceGroup(
            services: [Recorder(name: "s", log: log, release: Latch())], clock: clock, escalation: .seconds(10))
        let running = Task { await group.run() }
        group.triggerGracefulShutdown()
        await clock.sleepers(atLeast: 1, until: clock.now.advanced(by: .seconds(10)))
        clock.advance(by: .seconds(9))
        #expect(!log.all.contains { $0.contains("done") })
        clock.advance(by: .seconds(1))
        await running.value
        #expect(log.all.last == "s done (cancelled)")
    }

    @Test("a service that returns on its own starts the graceful shutdown of the rest")
    func serviceReturns() async throws {
        let log = Log()
        struct Short: Service {
            func run() async throws {}
        }
        let release = Latch()
        release.open()
        let group = ServiceGroup(
            services: [Recorder(name: "s", log: log, release: release), Short()], clock: ManualClock())
        await group.run()
        #expect(log.all == ["s told", "s asked", "s done"])
    }
}
