/// A sparse map from seq to a place in the log (a file and a byte offset in it): one entry every `stride` events.
///
/// Lets `events/query` and catch-up start near `afterSeq` instead of reading the log from the start.
/// Snapshots store the part that covers their seq, so a start-up that reads only the log's tail
/// still has an index of the whole log.
package struct SeqIndex: Sendable, Equatable {
    /// Every `stride`-th seq (1, stride+1, 2·stride+1, …) is indexed.
    package static let stride: Int64 = 1024

    /// Where an indexed line starts (`offset` bytes into the file whose first seq is `file`), and the chain of
    /// the line before it.
    ///
    /// An offset into a segment that compaction rewrote since is stale; readers notice (the manifest lists
    /// the segment) and read that segment from its start.
    package struct Entry: Sendable, Equatable {
        package var offset: Int64
        package var previousChain: UInt32
        package var file: Int64

        package init(offset: Int64, previousChain: UInt32, file: Int64 = 1) {
            self.offset = offset
            self.previousChain = previousChain
            self.file = file
        }
    }

    /// The entries of seq 1, stride+1, 2·stride+1, … in order, without gaps.
    package private(set) var entries: [Entry] = []

    package init() {}

    /// An index holding `entries` (the entry for seq 1 first).
    package init(entries: [Entry]) { self.entries = entries }

    static func isIndexed(_ seq: Int64) -> Bool { (seq - 1) % stride == 0 }

    /// Records where the line holding `seq` starts and the chain of the line before it, when `seq` is indexed.
    ///
    /// A log whose first segments were dropped (`--retain-audit`) starts past seq 1: when its first indexed line
    /// is recorded into an empty index, the slots before it are filled with that line's place (readers asked to
    /// start at a dropped seq begin at the log's first line anyway). Otherwise only the next slot is recorded.
    package mutating func record(seq: Int64, offset: Int64, previousChain: UInt32, file: Int64) {
        guard Self.isIndexed(seq) else { return }
        let slot = Int((seq - 1) / Self.stride)
        let entry = Entry(offset: offset, previousChain: previousChain, file: file)
        if slot < entries.count {
            entries[slot] = entry
        } else if slot == entries.count || entries.isEmpty {
            while entries.count < slot { entries.append(entry) }
            entries.append(entry)
        }
    }

    /// The entries of indexed seqs up to and including `seq`.
    package func prefix(through seq: Int64) -> SeqIndex {
        guard seq >= 1 else { return SeqIndex() }
        return SeqIndex(entries: Array(entries.prefix(Int((seq - 1) / Self.stride) + 1)))
    }

    /// A position to start reading from so that the line holding `seq + 1` is reached soon.
    package func start(after seq: Int64) -> LogWriter.Position {
        guard !entries.isEmpty, seq >= 1 else { return .empty }
        let slot = min(Int(seq / Self.stride), entries.count - 1)
        let entry = entries[slot]
        return LogWriter.Position(
            nextSeq: Int64(slot) * Self.stride + 1, lastChain: entry.previousChain, length: entry.offset,
            file: entry.file)
    }
}
