import Dispatch
import Foundation
import Synchronization
import WeatherDomain
import WeatherRuntime

extension LogWriter {
    /// Writes one batch of at most `batchLimit` bytes from the front of `all` (the rest goes back to the
    /// front of the queue), rolling the active file over first when the batch would take it past
    /// `segmentBytes`; returns whether it committed.
    ///
    /// The steps keep the durable path's order: encode, put the rest back, roll over when needed, write and
    /// (with `--fsync always`) sync, record the batch, hand it to `onCommit`, resolve the tickets. Nothing is
    /// acknowledged before it is written; a failed roll-over, write or sync fails the batch instead.
    func commit(_ all: [Queued], previousChain: UInt32, end: LogEnd, buffer: inout [UInt8]) -> Bool {
        let room = end.length > 0 ? max(0, segmentBytes - end.length) : segmentBytes
        let limit = Int(min(Int64(batchLimit), room))
        let batch = encode(all, previousChain: previousChain, limit: limit, into: &buffer)
        let queued = batch.taken == all.count ? all : Array(all[..<batch.taken])
        if batch.taken < all.count {
            let rest = all[batch.taken...]
            state.withLock { $0.queue.insert(contentsOf: rest, at: 0) }
        }
        guard let target = rollOverIfFull(end, adding: buffer.count, queued: queued) else { return false }
        if let failure = writeDurably(buffer) {
            fail(queued, error: failure, length: target.length)
            return false
        }
        record(batch, bytes: buffer.count, at: target)
        onCommit(batch.envelopes)
        answer(queued, with: batch.envelopes)
        return true
    }

    /// What `encode` put in the buffer: how many of the queued appends it took, the chain after their last
    /// line, their envelopes, and where in the buffer the lines that `SeqIndex` keeps start.
    private struct EncodedBatch {
        var taken = 0
        var chain: UInt32
        var envelopes: [EventEnvelope] = []
        var offsets: [(seq: Int64, offset: Int64, previousChain: UInt32)] = []
    }

    /// Encodes the appends at the front of `all` into `buffer`, stamped with the time now, while the buffer
    /// holds at most `limit` bytes (the first append is always taken, however large).
    private func encode(
        _ all: [Queued], previousChain: UInt32, limit: Int, into buffer: inout [UInt8]
    ) -> EncodedBatch {
        let ts = now()
        let tsBytes = ts.rfc3339Bytes
        var batch = EncodedBatch(chain: previousChain)
        batch.envelopes.reserveCapacity(all.count)
        for item in all {
            let mark = (
                bytes: buffer.count, chain: batch.chain, envelopes: batch.envelopes.count, offsets: batch.offsets.count
            )
            for (position, event) in item.events.enumerated() {
                let seq = item.firstSeq + Int64(position)
                if SeqIndex.isIndexed(seq) { batch.offsets.append((seq, Int64(buffer.count), batch.chain)) }
                let (lineChain, crc) = EnvelopeCodec.encode(
                    seq: seq, tsBytes: tsBytes, event: event, previousChain: batch.chain, into: &buffer)
                batch.chain = lineChain
                batch.envelopes.append(
                    EventEnvelope(
                        seq: seq, ts: ts, type: event.type, v: event.v, cause: event.cause, corr: event.corr,
                        data: event.data, chain: lineChain, crc: crc, event: event.event))
            }
            if batch.taken > 0, buffer.count > limit {
                buffer.removeLast(buffer.count - mark.bytes)
                batch.chain = mark.chain
                batch.envelopes.removeLast(batch.envelopes.count - mark.envelopes)
                batch.offsets.removeLast(batch.offsets.count - mark.offsets)
                break
            }
            batch.taken += 1
        }
        return batch
    }

    /// Where the batch of `queued` (`bytes` long) goes: `end`, or the start of a new active file when the
    /// batch would take a non-empty file past `segmentBytes` and the file rolled over; nil when the roll-over
    /// failed, after failing `queued` and everything queued behind it.
    private func rollOverIfFull(_ end: LogEnd, adding bytes: Int, queued: [Queued]) -> LogEnd? {
        guard end.length > 0, end.length + Int64(bytes) > segmentBytes else { return end }
        do throws(StorageError) {
            try file.rollOver(firstSeq: end.file)
        } catch {
            fail(queued, error: error, length: end.length)
            return nil
        }
        let fileSeq = queued[0].firstSeq
        state.withLock { state in
            state.status.file = fileSeq
            state.status.length = 0
            state.status.rollOvers += 1
        }
        return LogEnd(file: fileSeq, length: 0)
    }

    /// Appends `buffer` to the active file in one `write`, then (with `--fsync always`) syncs it; the error
    /// when either failed.
    private func writeDurably(_ buffer: [UInt8]) -> StorageError? {
        var failure: StorageError?
        buffer.withUnsafeBytes { bytes in
            do throws(StorageError) {
                try file.append(bytes)
                if mode == .always { try file.sync() }
            } catch {
                failure = error
            }
        }
        return failure
    }

    /// Records a batch of `bytes` written at `end`: the chain, the new length and last seq, the counters
    /// (with `--fsync always`, the batch is durable), and the index entries of its lines.
    private func record(_ batch: EncodedBatch, bytes: Int, at end: LogEnd) {
        let newLength = end.length + Int64(bytes)
        state.withLock { state in
            state.lastChain = batch.chain
            state.status.length = newLength
            state.status.lastSeq = batch.envelopes.last?.seq ?? state.status.lastSeq
            state.status.batches += 1
            if mode == .always {
                state.status.syncs += 1
                state.status.durableSeq = state.status.lastSeq
            }
            for entry in batch.offsets {
                state.index.record(
                    seq: entry.seq, offset: end.length + entry.offset, previousChain: entry.previousChain,
                    file: end.file)
            }
        }
    }

    /// Resolves the tickets of `queued` with their share of `envelopes`, in order.
    private func answer(_ queued: [Queued], with envelopes: [EventEnvelope]) {
        if queued.count == 1 {
            resolve(queued) { _ in .success(envelopes) }
        } else {
            var start = 0
            resolve(queued) { item in
                let end = start + item.events.count
                defer { start = end }
                return .success(Array(envelopes[start..<end]))
            }
        }
    }

    /// Resolves the tickets of `items` with `outcome(item)`, asked in order: every `onCommitted` callback first,
    /// in seq order, then `afterCallbacks`, then the tasks waiting in `committed()`, whose resumption is slower
    /// and less urgent.
    func resolve(_ items: [Queued], outcome: (Queued) -> AppendTicket.Outcome) {
        if items.count == 1, let resolution = items[0].ticket.settle(outcome(items[0])) {
            resolution.runCallbacks()
            afterCallbacks()
            resolution.resumeTasks()
            return
        }
        let resolutions = items.compactMap { $0.ticket.settle(outcome($0)) }
        for resolution in resolutions { resolution.runCallbacks() }
        afterCallbacks()
        for resolution in resolutions { resolution.resumeTasks() }
    }

    func fail(_ queued: [Queued], error: StorageError, length: Int64) {
        var message = "The event log could not be written (\(error)); weatherd is read-only until it is restarted"
        message += error.isNoSpace ? " with free disk space." : "."
        do {
            try file.truncate(to: length)
        } catch {
            message += " Cutting the log back also failed (\(error)); the next start will repair it."
        }
        let failure = StorageFailure(cause: error, message: message)
        let rest = state.withLock { state -> [Queued] in
            state.status.failure = failure
            state.nextSeq = state.status.lastSeq + 1
            let rest = state.queue
            state.queue.removeAll()
            return rest
        }
        resolve(queued + rest) { _ in .failure(failure) }
    }

    /// A sync in batch mode: a failure there turns the writer read-only like a failed append.
    func syncQuietly() {
        do throws(StorageError) {
            try file.sync()
            state.withLock {
                $0.status.syncs += 1
                $0.status.durableSeq = $0.status.lastSeq
            }
        } catch {
            let length = state.withLock { $0.status.length }
            fail([], error: error, length: length)
        }
    }
}
