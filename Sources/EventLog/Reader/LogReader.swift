#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a log file line by line, verifying every line (crc, chain, seq), without changing a byte.
///
/// A crash tears only what was written after the last sync: an incomplete last line, or zeros or
/// garbage after the last intact line, never more than the writer's largest batch
/// (`LogWriter.maxBatchBytes`). Exactly that is reported as a torn tail, for repair. Everything else
/// stops reading with `LogDamage`, because acknowledged events may be at stake:
/// - a complete, well-formed line (an envelope ending in its `chain` and `crc`) whose crc, chain or
///   seq does not hold, wherever it is;
/// - a well-formed line after an invalid one;
/// - bad bytes after the last intact line that are more than one batch;
/// - a first line of text that is not an envelope: the file is not a weatherd log.
///
/// A last line without its newline whose crc, chain and seq hold is a valid line: it is read, and
/// `Outcome.missingNewline` asks for the newline to be restored.
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
        /// Whether the last valid line lacks its newline (`position.length` ends before the missing newline).
        public var missingNewline = false
    }

    /// Reads the log at `path` (a missing file is an empty log) and calls `body` for every valid line.
    ///
    /// - Parameters:
    ///   - start: where to begin: a line offset with the seq and chain that precede it.
    ///   - limit: stop at this byte offset (a committed length), ignoring anything after it.
    ///   - maxTornBytes: the most bytes a torn write can leave (the writer's largest batch).
    /// - Throws: `LogDamage` for damage that is not a torn tail; `StorageError` when the file cannot
    ///   be read (a symbolic link is refused, `ELOOP`); whatever `body` throws.
    public static func read(
        path: String, start: LogWriter.Position = .empty, limit: Int64? = nil,
        maxTornBytes: Int64 = LogWriter.maxBatchBytes, _ body: (EventEnvelope, _ offset: Int64) throws -> Bool
    ) throws -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT {
                return Outcome(position: start, tail: nil, index: SeqIndex(), lines: 0, stopped: false)
            }
            throw StorageError(operation: "open", path: path, errno: errno)
        }
        defer { close(fd) }
        var scanner = Scanner(path: path, start: start, maxTornBytes: maxTornBytes)
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
        return try pending.withUnsafeBytes { try scanner.finish(trailing: $0, body) }
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
        let maxTornBytes: Int64
        var position: LogWriter.Position
        var offset: Int64
        var lineNumber: Int64 = 0
        var lines: Int64 = 0
        var index = SeqIndex()
        var firstBad: (line: Int64, seq: Int64, offset: Int64, problem: LineProblem)?
        var stopped = false

        init(path: String, start: LogWriter.Position, maxTornBytes: Int64) {
            self.path = path
            self.maxTornBytes = maxTornBytes
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
            if lineOffset == 0, EnvelopeCodec.isForeign(bytes) { throw foreign() }
            if let firstBad {
                if EnvelopeCodec.isWellFormed(bytes) { throw damage(firstBad, .logLinesFollow) }
                return
            }
            let envelope: EventEnvelope
            do throws(LineProblem) {
                envelope = try decode(bytes)
            } catch {
                let bad = (lineNumber, position.nextSeq, lineOffset, error)
                if EnvelopeCodec.isWellFormed(bytes) { throw damage(bad, .damagedLine) }
                firstBad = bad
                return
            }
            try accept(envelope, at: lineOffset, end: offset, body)
        }

        func decode(_ bytes: UnsafeRawBufferPointer) throws(LineProblem) -> EventEnvelope {
            let envelope = try EnvelopeCodec.decode(bytes, previousChain: position.lastChain)
            guard envelope.seq == position.nextSeq else {
                throw LineProblem(.badSeq, "seq \(envelope.seq) where \(position.nextSeq) was expected")
            }
            return envelope
        }

        mutating func accept(
            _ envelope: EventEnvelope, at lineOffset: Int64, end: Int64, _ body: (EventEnvelope, Int64) throws -> Bool
        ) throws {
            guard try body(envelope, lineOffset) else {
                stopped = true
                return
            }
            index.record(seq: envelope.seq, offset: lineOffset, previousChain: position.lastChain)
            position = LogWriter.Position(nextSeq: envelope.seq + 1, lastChain: envelope.chain, length: end)
            lines += 1
        }

        func damage(
            _ bad: (line: Int64, seq: Int64, offset: Int64, problem: LineProblem), _ kind: LogDamage.Kind
        ) -> LogDamage {
            LogDamage(path: path, line: bad.line, seq: bad.seq, offset: bad.offset, problem: bad.problem, kind: kind)
        }

        func foreign() -> LogDamage {
            LogDamage(
                path: path, line: 1, seq: 1, offset: 0,
                problem: LineProblem(.badJSON, "the file does not begin with a weatherd log line"),
                kind: .notAWeatherdLog)
        }

        /// Ends the read: `trailing` holds the bytes after the last newline.
        mutating func finish(
            trailing: UnsafeRawBufferPointer, _ body: (EventEnvelope, Int64) throws -> Bool
        ) throws -> Outcome {
            if stopped { return Outcome(position: position, tail: nil, index: index, lines: lines, stopped: true) }
            let end = offset + Int64(trailing.count)
            if offset == 0, EnvelopeCodec.isForeign(trailing) { throw foreign() }
            var tail: TornTail?
            if let firstBad {
                tail = TornTail(offset: firstBad.offset, length: end - firstBad.offset, reason: firstBad.problem.reason)
            } else if !trailing.isEmpty {
                let envelope: EventEnvelope?
                do throws(LineProblem) { envelope = try decode(trailing) } catch { envelope = nil }
                if let envelope {
                    try accept(envelope, at: offset, end: end, body)
                    return Outcome(
                        position: position, tail: nil, index: index, lines: lines, stopped: stopped,
                        missingNewline: !stopped)
                }
                tail = TornTail(offset: offset, length: Int64(trailing.count), reason: .noNewline)
            }
            if let tail, tail.length > maxTornBytes {
                let problem = LineProblem(
                    tail.reason,
                    "\(tail.length) bad bytes from here to the end, more than the \(maxTornBytes) bytes one "
                        + "interrupted write can leave")
                throw damage((firstBad?.line ?? lineNumber + 1, position.nextSeq, tail.offset, problem), .tailTooLong)
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
    /// What makes it damage rather than a torn write.
    public enum Kind: String, Sendable {
        /// A complete, well-formed line whose crc, chain or seq does not hold.
        case damagedLine = "damaged_line"
        /// An invalid line followed by well-formed lines: acknowledged events may lie behind it.
        case logLinesFollow = "log_lines_follow"
        /// More bad bytes at the end than one interrupted write can leave.
        case tailTooLong = "tail_too_long"
        /// The first line is text but not a log line: another program's file.
        case notAWeatherdLog = "not_a_weatherd_log"
    }

    public var path: String
    /// The 1-based line number.
    public var line: Int64
    /// The seq the line should have had.
    public var seq: Int64
    /// The byte offset where the line starts.
    public var offset: Int64
    public var problem: LineProblem
    public var kind: Kind

    public init(path: String, line: Int64, seq: Int64, offset: Int64, problem: LineProblem, kind: Kind = .damagedLine) {
        self.path = path
        self.line = line
        self.seq = seq
        self.offset = offset
        self.problem = problem
        self.kind = kind
    }

    public var description: String {
        let place = "\(path): line \(line) (seq \(seq), byte offset \(offset))"
        let advice = "No byte was changed; restore the file from a backup, or move it aside to start afresh."
        switch kind {
        case .notAWeatherdLog:
            return "\(path) is not a weatherd log: its first line is not a weatherd event. \(advice)"
        case .damagedLine:
            return "\(place) is damaged: \(problem.detail) [\(problem.reason.rawValue)]. A complete line with a bad "
                + "checksum is damage, not an interrupted write. \(advice)"
        case .logLinesFollow:
            return "\(place) is damaged: \(problem.detail) [\(problem.reason.rawValue)]. Log lines follow it, so "
                + "acknowledged events may lie behind the damage. \(advice)"
        case .tailTooLong:
            return "\(place) is damaged: \(problem.detail) [\(problem.reason.rawValue)]. \(advice)"
        }
    }
}
