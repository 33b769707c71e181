#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a log file line by line, verifying every line (crc, chain, seq), without changing a byte.
///
/// The first invalid line decides the outcome: when no intact line (one whose own crc holds)
/// follows it, everything from it to the end is a torn tail, the trace of a write that never
/// completed and was never acknowledged, and is reported for repair. When an intact line does
/// follow it, acknowledged events may lie behind the damage, so reading stops with `LogDamage`.
public enum LogReader {
    /// The end of the valid part of a log.
    public struct Outcome: Sendable, Equatable {
        /// Where appending continues.
        public var position: LogWriter.Position
        /// The torn tail found after the valid part, if any.
        public var tail: TornTail?
        /// The seq → offset index of the valid part.
        public var index: SeqIndex
        /// How many lines were valid.
        public var lines: Int64
        /// Whether `body` stopped the reading early (no tail is reported then).
        public var stopped: Bool
    }

    /// Reads the log at `path` (a missing file is an empty log) and calls `body` for every valid line.
    ///
    /// - Parameters:
    ///   - start: where to begin: a line offset with the seq and chain that precede it.
    ///   - limit: stop at this byte offset (a committed length), ignoring anything after it.
    /// - Throws: `LogDamage` for damage that is not a torn tail; `StorageError` when the file cannot
    ///   be read; whatever `body` throws.
    public static func read(
        path: String, start: LogWriter.Position = .empty, limit: Int64? = nil,
        _ body: (EventEnvelope, _ offset: Int64) throws -> Bool
    ) throws -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT {
                return Outcome(position: start, tail: nil, index: SeqIndex(), lines: 0, stopped: false)
            }
            throw StorageError(operation: "open", path: path, errno: errno)
        }
        defer { close(fd) }
        var scanner = Scanner(path: path, start: start)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var pending: [UInt8] = []
        var fileOffset = start.length
        reading: while true {
            var want = chunk.count
            if let limit { want = Int(min(Int64(want), max(0, limit - fileOffset))) }
            if want == 0 { break }
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, want, off_t(fileOffset)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StorageError(operation: "read", path: path, errno: errno)
            }
            if count == 0 { break }
            fileOffset += Int64(count)
            try chunk.withUnsafeBytes { raw in
                defer { if scanner.stopped { pending.removeAll() } }
                let bytes = UnsafeRawBufferPointer(rebasing: raw[..<count])
                var lineStart = 0
                if !pending.isEmpty {
                    guard let newline = newlineIndex(in: bytes, from: 0) else {
                        pending.append(contentsOf: bytes)
                        return
                    }
                    pending.append(contentsOf: bytes[..<newline])
                    try pending.withUnsafeBytes { try scanner.line($0, body) }
                    pending.removeAll(keepingCapacity: true)
                    lineStart = newline + 1
                }
                while !scanner.stopped, let newline = newlineIndex(in: bytes, from: lineStart) {
                    try scanner.line(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<newline]), body)
                    lineStart = newline + 1
                }
                pending.append(contentsOf: bytes[lineStart...])
            }
            if scanner.stopped { break reading }
        }
        return try scanner.finish(trailing: Int64(pending.count))
    }

    /// The index of the first newline in `bytes` at or after `start`, found with `memchr`.
    static func newlineIndex(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Per-line state of one read.
    private struct Scanner {
        let path: String
        var position: LogWriter.Position
        var offset: Int64
        var lineNumber: Int64 = 0
        var lines: Int64 = 0
        var index = SeqIndex()
        var firstBad: (line: Int64, seq: Int64, offset: Int64, problem: LineProblem)?
        var stopped = false

        init(path: String, start: LogWriter.Position) {
            self.path = path
            self.position = start
            self.offset = start.length
            // Line n holds seq n, so a read that starts at a later line still names lines by their number.
            self.lineNumber = start.nextSeq - 1
        }

        mutating func line(
            _ bytes: UnsafeRawBufferPointer, _ body: (EventEnvelope, Int64) throws -> Bool
        ) throws {
            guard !stopped else { return }
            lineNumber += 1
            let lineOffset = offset
            offset += Int64(bytes.count) + 1
            if let firstBad {
                if EnvelopeCodec.hasValidCRC(bytes) { throw damage(firstBad) }
                return
            }
            let envelope: EventEnvelope
            do throws(LineProblem) {
                envelope = try EnvelopeCodec.decode(bytes, previousChain: position.lastChain)
                guard envelope.seq == position.nextSeq else {
                    throw LineProblem(.badSeq, "seq \(envelope.seq) where \(position.nextSeq) was expected")
                }
            } catch {
                firstBad = (lineNumber, position.nextSeq, lineOffset, error)
                return
            }
            guard try body(envelope, lineOffset) else {
                stopped = true
                return
            }
            index.record(seq: envelope.seq, offset: lineOffset, previousChain: position.lastChain)
            position = LogWriter.Position(nextSeq: envelope.seq + 1, lastChain: envelope.chain, length: offset)
            lines += 1
        }

        func damage(_ bad: (line: Int64, seq: Int64, offset: Int64, problem: LineProblem)) -> LogDamage {
            LogDamage(path: path, line: bad.line, seq: bad.seq, offset: bad.offset, problem: bad.problem)
        }

        func finish(trailing: Int64) throws -> Outcome {
            if stopped { return Outcome(position: position, tail: nil, index: index, lines: lines, stopped: true) }
            let end = offset + trailing
            var tail: TornTail?
            if let firstBad {
                tail = TornTail(offset: firstBad.offset, length: end - firstBad.offset, reason: firstBad.problem.reason)
            } else if trailing > 0 {
                tail = TornTail(offset: offset, length: trailing, reason: .noNewline)
            }
            return Outcome(position: position, tail: tail, index: index, lines: lines, stopped: false)
        }
    }
}

/// A torn tail: the bytes from `offset` to the end of the file, to be cut off.
public struct TornTail: Sendable, Equatable {
    public var offset: Int64
    public var length: Int64
    public var reason: LineProblem.Reason

    public init(offset: Int64, length: Int64, reason: LineProblem.Reason) {
        self.offset = offset
        self.length = length
        self.reason = reason
    }
}

/// Damage that is not a torn tail: start-up refuses, naming where it is.
public struct LogDamage: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// The 1-based line number.
    public var line: Int64
    /// The seq the line should have had.
    public var seq: Int64
    /// The byte offset where the line starts.
    public var offset: Int64
    public var problem: LineProblem

    public init(path: String, line: Int64, seq: Int64, offset: Int64, problem: LineProblem) {
        self.path = path
        self.line = line
        self.seq = seq
        self.offset = offset
        self.problem = problem
    }

    public var description: String {
        "\(path): line \(line) (seq \(seq), byte offset \(offset)) is damaged: \(problem.detail) "
            + "[\(problem.reason.rawValue)]. Intact events follow it, so nothing was dropped and no byte was changed; "
            + "restore the file from a backup, or move it aside to start afresh."
    }
}
