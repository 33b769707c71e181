import Foundation

/// Runs `work` on a thread of its own and returns its result, so blocking work (writing a snapshot,
/// compacting a segment, reading a descriptor, a test's whole-log replay) never holds a thread of the
/// cooperative pool.
///
/// This is the one place weatherd starts a thread.
package func onOwnThread<T: Sendable>(named name: String, _ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.name = name
        thread.start()
    }
}
