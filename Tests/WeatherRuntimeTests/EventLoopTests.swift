import Synchronization
import Testing
import WeatherRuntime
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("The event loop: work handed over, readiness and timers, on one thread")
struct EventLoopTests {
    @Test("work handed over runs in order, on the loop's thread")
    func ordered() async throws {
        let loop = try EventLoop(name: "test-loop")
        loop.start()
        defer { loop.stop() }
        let seen = Mutex<[Int]>([])
        let onLoop = Mutex<[Bool]>([])
        let done = Promise<Void>()
        for number in 0..<1000 {
            loop.execute {
                seen.withLock { $0.append(number) }
                onLoop.withLock { $0.append(loop.inLoop) }
                if number == 999 { done.fulfill(()) }
            }
        }
        await done.wait()
        #expect(seen.withLock { $0 } == Array(0..<1000))
        #expect(onLoop.withLock { $0 }.allSatisfy { $0 })
        #expect(!loop.inLoop, "the test's own thread is not the loop's")
    }

    @Test("a timer on a manual clock fires when the clock passes its deadline, not before; a cancelled one never")
    func manualTimers() async throws {
        let runtime = Runtime.testing(clock: ManualClock())
        let clock = runtime.clock as! ManualClock
        let fired = Mutex<[String]>([])
        let second = Promise<Void>()
        _ = clock.schedule(at: clock.now.advanced(by: .seconds(10)), on: runtime.loop) {
            fired.withLock { $0.append("ten") }
        }
        let cancelled = clock.schedule(at: clock.now.advanced(by: .seconds(5)), on: runtime.loop) {
            fired.withLock { $0.append("five") }
        }
        _ = clock.schedule(at: clock.now.advanced(by: .seconds(20)), on: runtime.loop) { second.fulfill(()) }
        #expect(clock.sleeperCount == 3, "timers count as sleepers")
        cancelled.cancel()
        clock.advance(by: .seconds(9))
        #expect(await runtime.loop.turn() && fired.withLock { $0 }.isEmpty)
        clock.advance(by: .seconds(11))
        await second.wait()
        #expect(fired.withLock { $0 } == ["ten"])
    }

    @Test("a loop timer on the system clock whose deadline has passed fires at once")
    func systemTimer() async throws {
        let loop = Runtime.testing().loop
        let fired = Promise<Bool>()
        _ = SystemClock().schedule(at: SystemClock().now, on: loop) { fired.fulfill(loop.inLoop) }
        #expect(await fired.wait())
    }

    @Test("a readable pipe's handler runs on the loop until it is drained; a cancelled registration is never called")
    func readiness() async throws {
        let loop = Runtime.testing().loop
        var pair: [Int32] = [-1, -1]
        try #require(pipe(&pair) == 0)
        let ends = pair
        defer { ends.forEach { close($0) } }
        let got = Mutex<[UInt8]>([])
        let arrived = Promise<Void>()
        let registration = try loop.register(ends[0], interest: .read) { readiness in
            guard readiness.contains(.readable) else { return }
            var byte: UInt8 = 0
            if read(ends[0], &byte, 1) == 1 {
                let count = got.withLock { got in
                    got.append(byte)
                    return got.count
                }
                if count == 3 { arrived.fulfill(()) }
            }
        }
        _ = write(ends[1], "abc", 3)
        await arrived.wait()
        #expect(got.withLock { $0 } == Array("abc".utf8))
        registration.cancel()
        _ = write(ends[1], "d", 1)
        #expect(await loop.turn())
        #expect(got.withLock { $0.count } == 3, "no call after cancel")
    }
}
