import Dispatch
import Foundation
import Synchronization
import WeatherDomain
import WeatherRuntime

extension LogWriter {
    /// Writes one batch of at most `batchLimit` bytes from the front of `all` (the rest goes back to the
    /// front of the queue), rolling the active file over first when the batch would take it past
    /// `segmentBytes`; returns whether it committed.
    func commit(_ all: [Queued], previousChain: UInt32, end: LogEnd, buffer: inout [UInt8]) -> Bool {
        var length = end.length
        var fileSeq = end.file
        let room = length > 0 ? max(0, segmentBytes - length) : segmentBytes
        let limit = Int(min(Int64(batchLimit), room))
        let ts = now()
        let tsBytes = ts.rfc3339Bytes
        var chain = previousChain
        var envelopes: [EventEnvelope] = []
        envelopes.reserveCapacity(all.count)
        var offsets: [(seq: Int64, offset: Int64, previousChain: UInt32)] = []
        var taken = 0
        for item in all {
            let mark = (bytes: buffer.count, chain: chain, envelopes: envelopes.count, offsets: offsets.count)
            for (position, event) in item.events.enumerated() {
                let seq = item.firstSeq + Int64(position)
                if SeqIndex.isIndexed(seq) { offsets.append((seq, Int64(buffer.count), chain)) }
                let (lineChain, crc) = EnvelopeCodec.encode(
                    seq: seq, tsBytes: tsBytes, event: event, previousChain: chain, into: &buffer)
                chain = lineChain
                envelopes.append(
                    EventEnvelope(
                        seq: seq, ts: ts, type: event.type, v: event.v, cause: event.cause, corr: event.corr,
                        data: event.data, chain: lineChain, crc: crc, event: event.event))
            }
            if taken > 0, buffer.count > limit {
                buffer.removeLast(buffer.count - mark.bytes)
                chain = mark.chain
                envelopes.removeLast(envelopes.count - mark.envelopes)
                offsets.removeLast(offsets.count - mark.offsets)
                break
            }
            taken += 1
        }
        let queued = taken == all.count ? all : Array(all[..<taken])
        if taken < all.count {
            let rest = all[taken...]
            state.withLock { $0.queue.insert(contentsOf: rest, at: 0) }
        }
        if length > 0, length + Int64(buffer.count) > segmentBytes {
            do throws(StorageError) {
                try file.rollOver(firstSeq: fileSeq)
            } catch {
                fail(queued, error: error, length: length)
                return false
            }
            fileSeq = queued[0].firstSeq
            length = 0
            state.withLock { state in
                state.status.file = fileSeq
                state.status.length = 0
                state.status.rollOvers += 1
            }
        }
        var failure: StorageError?
        buffer.withUnsafeBytes { bytes in
            do throws(StorageError) {
                try file.append(bytes)
                if mode == .always { try file.sync() }
            } catch {
                failure = error
            }
        }
        if let failure {
            fail(queued, error: failure, length: length)
            return false
        }
        let newLength = length + Int64(buffer.count)
        state.withLock { state in
            state.lastChain = chain
            state.status.length = newLength
            state.status.lastSeq = envelopes.last?.seq ?? state.status.lastSeq
            state.status.batches += 1
            if mode == .always {
                state.status.syncs += 1
                state.status.durableSeq = state.status.lastSeq
            }
            for entry in offsets {
                state.index.record(
                    seq: entry.seq, offset: length + entry.offset, previousChain: entry.previousChain, file: fileSeq)
            }
        }
        onCommit(envelopes)
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
        return true
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
