import Synchronization

/// The one pool of threads for work that must block (swift-nio's `NIOThreadPool`): scanning the log, writing a
/// snapshot, compacting a segment, a D-Bus handshake's first bytes, waiting for a child process. It has a fixed
/// number of threads, started together; work beyond them waits its turn in order, so however many requests
/// need blocking work at once, the process never holds more threads than this.
package final class BlockingPool: Sendable {
    private struct State {
        var queue: [@Sendable () -> Void] = []
        var head = 0
        var idle = 0
        var stopping = false
    }

    /// How many threads the pool runs.
    package let size: Int
    private let state = Mutex(State())
    private let ready = ThreadSemaphore()

    /// Starts `size` threads named `name`.
    package init(size: Int, name: String = "weatherd-pool") {
        self.size = max(1, size)
        for _ in 0..<self.size {
            startThread(named: name) { [self] in work() }
        }
    }

    /// Runs `work` on one of the pool's threads and returns its result.
    package func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: work()) }
        }
    }

    /// Runs a throwing `work` on one of the pool's threads.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await run { Result { try work() } }.get()
    }

    /// Queues `work` for the next free thread (in order).
    package func submit(_ work: @escaping @Sendable () -> Void) {
        let wake = state.withLock { state -> Bool in
            state.queue.append(work)
            return state.idle > 0
        }
        if wake { ready.signal() }
    }

    /// Lets the threads end once the queue is empty (for tests; a process's pool runs until it exits).
    package func stop() {
        let idle = state.withLock { state -> Int in
            state.stopping = true
            return state.idle
        }
        for _ in 0..<max(idle, size) { ready.signal() }
    }

    private func work() {
        while true {
            let next = state.withLock { state -> (@Sendable () -> Void)?? in
                if state.head < state.queue.count {
                    let item = state.queue[state.head]
                    state.head += 1
                    if state.head == state.queue.count {
                        state.queue.removeAll(keepingCapacity: true)
                        state.head = 0
                    }
                    return .some(item)
                }
                if state.stopping { return .some(nil) }
                state.idle += 1
                return nil
            }
            switch next {
            case .some(.some(let item)): item()
            case .some(nil): return
            case nil:
                ready.wait()
                state.withLock { $0.idle -= 1 }
            }
        }
    }
}
