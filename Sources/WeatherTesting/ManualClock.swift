import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime

/// A clock that moves only when the test advances it: what makes every wait in weatherd (deadlines, retries,
/// backoff, timers, grace periods, the writer's batching, the relay's deadline, event-loop timers) a matter of
/// the test's choosing, never of how fast the machine is.
///
/// Its monotonic `now` and its `wallNow` move together. Sleeping tasks and timers scheduled on an event loop are
/// both sleepers: a test waits until code is asleep on the clock (`sleepers(atLeast:until:)`, `timerArmed`), then
/// advances it.
package final class ManualClock: RuntimeClock, Sendable {
    private enum Wake {
        case task(CheckedContinuation<Void, any Error>)
        case timer(EventLoop, @Sendable () -> Void)
    }

    private struct Sleeper {
        var deadline: RuntimeInstant
        var wake: Wake
    }

    private struct State {
        var now: RuntimeInstant
        var wall: WallInstant
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>
    /// Told whenever the number of sleepers grows.
    private let arrivals = WaitQueue<Void>()

    /// Starts at `start` on the wall clock (2026-11-22T12:00:00Z by default); its monotonic time starts at an
    /// arbitrary point that has nothing to do with it.
    package init(start: Timestamp = Timestamp(milliseconds: 1_795_348_800_000)) {
        state = Mutex(
            State(
                now: RuntimeInstant(sinceOrigin: .seconds(1_000_000)),
                wall: WallInstant(millisecondsSinceEpoch: start.milliseconds)))
    }

    package var now: RuntimeInstant { state.withLock { $0.now } }
    package var wallNow: WallInstant { state.withLock { $0.wall } }
    package var minimumResolution: Duration { .nanoseconds(1) }

    /// The time as events record it.
    package var timestamp: Timestamp { Timestamp(milliseconds: wallNow.millisecondsSinceEpoch) }

    /// How many tasks sleep, and timers wait, on this clock.
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    private func add(_ sleeper: Sleeper) -> UInt64 {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.sleepers[state.nextID] = sleeper
            return state.nextID
        }
        arrivals.resumeAll(())
        return id
    }

    package func sleep(until deadline: RuntimeInstant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, wake: .task(continuation))
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
            if case .task(let continuation)? = sleeper?.wake { continuation.resume(throwing: CancellationError()) }
        }
    }

    package func schedule(at deadline: RuntimeInstant, on loop: EventLoop, _ action: @escaping @Sendable () -> Void)
        -> LoopTimer
    {
        if deadline <= now {
            loop.execute(action)
            return LoopTimer {}
        }
        let id = add(Sleeper(deadline: deadline, wake: .timer(loop, action)))
        return LoopTimer { [self] in _ = state.withLock { $0.sleepers.removeValue(forKey: id) } }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come, earliest first.
    package func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            state.wall = state.wall.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in woken {
            switch sleeper.wake {
            case .task(let continuation): continuation.resume()
            case .timer(let loop, let action): loop.execute(action)
            }
        }
    }

    /// Moves time forward by whole milliseconds.
    package func advance(milliseconds: Int64) { advance(by: .milliseconds(milliseconds)) }

    /// How many sleep until exactly `deadline` (every sleeper when it is nil).
    package func sleeperCount(until deadline: RuntimeInstant?) -> Int {
        state.withLock { state in
            guard let deadline else { return state.sleepers.count }
            return state.sleepers.values.count { $0.deadline == deadline }
        }
    }

    /// Returns once at least `count` tasks or timers sleep on this clock, until exactly `deadline` when one is
    /// given (a timer re-armed after its work: `now` plus its interval), or the waiting task is cancelled.
    ///
    /// No real time passes in it: a test that waits for sleepers that never come hangs, and its hang guard
    /// names it.
    package func sleepers(atLeast count: Int, until deadline: RuntimeInstant? = nil) async {
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
