import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime

/// The one clock of a test: wall time and every wait, moving only when the test moves it
/// (swift-nio's `EmbeddedEventLoop.advanceTime(by:)`).
///
/// Sleepers wake when `advance` passes their deadline. `sleepers(atLeast:)` lets a test wait, without
/// any real time passing, until the code under test is parked on the clock, so it can advance exactly
/// past the wait it means.
package final class ManualClock: RuntimeClock, Sendable {
    private struct Sleeper {
        var deadline: WallInstant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: WallInstant
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>
    /// Told whenever the number of sleepers grows.
    private let arrivals = WaitQueue<Void>()

    /// Starts at `start` (2026-11-22T12:00:00Z by default).
    package init(start: Timestamp = Timestamp(milliseconds: 1_795_348_800_000)) {
        state = Mutex(State(now: start.instant))
    }

    package var now: WallInstant { state.withLock { $0.now } }
    package var minimumResolution: Duration { .nanoseconds(1) }

    /// The time as events record it.
    package var timestamp: Timestamp { Timestamp(milliseconds: now.millisecondsSinceEpoch) }

    /// How many tasks are sleeping on this clock.
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    package func sleep(until deadline: WallInstant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome {
                    continuation.resume(with: outcome)
                } else {
                    arrivals.resumeAll(())
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    package func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Moves time forward by whole milliseconds.
    package func advance(milliseconds: Int64) { advance(by: .milliseconds(milliseconds)) }

    /// How many tasks sleep until exactly `deadline` (every sleeper when it is nil).
    package func sleeperCount(until deadline: WallInstant?) -> Int {
        state.withLock { state in
            guard let deadline else { return state.sleepers.count }
            return state.sleepers.values.count { $0.deadline == deadline }
        }
    }

    /// Returns once at least `count` tasks sleep on this clock, until exactly `deadline` when one is given
    /// (a timer re-armed after its work: `now` plus its interval), or the waiting task is cancelled.
    ///
    /// No real time passes in it: a test that waits for sleepers that never come hangs, and its hang guard
    /// names it.
    package func sleepers(atLeast count: Int, until deadline: WallInstant? = nil) async {
        while sleeperCount(until: deadline) < count {
            let arrived: Void? = await arrivals.wait { sleeperCount(until: deadline) >= count ? () : nil }
            guard arrived != nil else { return }
        }
    }

    /// Returns once a task sleeps until `interval` from now: a timer of that interval that has done its
    /// work and is waiting for its next round.
    package func timerArmed(_ interval: Duration) async {
        await sleepers(atLeast: 1, until: now.advanced(by: interval))
    }
}
