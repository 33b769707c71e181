import Synchronization

/// How far a follower has got (the last seq it handled), for whoever needs to wait until it has got past a
/// point: a barrier that needs no sleeping.
package final class Watermark: Sendable {
    private let level: Mutex<Int64>
    private let rises = WaitQueue<Void>()

    package init(_ start: Int64 = 0) { level = Mutex(start) }

    /// The level now.
    package var current: Int64 { level.withLock { $0 } }

    /// Raises the level to `value` (a lower value changes nothing).
    package func raise(to value: Int64) {
        let rose = level.withLock { level -> Bool in
            guard value > level else { return false }
            level = value
            return true
        }
        if rose { rises.resumeAll(()) }
    }

    /// Returns once the level is at least `value`, or the waiting task is cancelled.
    package func wait(reaching value: Int64) async {
        while current < value {
            let rose: Void? = await rises.wait { current >= value ? () : nil }
            guard rose != nil else { return }
        }
    }
}
