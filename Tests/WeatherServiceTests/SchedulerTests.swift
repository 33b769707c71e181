import Synchronization
import Testing
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("Refresh scheduler, on a manual clock")
struct SchedulerTests {
    /// Records each refresh call's `only` and answers with scripted failures.
    final class Recorder: Sendable {
        let calls = Mutex<[Set<String>?]>([])
        let failures = Mutex<[Set<String>]>([])

        func refresh(_ only: Set<String>?) -> Set<String> {
            calls.withLock { $0.append(only) }
            return failures.withLock { $0.isEmpty ? [] : $0.removeFirst() }
        }
    }

    @Test("refreshes every interval, retries failed places with doubling backoff, stops on cancellation")
    func timing() async throws {
        let clock = ManualClock()
        let recorder = Recorder()
        recorder.failures.withLock { $0 = [["fav-2", "fav-3"], ["fav-3"], ["fav-3"], ["fav-3"]] }
        let scheduler = RefreshScheduler(interval: .seconds(4 * 3600), clock: clock) { only in recorder.refresh(only) }
        let running = Task { try await scheduler.run() }

        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(4 * 3600 - 1))
        #expect(clock.sleeperCount == 1, "still asleep one second before the interval")
        #expect(recorder.calls.withLock { $0.count } == 0, "nothing before the interval")
        clock.advance(by: .seconds(1))
        await clock.sleepers(atLeast: 1)
        #expect(recorder.calls.withLock { $0 } == [nil])

        for (delay, expected) in [(60, 2), (120, 3), (240, 4)] {
            clock.advance(by: .seconds(delay - 1))
            #expect(clock.sleeperCount == 1, "still asleep one second before the retry")
            #expect(recorder.calls.withLock { $0.count } == expected - 1, "no retry before \(delay) s")
            clock.advance(by: .seconds(1))
            await clock.sleepers(atLeast: 1)
            #expect(recorder.calls.withLock { $0.count } == expected)
        }
        #expect(recorder.calls.withLock { $0 } == [nil, ["fav-2", "fav-3"], ["fav-3"], ["fav-3"]])

        clock.advance(by: .seconds(480))
        let nextRound = clock.now.advanced(by: .seconds(4 * 3600 - 480))
        #expect(clock.sleeperCount(until: nextRound) == 1, "asleep for the next round")
        #expect(recorder.calls.withLock { $0.count } == 4, "three retries at most")

        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
    }
}
