/// Splits a byte stream into lines, with a hard limit on line length.
///
/// A line longer than `maxLineBytes` is not buffered: its bytes are dropped as they arrive until
/// its newline, and it is reported once as `.tooLong`, so memory stays bounded whatever the input.
/// A `\r` before the `\n` is removed.
package struct LineSplitter: Sendable {
    /// One unit of input.
    package enum Item: Sendable, Equatable {
        case line([UInt8])
        /// A line over the limit; `length` counts its bytes up to the limit's first excess or its end.
        case tooLong(length: Int)

        /// The bytes the item holds in memory (a line over the limit holds none).
        package var byteCount: Int {
            if case .line(let bytes) = self { return bytes.count }
            return 0
        }
    }

    /// The longest accepted line, in bytes, without its newline.
    package let maxLineBytes: Int
    private var current: [UInt8] = []
    private var discarding = false
    private var discarded = 0

    package init(maxLineBytes: Int) { self.maxLineBytes = max(1, maxLineBytes) }

    /// Feeds a chunk and calls `emit` for each complete item.
    package mutating func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (Item) -> Void) {
        var start = 0
        while start < chunk.count {
            let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? chunk.count
            let piece = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
            if discarding {
                discarded += piece.count
            } else if current.count + piece.count > maxLineBytes + 1 {
                discarding = true
                discarded = current.count + piece.count
                current.removeAll(keepingCapacity: false)
            } else {
                current.append(contentsOf: piece)
            }
            guard let newline else { break }
            finishLine(emit)
            start = newline + 1
        }
    }

    /// Ends the input: a last line without a newline is still a line.
    package mutating func finish(_ emit: (Item) -> Void) {
        if discarding || !current.isEmpty { finishLine(emit) }
    }

    private mutating func finishLine(_ emit: (Item) -> Void) {
        if discarding {
            emit(.tooLong(length: discarded))
            discarding = false
            discarded = 0
            return
        }
        if current.last == UInt8(ascii: "\r") { current.removeLast() }
        if current.count > maxLineBytes {
            emit(.tooLong(length: current.count))
        } else {
            emit(.line(current))
        }
        current.removeAll(keepingCapacity: true)
    }
}
