/// A sparse map from seq to byte offset in the log: one entry every `stride` events.
///
/// Lets `events/query` and catch-up start near `afterSeq` instead of reading the log from the start.
/// Snapshots store the part that covers their seq, so a start-up that reads only the log's tail
/// still has an index of the whole log.
public struct SeqIndex: Sendable, Equatable {
    /// Every `stride`-th seq (1, stride+1, 2·stride+1, …) is indexed.
    public static let stride: Int64 = 1024

    /// Where an indexed line starts, and the chain of the line before it.
    public struct Entry: Sendable, Equatable {
        public var offset: Int64
        public var previousChain: UInt32

        public init(offset: Int64, previousChain: UInt32) {
            self.offset = offset
            self.previousChain = previousChain
        }
    }

    /// The entries of seq 1, stride+1, 2·stride+1, … in order, without gaps.
    public private(set) var entries: [Entry] = []

    public init() {}

    /// An index holding `entries` (the entry for seq 1 first).
    public init(entries: [Entry]) { self.entries = entries }

    static func isIndexed(_ seq: Int64) -> Bool { (seq - 1) % stride == 0 }

    /// Records where the line holding `seq` starts and the chain of the line before it, when `seq` is indexed.
    public mutating func record(seq: Int64, offset: Int64, previousChain: UInt32) {
        guard Self.isIndexed(seq) else { return }
        let slot = Int((seq - 1) / Self.stride)
        if slot == entries.count {
            entries.append(Entry(offset: offset, previousChain: previousChain))
        } else if slot < entries.count {
            entries[slot] = Entry(offset: offset, previousChain: previousChain)
        }
    }

    /// The entries of indexed seqs up to and including `seq`.
    public func prefix(through seq: Int64) -> SeqIndex {
        guard seq >= 1 else { return SeqIndex() }
        return SeqIndex(entries: Array(entries.prefix(Int((seq - 1) / Self.stride) + 1)))
    }

    /// A position to start reading from so that the line holding `seq + 1` is reached soon.
    public func start(after seq: Int64) -> LogWriter.Position {
        guard !entries.isEmpty, seq >= 1 else { return .empty }
        let slot = min(Int(seq / Self.stride), entries.count - 1)
        let entry = entries[slot]
        return LogWriter.Position(
            nextSeq: Int64(slot) * Self.stride + 1, lastChain: entry.previousChain, length: entry.offset)
    }
}
