import EventLog
import Foundation
import WeatherDomain
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Rebuilds a data dir from its log shipped to a JetStream stream (`weatherd restore`): the log, line for line
/// as it was committed, and its log id, so that it replays to the same state and ships on under the same subject.
///
/// Every message on `<prefix>.<log id>` is read in stream order (`STREAM.MSG.GET`, as shipping reads) and checked
/// before it is kept: its `Nats-Msg-Id` is `<log id>-<seq>` for the next seq (no gap, no repeat, nothing from
/// another log), its line's `crc` holds and its `chain` follows the line before, from `00000000` at seq 1. The
/// data dir is built beside the target, in a hidden `.<name>.restoring-<random>` directory, and renamed onto it
/// only once complete and synced: a failed or interrupted restore never leaves the target half-written, and a
/// target that is not empty is refused before anything is read.
package enum LogRestore {
    /// What a restore wrote.
    package struct Outcome: Sendable, Equatable {
        /// The last seq of the restored log.
        package var lastSeq: Int64
        /// The restored log's size in bytes.
        package var bytes: Int64
    }

    /// Restores the log `logID` from `stream` (subject `<subjectPrefix>.<logID>`) into `directory`, which must be
    /// absent or empty.
    ///
    /// - Throws: `RestoreError` (the target is not empty, the stream holds no such log, a message is damaged,
    ///   out of order or missing), `NATSError`, `StorageError`.
    package static func run(
        from jetStream: JetStream, stream: String, subjectPrefix: String, logID: String, into directory: String
    ) async throws -> Outcome {
        guard LogIdentity.isValid(logID) else { throw RestoreError.badLogID(logID) }
        let target = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        try checkTarget(target)
        guard try await jetStream.streamSubjects(stream) != nil else { throw NATSError.noStream(stream) }
        let slash = target.lastIndex(of: "/")
        let parent = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        try DataDirectory(path: parent).create()
        var random = SystemRandomNumberGenerator()
        let staging = parent + "/." + name + ".restoring-" + String(random.next() as UInt64, radix: 16)
        guard mkdir(staging, 0o700) == 0 else { throw StorageError(operation: "mkdir", path: staging, errno: errno) }
        do {
            let outcome = try await write(
                from: jetStream, stream: stream, subject: "\(subjectPrefix).\(logID)", logID: logID,
                into: DataDirectory(path: staging))
            try LogIdentity.write(logID, directory: staging)
            try DataDirectory.syncDirectory(staging)
            // Renaming a directory onto an empty one replaces it; onto one that is not empty, it fails.
            guard rename(staging, target) == 0 else {
                if errno == ENOTEMPTY || errno == EEXIST { throw RestoreError.notEmpty(target) }
                throw StorageError(operation: "rename", path: target, errno: errno)
            }
            try DataDirectory.syncDirectory(parent)
            return outcome
        } catch {
            do {
                try FileManager.default.removeItem(atPath: staging)
            } catch let removal {
                throw RestoreError.leftBehind(error, staging: staging, because: "\(removal)")
            }
            throw error
        }
    }

    /// Refuses a target that exists and is not an empty directory (checked again by `run`; a caller checks first
    /// to refuse before it connects).
    ///
    /// - Throws: `RestoreError`, `StorageError`.
    package static func checkTarget(_ target: String) throws {
        var status = stat()
        guard lstat(target, &status) == 0 else {
            if errno == ENOENT { return }
            throw StorageError(operation: "lstat", path: target, errno: errno)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw RestoreError.notEmpty(target) }
        guard try FileManager.default.contentsOfDirectory(atPath: target).isEmpty else {
            throw RestoreError.notEmpty(target)
        }
    }

    /// Reads the log's messages in stream order, checks each, and writes their lines to the staging data dir's
    /// log, synced.
    private static func write(
        from jetStream: JetStream, stream: String, subject: String, logID: String, into staging: DataDirectory
    ) async throws -> Outcome {
        let path = staging.logPath
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw StorageError(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        var buffer: [UInt8] = []
        var bytes: Int64 = 0
        var expected: Int64 = 1
        var chain: UInt32 = 0
        var next: Int64 = 1
        while let message = try await jetStream.nextMessage(stream, subject: subject, from: next) {
            guard let seq = message.seq(ofLog: logID) else {
                throw RestoreError.foreign(streamSeq: message.streamSeq, id: message.logMessageID, subject: subject)
            }
            guard seq == expected else {
                throw RestoreError.outOfOrder(streamSeq: message.streamSeq, seq: seq, expected: expected)
            }
            let decoded = message.data.withUnsafeBytes { line in
                Result { () throws(LineProblem) in try EnvelopeCodec.decode(line, previousChain: chain) }
            }
            let envelope: EventEnvelope
            switch decoded {
            case .success(let decodedEnvelope): envelope = decodedEnvelope
            case .failure(let problem):
                throw RestoreError.damaged(streamSeq: message.streamSeq, seq: seq, problem: "\(problem)")
            }
            guard envelope.seq == seq else {
                throw RestoreError.damaged(
                    streamSeq: message.streamSeq, seq: seq, problem: "its line says seq \(envelope.seq)")
            }
            buffer += message.data
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 1 << 20 {
                try flush(&buffer, to: fd, path: path)
            }
            bytes += Int64(message.data.count + 1)
            chain = envelope.chain
            expected += 1
            next = message.streamSeq + 1
        }
        guard expected > 1 else { throw RestoreError.noLog(logID, subject: subject, stream: stream) }
        try flush(&buffer, to: fd, path: path)
        guard fsync(fd) == 0 else { throw StorageError(operation: "fsync", path: path, errno: errno) }
        return Outcome(lastSeq: expected - 1, bytes: bytes)
    }

    private static func flush(_ buffer: inout [UInt8], to fd: Int32, path: String) throws(StorageError) {
        guard !buffer.isEmpty else { return }
        if let code = Descriptor.writeAll(fd, buffer) {
            throw StorageError(operation: "write", path: path, errno: code)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Why a restore stopped, in a sentence an operator can act on; nothing was written to the target.
package struct RestoreError: Error, CustomStringConvertible {
    private enum Code: String {
        case notEmpty = "restore_target_not_empty"
        case badLogID = "restore_bad_log_id"
        case noLog = "restore_no_log"
        case foreign = "restore_foreign_message"
        case outOfOrder = "restore_out_of_order"
        case damaged = "restore_damaged_line"
        case leftBehind = "restore_left_behind"
    }

    private let code: Code
    package let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// A stable name of the failure.
    package var kind: String { code.rawValue }

    static func notEmpty(_ path: String) -> RestoreError {
        RestoreError(.notEmpty, "\(path) is not an empty directory: restore writes only a new or empty data dir")
    }

    static func badLogID(_ id: String) -> RestoreError {
        RestoreError(.badLogID, "\(id.debugDescription) is not a log id (1 to 64 letters, digits, - or _)")
    }

    static func noLog(_ id: String, subject: String, stream: String) -> RestoreError {
        RestoreError(.noLog, "the stream \(stream) holds no events of log \(id) (subject \(subject))")
    }

    static func foreign(streamSeq: Int64, id: String, subject: String) -> RestoreError {
        RestoreError(
            .foreign,
            "stream seq \(streamSeq) on \(subject) is not from this log (Nats-Msg-Id "
                + "\(id.isEmpty ? "missing" : id.debugDescription)); nothing was restored")
    }

    static func outOfOrder(streamSeq: Int64, seq: Int64, expected: Int64) -> RestoreError {
        let what =
            seq < expected
            ? "repeats seq \(seq)"
            : expected == 1
                ? "is seq \(seq), but the log begins at seq 1 (the stream's limits dropped its start?)"
                : "is seq \(seq): seq \(expected) is missing"
        return RestoreError(
            .outOfOrder, "stream seq \(streamSeq) \(what), where seq \(expected) was expected; nothing was restored")
    }

    static func damaged(streamSeq: Int64, seq: Int64, problem: String) -> RestoreError {
        RestoreError(
            .damaged,
            "stream seq \(streamSeq) (log seq \(seq)) is not an intact log line: \(problem); nothing was restored")
    }

    static func leftBehind(_ error: any Error, staging: String, because why: String) -> RestoreError {
        RestoreError(.leftBehind, "\(error); and the partial copy \(staging) could not be removed: \(why)")
    }
}
