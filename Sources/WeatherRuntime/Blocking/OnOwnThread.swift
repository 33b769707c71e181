import Foundation

/// Runs `work` on a thread of its own and returns its result, so blocking work (writing a snapshot,
/// compacting a segment, writing a descriptor, a test's whole-log replay) never holds a thread of the
/// cooperative pool.
package func onOwnThread<T: Sendable>(named name: String, _ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        startThread(named: name) { continuation.resume(returning: work()) }
    }
}

/// Starts `work` on a thread of its own and returns at once: for a loop that blocks on a descriptor no task
/// can interrupt (standard input, an accept loop) and ends when its descriptor does, or with the process.
///
/// This is the one place weatherd starts a thread.
package func startThread(named name: String, _ work: @escaping @Sendable () -> Void) {
    let thread = Thread(block: work)
    thread.name = name
    thread.start()
}
