import Foundation
import WeatherEngine

/// How much input may be held at once, in lines and in bytes: read but not yet answered.
///
/// The input thread takes a line's share before handing it on and blocks while the budget is spent; the server
/// gives it back once the line is answered. A client that floods requests is so held back at the pipe instead of
/// growing memory. A single line larger than the byte budget is still let through when nothing else is held, so
/// every line within `--max-line-bytes` can be served.
///
/// `@unchecked Sendable`: `lines` and `bytes` are read and written only while holding `condition`.
package final class InputBudget: @unchecked Sendable {
    /// The most lines held at once.
    package let maxLines: Int
    /// The most bytes held at once.
    package let maxBytes: Int
    private let condition = NSCondition()
    private var lines = 0
    private var bytes = 0
    private var blocked = 0

    package init(maxLines: Int = 1024, maxBytes: Int = 16 << 20) {
        self.maxLines = maxLines
        self.maxBytes = maxBytes
    }

    /// Takes one line of `size` bytes, blocking the calling thread (never an async task) until the budget allows it.
    package func take(bytes size: Int) {
        condition.lock()
        defer { condition.unlock() }
        blocked += 1
        while lines > 0, lines >= maxLines || bytes + size > maxBytes { condition.wait() }
        blocked -= 1
        lines += 1
        bytes += size
    }

    /// How many threads wait in `take` for the budget (for tests: a reader held back, at once and for sure).
    package var waitingTakers: Int {
        condition.lock()
        defer { condition.unlock() }
        return blocked
    }

    /// Gives back one line of `size` bytes.
    package func give(bytes size: Int) {
        condition.lock()
        defer { condition.unlock() }
        lines -= 1
        bytes -= size
        condition.broadcast()
    }
}
