import Synchronization
import Testing
import WeatherRuntime
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Child processes, followed by a handle that cannot be reused, and the blocking pool")
struct ProcessTests {
    let loop = Runtime.testing().loop

    @Test("a child's exit is seen on the loop with its status, and it is reaped once")
    func exitStatus() async throws {
        let child = try ChildProcess.spawn("/bin/sh", arguments: ["-c", "exit 3"], environment: [:])
        #expect(await child.exit(on: loop) == .exited(3))
        #expect(child.reapIfExited() == .exited(3), "asked again, the same answer: it was reaped once")
        #expect(kill(child.pid, 0) != 0 || errno == EPERM || Self.isSomeoneElse(child.pid))
    }

    @Test("a signal reaches the child while it runs; after it is reaped, none is sent to its number")
    func signals() async throws {
        let child = try ChildProcess.spawn("/bin/sh", arguments: ["-c", "sleep 600"], environment: [:])
        #expect(child.reapIfExited() == nil, "still running")
        child.send(SIGTERM)
        #expect(await child.exit(on: loop) == .signalled(SIGTERM))
        // Reaped: a send now does nothing, whoever has the number by then.
        child.send(SIGKILL)
        #expect(child.reapIfExited() == .signalled(SIGTERM))
    }

    @Test("a child starts with the default signal mask and actions, and none of this process's descriptors")
    func cleanStart() async throws {
        #if os(Linux)
            let stray = open("/dev/null", O_RDONLY)  // without O_CLOEXEC on purpose
            defer { close(stray) }
            // grep reads its own mask, as posix_spawn left it (a shell would show its own, which it changes
            // around the commands it waits for).
            let mask = try ChildProcess.spawn(
                "/bin/grep", arguments: ["-q", "^SigBlk:[[:space:]]*0000000000000000", "/proc/self/status"],
                environment: [:])
            let masked = await mask.exit(on: loop)
            #expect(masked == .exited(0), "no signal blocked; \(String(describing: masked))")
            let descriptors = try ChildProcess.spawn(
                "/bin/sh", arguments: ["-c", "[ -e /proc/$$/fd/\(stray) ] && exit 11; exit 0"], environment: [:])
            let inherited = await descriptors.exit(on: loop)
            #expect(inherited == .exited(0), "no descriptor inherited; \(String(describing: inherited))")
        #endif
    }

    @Test("the pool runs at most its size at once; the rest waits its turn, in order")
    func bounded() async throws {
        let pool = BlockingPool(size: 2, name: "test-pool")
        defer { pool.stop() }
        let running = Tally()
        let release = ThreadSemaphore()
        let jobs = (0..<6).map { number in
            Task {
                await pool.run {
                    running.start(number)
                    release.wait()
                    running.end()
                }
            }
        }
        #expect(await eventually { running.now == 2 })
        for _ in 0..<6 { release.signal() }
        for job in jobs { await job.value }
        #expect(running.most == 2)
        #expect(running.started == 6)
    }

    /// Whether `pid` names a process that is not our child any more (the number was given to another).
    private static func isSomeoneElse(_ pid: Int32) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) < 0 && errno == ECHILD
    }
}

/// How many pool jobs run now, at most at once, and in all.
private final class Tally: Sendable {
    private let state = Mutex((now: 0, most: 0, started: 0))

    func start(_ number: Int) {
        state.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
            $0.started += 1
        }
    }

    func end() { state.withLock { $0.now -= 1 } }
    var now: Int { state.withLock { $0.now } }
    var most: Int { state.withLock { $0.most } }
    var started: Int { state.withLock { $0.started } }
}
