import EventLog
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An in-memory log file that models the page cache: written bytes are volatile until `sync`.
///
/// Faults are planned, not flagged: `failAppend` makes a future append fail with an errno after
/// writing a given number of its bytes (as a full disk does); `failSync` makes the next sync fail.
/// `afterPowerLoss` returns what the file would hold after the machine lost power.
package final class FaultInjectingFile: LogFile {
    /// A planned append failure.
    package struct AppendFault: Sendable {
        /// How many appends succeed before the one that fails.
        package var after: Int
        /// How many bytes of the failing append are written before the error.
        package var partialBytes: Int
        package var errno: Int32

        package init(after: Int = 0, partialBytes: Int = 0, errno: Int32 = ENOSPC) {
            self.after = after
            self.partialBytes = partialBytes
            self.errno = errno
        }
    }

    /// How unsynced bytes are damaged by a power loss.
    package enum PowerLoss: Sendable, CaseIterable {
        /// They are gone.
        case drop
        /// A prefix of them survives.
        case truncate
        /// Their length survives, filled with zeros after a surviving prefix.
        case zeroFill
        /// A prefix survives and the rest is random bytes.
        case garble
    }

    private struct State {
        var bytes: [UInt8]
        var durableLength: Int
        var appends = 0
        var appendSizes: [Int] = []
        var syncs = 0
        var appendFault: AppendFault?
        var syncFault: Int32?
        var rollOverFault: Int32?
        var sealed: [(firstSeq: Int64, bytes: [UInt8])] = []
    }

    private let state: Mutex<State>

    /// A file holding `initial` bytes, all durable.
    package init(initial: [UInt8] = []) { state = Mutex(State(bytes: initial, durableLength: initial.count)) }

    /// Plans an append failure.
    package func failAppend(_ fault: AppendFault) { state.withLock { $0.appendFault = fault } }

    /// Makes the next sync fail with `errno`.
    package func failSync(errno: Int32 = EIO) { state.withLock { $0.syncFault = errno } }

    /// Makes the next roll-over fail with `errno` (before anything is sealed).
    package func failRollOver(errno: Int32 = ENOSPC) { state.withLock { $0.rollOverFault = errno } }

    /// The segments sealed so far: each one's first seq and bytes, in order.
    package var sealed: [(firstSeq: Int64, bytes: [UInt8])] { state.withLock { $0.sealed } }

    /// Every byte written so far, durable or not.
    package var contents: [UInt8] { state.withLock { $0.bytes } }

    /// The bytes that survive any crash.
    package var durableContents: [UInt8] { state.withLock { Array($0.bytes[..<$0.durableLength]) } }

    /// How many syncs succeeded.
    package var syncCount: Int { state.withLock { $0.syncs } }

    /// How many appends were made (successful or not).
    package var appendCount: Int { state.withLock { $0.appends } }

    /// How many bytes each append was asked to write, in order.
    package var appendSizes: [Int] { state.withLock { $0.appendSizes } }

    package func append(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        let failure: Int32? = state.withLock { state in
            state.appends += 1
            state.appendSizes.append(bytes.count)
            if var fault = state.appendFault {
                if fault.after == 0 {
                    state.appendFault = nil
                    state.bytes.append(contentsOf: bytes.prefix(fault.partialBytes))
                    return fault.errno
                }
                fault.after -= 1
                state.appendFault = fault
            }
            state.bytes.append(contentsOf: bytes)
            return nil
        }
        if let failure { throw StorageError(operation: "write", path: "memory", errno: failure) }
    }

    package func sync() throws(StorageError) {
        let failure: Int32? = state.withLock { state in
            if let fault = state.syncFault {
                state.syncFault = nil
                return fault
            }
            state.durableLength = state.bytes.count
            state.syncs += 1
            return nil
        }
        if let failure { throw StorageError(operation: "fdatasync", path: "memory", errno: failure) }
    }

    package func rollOver(firstSeq: Int64) throws(StorageError) {
        let failure: Int32? = state.withLock { state in
            if let fault = state.rollOverFault {
                state.rollOverFault = nil
                return fault
            }
            state.sealed.append((firstSeq, state.bytes))
            state.bytes = []
            state.durableLength = 0
            return nil
        }
        if let failure { throw StorageError(operation: "link", path: "memory", errno: failure) }
    }

    package func truncate(to length: Int64) throws(StorageError) {
        state.withLock { state in
            let length = Int(length)
            if length < state.bytes.count { state.bytes.removeLast(state.bytes.count - length) }
            state.durableLength = min(state.durableLength, state.bytes.count)
        }
    }

    /// The file as a power loss would leave it, using `random` for the surviving prefix and garbage.
    package func afterPowerLoss(_ loss: PowerLoss, using random: inout some RandomNumberGenerator) -> [UInt8] {
        let (bytes, durable) = state.withLock { ($0.bytes, $0.durableLength) }
        let volatile = bytes.count - durable
        var out = Array(bytes[..<durable])
        guard volatile > 0 else { return out }
        let kept = Int.random(in: 0...volatile, using: &random)
        switch loss {
        case .drop:
            break
        case .truncate:
            out.append(contentsOf: bytes[durable..<(durable + kept)])
        case .zeroFill:
            out.append(contentsOf: bytes[durable..<(durable + kept)])
            out.append(contentsOf: [UInt8](repeating: 0, count: volatile - kept))
        case .garble:
            out.append(contentsOf: bytes[durable..<(durable + kept)])
            for _ in kept..<volatile { out.append(UInt8.random(in: 0...255, using: &random)) }
        }
        return out
    }
}
