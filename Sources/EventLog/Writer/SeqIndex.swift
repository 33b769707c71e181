/// A sparse map from seq to byte offset in the log: one entry every `stride` events.
///
/// Lets `events/query` and catch-up start near `afterSeq` instead of reading the log from the start.
public struct SeqIndex: Sendable, Equatable {
    /// Every `stride`-th seq (1, stride+1, 2·stride+1, …) is indexed.
    public static let stride: Int64 = 1024

    private var entries: [(offset: Int64, previousChain: UInt32)] = []

    public init() {}

    static func isIndexed(_ seq: Int64) -> Bool { (seq - 1) % stride == 0 }

    /// Records where the line holding `seq` starts and the chain of the line before it, when `seq` is indexed.
    public mutating func record(seq: Int64, offset: Int64, previousChain: UInt32) {
        guard Self.isIndexed(seq) else { return }
        let slot = Int((seq - 1) / Self.stride)
        if slot == entries.count {
            entries.append((offset, previousChain))
        } else if slot < entries.count {
            entries[slot] = (offset, previousChain)
        }
    }

    /// A position to start reading from so that the line holding `seq + 1` is reached soon.
    public func start(after seq: Int64) -> LogWriter.Position {
        guard !entries.isEmpty, seq >= 1 else { return .empty }
        let slot = min(Int(seq / Self.stride), entries.count - 1)
        let entry = entries[slot]
        return LogWriter.Position(
            nextSeq: Int64(slot) * Self.stride + 1, lastChain: entry.previousChain, length: entry.offset)
    }

    public static func == (lhs: SeqIndex, rhs: SeqIndex) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.offset == $1.offset && $0.previousChain == $1.previousChain }
    }
}
