import Foundation

/// Runs `work` on a thread of its own and returns its result, so blocking file work (writing a snapshot,
/// compacting a segment, a test's whole-log replay) never holds a thread of the cooperative pool.
public func onOwnThread<T: Sendable>(named name: String, _ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.name = name
        thread.start()
    }
}
