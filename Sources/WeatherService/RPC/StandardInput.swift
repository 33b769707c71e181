import Dispatch
import Foundation
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads standard input on a dedicated thread and splits it into lines.
///
/// Blocking `read` calls stay off the cooperative thread pool. Before handing on each item the
/// thread waits until the output has room (a client that does not read its answers is not read
/// either) and takes the item's share of `budget`, which the server gives back when the item is
/// answered, so a client that floods requests is held back at the pipe instead of growing memory.
package struct StandardInput: Sendable {
    /// The descriptor to read (0 by default).
    package let fd: Int32
    /// The longest accepted line.
    package let maxLineBytes: Int

    package init(fd: Int32 = 0, maxLineBytes: Int) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
    }

    /// Starts the reading thread, which yields into `continuation` and finishes it at end of input.
    ///
    /// - Parameter waitForRoom: blocks the thread while the output is full.
    package func start(
        budget: InputBudget, waitForRoom: @escaping @Sendable () -> Void,
        into continuation: AsyncStream<LineSplitter.Item>.Continuation
    ) {
        let fd = fd
        let maxLineBytes = maxLineBytes
        startThread(named: "weatherd-stdin") {
            var splitter = LineSplitter(maxLineBytes: maxLineBytes)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var ended = false
            let emit: (LineSplitter.Item) -> Void = { item in
                guard !ended else { return }
                waitForRoom()
                budget.take(bytes: item.byteCount)
                // Nobody reads the stream any more (the connection ended): give the share back and stop.
                if case .terminated = continuation.yield(item) {
                    budget.give(bytes: item.byteCount)
                    ended = true
                }
            }
            while !ended {
                let count = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
                if count <= 0 { break }
                buffer.withUnsafeBytes { splitter.feed(UnsafeRawBufferPointer(rebasing: $0[..<count]), emit) }
            }
            splitter.finish(emit)
            continuation.finish()
        }
    }
}
