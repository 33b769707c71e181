import Synchronization
import WeatherRuntime

/// How much input may be held at once, in lines and in bytes: read but not yet answered.
///
/// The connection's input takes a line's share before handing it on and stops reading while the budget does not
/// allow the next line; the server gives the share back once the line is answered, and the input reads on. A
/// client that floods requests is so held back at its pipe or socket instead of growing memory. A single line
/// larger than the byte budget is still let through when nothing else is held, so every line within
/// `--max-line-bytes` can be served.
package final class InputBudget: Sendable {
    /// The most lines held at once.
    package let maxLines: Int
    /// The most bytes held at once.
    package let maxBytes: Int
    private let held = Mutex((lines: 0, bytes: 0))
    private let listener = CallbackSlot<@Sendable () -> Void>()

    package init(maxLines: Int = 1024, maxBytes: Int = 16 << 20) {
        self.maxLines = maxLines
        self.maxBytes = maxBytes
    }

    /// Whether a line of `size` bytes may be taken now.
    package func allows(bytes size: Int) -> Bool {
        held.withLock { $0.lines == 0 || ($0.lines < maxLines && $0.bytes + size <= maxBytes) }
    }

    /// Takes one line of `size` bytes (after `allows` said yes).
    package func take(bytes size: Int) {
        held.withLock {
            $0.lines += 1
            $0.bytes += size
        }
    }

    /// Gives back one line of `size` bytes, and tells the listener.
    package func give(bytes size: Int) {
        held.withLock {
            $0.lines -= 1
            $0.bytes -= size
        }
        listener.callback?()
    }

    /// Calls `listener` whenever a share is given back.
    package func onGiveBack(_ listener: @escaping @Sendable () -> Void) {
        self.listener.set(listener)
    }
}
