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
package enum LogReader {
    /// The end of the valid part of a log.
    package struct Outcome: Sendable, Equatable {
        /// Where appending continues.
        package var position: LogWriter.Position
        /// The torn tail found after the valid part, if any.
        package var tail: TornTail?
        /// The seq → offset index of the valid part.
        package var index: SeqIndex
        /// How many lines were valid.
        package var lines: Int64
        /// Whether `body` stopped the reading early (no tail is reported then).
        package var stopped: Bool
        /// Whether the last valid line lacks its newline (`position.length` ends before the missing newline).
        package var missingNewline = false

        /// The outcome of a read that found no line at or after `position`.
        static func nothingRead(at position: LogWriter.Position) -> Outcome {
            Outcome(position: position, tail: nil, index: SeqIndex(), lines: 0, stopped: false)
        }
    }

    /// Reads the log of the data dir at `directory` across its files (sealed segments in seq order, then the
    /// active file) and calls `body` for every valid line.
    ///
    /// Each segment must begin where the one before ended (its name and its first line's seq), or the read
    /// stops with `LogDamage` naming it (`segment_missing`); only the active file may end in a torn tail. In a
    /// segment the manifest lists as compacted, a line whose payload was stripped has its own crc checked and
    /// its stated chain taken as is (the lines after it prove it); a log truncated by retention begins after the
    /// manifest's `truncated.throughSeq`, continuing its chain.
    ///
    /// - Parameters:
    ///   - start: where to begin: a line's place (file and offset) with the seq and chain that precede it (from
    ///     the seq index). In a compacted segment, whose offsets changed, the segment is read from its start and
    ///     lines before `start.nextSeq` are verified but not passed on.
    ///   - limit: stop at this place (a committed end): `limit.length` bytes into the file whose first seq is
    ///     `limit.file`, ignoring anything after it.
    ///   - index: the seq index of the log before `start` (a snapshot's), which the outcome's index extends; the
    ///     outcome has an index only with one, or when the read begins at the log's first line.
    ///   - maxTornBytes: the most bytes a torn write can leave (the writer's largest batch).
    /// - Throws: `LogDamage` for damage that is not a torn tail of the active file; `StorageError` when a file
    ///   cannot be read (a symbolic link is refused, `ELOOP`); whatever `body` throws.
    package static func read(
        directory: String, start: LogWriter.Position = .empty, limit: LogEnd? = nil, index: SeqIndex? = nil,
        maxTornBytes: Int64 = LogWriter.maxBatchBytes, _ body: (EventEnvelope, LinePlace) throws -> Bool
    ) throws -> Outcome {
        // The active file is opened before the directory is listed: should the writer roll it over in between,
        // the listing shows it as the last segment (the same inode), and it is read once, as that segment.
        let activePath = directory + "/" + LogFiles.activeName
        let active = open(activePath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if active < 0, errno != ENOENT { throw StorageError(operation: "open", path: activePath, errno: errno) }
        defer { if active >= 0 { close(active) } }
        let files = try LogFiles.list(directory: directory)
        var sources = files.segments.map {
            Source(path: files.path(ofSegment: $0), firstSeq: $0, fd: nil, compacted: files.manifest.compacted[$0])
        }
        if active >= 0, !(files.segments.last.map { isSameFile(active, files.path(ofSegment: $0)) } ?? false) {
            sources.append(Source(path: activePath, firstSeq: nil, fd: active, compacted: nil))
        }
        return try read(
            sources, truncated: files.manifest.truncated, start: start, limit: limit, index: index,
            maxTornBytes: maxTornBytes, body)
    }

    /// Reads one log file as the whole log (a missing file is an empty log): `read(directory:)` for a file
    /// without segments, as tests and tools that hold a single file use it.
    package static func read(
        path: String, start: LogWriter.Position = .empty, limit: Int64? = nil,
        maxTornBytes: Int64 = LogWriter.maxBatchBytes, _ body: (EventEnvelope, LinePlace) throws -> Bool
    ) throws -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT {
                return Outcome.nothingRead(at: start)
            }
            throw StorageError(operation: "open", path: path, errno: errno)
        }
        defer { close(fd) }
        return try read(
            [Source(path: path, firstSeq: nil, fd: fd, compacted: nil)], truncated: nil, start: start,
            limit: limit.map { LogEnd(file: start.file, length: $0) }, index: nil, maxTornBytes: maxTornBytes, body)
    }

    /// One file of the log: a sealed segment (`firstSeq` from its name) or the active file (`firstSeq` nil:
    /// it begins wherever the files before it end), opened already or by path.
    struct Source {
        var path: String
        var firstSeq: Int64?
        var fd: Int32?
        var compacted: LogManifest.Compaction?
    }

    static func isSameFile(_ fd: Int32, _ path: String) -> Bool {
        var opened = stat()
        var named = stat()
        guard fstat(fd, &opened) == 0, lstat(path, &named) == 0 else { return false }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    private static func read(
        _ sources: [Source], truncated: LogManifest.Truncation?, start requested: LogWriter.Position,
        limit: LogEnd?, index: SeqIndex?, maxTornBytes: Int64, _ body: (EventEnvelope, LinePlace) throws -> Bool
    ) throws -> Outcome {
        var start = requested
        if let truncated, start.nextSeq <= truncated.throughSeq + 1 {
            start = LogWriter.Position(
                nextSeq: truncated.throughSeq + 1, lastChain: truncated.lastChain, length: 0,
                file: truncated.throughSeq + 1)
        }
        let sealed = sources.compactMap(\.firstSeq)
        let first: Int
        if let index = sources.firstIndex(where: { $0.firstSeq == start.file }) {
            first = index
        } else if start.file > (sealed.last ?? 0) {
            guard sources.last?.firstSeq == nil else {
                return Outcome.nothingRead(at: start)
            }
            first = sources.count - 1
        } else {
            let directory = sources.first.map { String($0.path[..<($0.path.lastIndex(of: "/") ?? $0.path.startIndex)]) }
            throw LogDamage(
                path: (directory.map { $0 + "/" } ?? "") + LogFiles.segmentName(start.file), line: 1,
                seq: start.nextSeq, offset: 0,
                problem: LineProblem(
                    .badSeq,
                    "the segment holding seq \(start.nextSeq) is missing (the log's segments begin at "
                        + "seq \(sealed.first ?? start.file))"), kind: .segmentMissing)
        }
        var skipBefore: Int64 = 0
        if let compaction = sources[first].compacted, start.length > 0 {
            skipBefore = start.nextSeq
            start = LogWriter.Position(
                nextSeq: compaction.firstSeq, lastChain: compaction.previousChain, length: 0, file: compaction.firstSeq)
        }
        // Lines are indexed onto `index`, or from the log's first line; a read from elsewhere indexes nothing.
        let fromFirstLine = first == 0 && start.length == 0 && start.nextSeq == (truncated?.throughSeq ?? 0) + 1
        var scanner = Scanner(
            start: start, maxTornBytes: maxTornBytes, skipBefore: skipBefore, index: index,
            indexing: index != nil || fromFirstLine)
        var outcome: Outcome?
        for (number, source) in sources[first...].enumerated() {
            let isLast = first + number == sources.count - 1
            let fileSeq = source.firstSeq ?? (number == 0 ? start.file : scanner.position.nextSeq)
            if number > 0 {
                if let named = source.firstSeq, named != scanner.position.nextSeq {
                    let expected = scanner.position.nextSeq
                    throw LogDamage(
                        path: source.path, line: 1, seq: expected, offset: 0,
                        problem: LineProblem(
                            .badSeq,
                            named > expected
                                ? "it begins at seq \(named), but the file before it ends at seq \(expected - 1): "
                                    + "seqs \(expected)…\(named - 1) are missing"
                                : "it begins at seq \(named), but the file before it already reached seq "
                                    + "\(expected - 1) (out of order, or renamed?)"), kind: .segmentMissing)
                }
                if let compaction = source.compacted, compaction.previousChain != scanner.position.lastChain {
                    throw LogDamage(
                        path: source.path, line: 1, seq: scanner.position.nextSeq, offset: 0,
                        problem: LineProblem(
                            .badChain,
                            "the manifest links this compacted segment to a chain the file before it "
                                + "does not end in"), kind: .manifest)
                }
                scanner.enter(file: fileSeq, path: source.path, compacted: source.compacted)
            } else {
                scanner.enter(file: fileSeq, path: source.path, compacted: source.compacted, offset: start.length)
            }
            let capped = limit.flatMap { $0.file == fileSeq ? $0.length : nil }
            let fileOutcome = try readFile(source, scanner: &scanner, limit: capped, sealed: !isLast, body)
            outcome = fileOutcome
            if let compaction = source.compacted, !fileOutcome.stopped, capped == nil,
                compaction.lastChain != scanner.position.lastChain || compaction.lastSeq != scanner.position.nextSeq - 1
            {
                throw LogDamage(
                    path: source.path, line: scanner.lineNumber, seq: scanner.position.nextSeq - 1,
                    offset: scanner.offset,
                    problem: LineProblem(
                        .badChain,
                        "the compacted segment ends at seq \(scanner.position.nextSeq - 1), not where the "
                            + "manifest says (seq \(compaction.lastSeq) with its chain)"), kind: .manifest)
            }
            if fileOutcome.stopped || capped != nil { break }
        }
        return outcome ?? Outcome.nothingRead(at: start)
    }

    /// Reads one file from the scanner's offset; a sealed file (`sealed`) may not end in a torn tail.
    private static func readFile(
        _ source: Source, scanner: inout Scanner, limit: Int64?, sealed: Bool,
        _ body: (EventEnvelope, LinePlace) throws -> Bool
    ) throws -> Outcome {
        let fd: Int32
        if let opened = source.fd {
            fd = opened
        } else {
            fd = open(source.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else {
                if errno == ENOENT {
                    throw LogDamage(
                        path: source.path, line: 1, seq: scanner.position.nextSeq, offset: 0,
                        problem: LineProblem(.badSeq, "the segment disappeared while it was read"),
                        kind: .segmentMissing)
                }
                throw StorageError(operation: "open", path: source.path, errno: errno)
            }
        }
        defer { if source.fd == nil { close(fd) } }
        let path = source.path
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var pending: [UInt8] = []
        var fileOffset = scanner.offset
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
        if sealed, !scanner.stopped {
            if let bad = scanner.firstBad {
                throw scanner.damage(bad, .sealedSegmentTorn)
            }
            if !pending.isEmpty {
                throw scanner.damage(
                    (
                        scanner.lineNumber + 1, scanner.position.nextSeq, scanner.offset,
                        LineProblem(.noNewline, "a sealed segment ends in \(pending.count) bytes without a newline")
                    ),
                    .sealedSegmentTorn)
            }
            if scanner.linesInFile == 0, scanner.offset == 0 {
                throw scanner.damage(
                    (1, scanner.position.nextSeq, 0, LineProblem(.badSeq, "a sealed segment is empty")),
                    .segmentMissing)
            }
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

    /// Per-line state of one read, carried from file to file.
    private struct Scanner {
        var path = ""
        let maxTornBytes: Int64
        var position: LogWriter.Position
        var offset: Int64
        var lineNumber: Int64 = 0
        var lines: Int64 = 0
        var linesInFile: Int64 = 0
        var index = SeqIndex()
        var firstBad: (line: Int64, seq: Int64, offset: Int64, problem: LineProblem)?
        var stopped = false
        /// Lines of lower seqs are verified but not passed on (a compacted segment read from its start).
        let skipBefore: Int64
        /// The manifest's entry when the current file is a compacted segment.
        var compacted: LogManifest.Compaction?
        /// Whether lines are recorded in `index`.
        let indexing: Bool

        init(start: LogWriter.Position, maxTornBytes: Int64, skipBefore: Int64, index: SeqIndex?, indexing: Bool) {
            self.maxTornBytes = maxTornBytes
            self.position = start
            self.offset = start.length
            self.skipBefore = skipBefore
            self.index = index ?? SeqIndex()
            self.indexing = indexing
        }

        /// Moves on to the file whose first seq is `file`, at `offset`.
        mutating func enter(file: Int64, path: String, compacted: LogManifest.Compaction?, offset: Int64 = 0) {
            self.path = path
            self.compacted = compacted
            self.offset = offset
            position.file = file
            position.length = offset
            linesInFile = 0
            // Line n of a file holds its n-th seq, so a read that starts at a later line still names lines by
            // their number.
            lineNumber = position.nextSeq - file
            if let compacted, offset == 0 { position.lastChain = compacted.previousChain }
        }

        mutating func line(
            _ bytes: UnsafeRawBufferPointer, _ body: (EventEnvelope, LinePlace) throws -> Bool
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

        mutating func decode(_ bytes: UnsafeRawBufferPointer) throws(LineProblem) -> EventEnvelope {
            let envelope: EventEnvelope
            do throws(LineProblem) {
                envelope = try EnvelopeCodec.decode(
                    bytes, previousChain: position.lastChain, allowStripped: compacted != nil)
            } catch {
                // Compaction may have replaced this segment after the manifest was read: read it again, once.
                guard error.reason == .badChain, compacted == nil, let slash = path.lastIndex(of: "/"),
                    let entry = (try? LogManifest.read(directory: String(path[..<slash])))?.compacted[position.file]
                else { throw error }
                compacted = entry
                envelope = try EnvelopeCodec.decode(bytes, previousChain: position.lastChain, allowStripped: true)
            }
            guard envelope.seq == position.nextSeq else {
                throw LineProblem(.badSeq, "seq \(envelope.seq) where \(position.nextSeq) was expected")
            }
            return envelope
        }

        mutating func accept(
            _ envelope: EventEnvelope, at lineOffset: Int64, end: Int64,
            _ body: (EventEnvelope, LinePlace) throws -> Bool
        ) throws {
            if envelope.seq >= skipBefore {
                let place = LinePlace(path: path, file: position.file, offset: lineOffset, line: lineNumber)
                guard try body(envelope, place) else {
                    stopped = true
                    return
                }
            }
            if indexing {
                index.record(
                    seq: envelope.seq, offset: lineOffset, previousChain: position.lastChain, file: position.file)
            }
            position = LogWriter.Position(
                nextSeq: envelope.seq + 1, lastChain: envelope.chain, length: end, file: position.file)
            lines += 1
            linesInFile += 1
        }

        func damage(
            _ bad: (line: Int64, seq: Int64, offset: Int64, problem: LineProblem), _ kind: LogDamage.Kind
        ) -> LogDamage {
            LogDamage(path: path, line: bad.line, seq: bad.seq, offset: bad.offset, problem: bad.problem, kind: kind)
        }

        func foreign() -> LogDamage {
            LogDamage(
                path: path, line: 1, seq: position.nextSeq, offset: 0,
                problem: LineProblem(.badJSON, "the file does not begin with a weatherd log line"),
                kind: .notAWeatherdLog)
        }

        /// Ends the read: `trailing` holds the bytes after the last newline.
        mutating func finish(
            trailing: UnsafeRawBufferPointer, _ body: (EventEnvelope, LinePlace) throws -> Bool
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
                    lineNumber += 1
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

/// Where a line was read: its file (path and first seq), its byte offset and its 1-based line number there.
package struct LinePlace: Sendable, Equatable {
    package var path: String
    package var file: Int64
    package var offset: Int64
    package var line: Int64
}

/// A torn tail: the bytes from `offset` to the end of the file, to be cut off.
package struct TornTail: Sendable, Equatable {
    package var offset: Int64
    package var length: Int64
    package var reason: LineProblem.Reason

    package init(offset: Int64, length: Int64, reason: LineProblem.Reason) {
        self.offset = offset
        self.length = length
        self.reason = reason
    }
}

/// Damage that is not a torn tail: start-up refuses, naming where it is.
package struct LogDamage: Error, Sendable, Equatable, CustomStringConvertible {
    /// What makes it damage rather than a torn write.
    package enum Kind: String, Sendable {
        /// A complete, well-formed line whose crc, chain or seq does not hold.
        case damagedLine = "damaged_line"
        /// An invalid line followed by well-formed lines: acknowledged events may lie behind it.
        case logLinesFollow = "log_lines_follow"
        /// More bad bytes at the end than one interrupted write can leave.
        case tailTooLong = "tail_too_long"
        /// The first line is text but not a log line: another program's file.
        case notAWeatherdLog = "not_a_weatherd_log"
        /// A sealed segment is missing, out of order, or misnamed: seqs are not gapless across the files.
        case segmentMissing = "segment_missing"
        /// A sealed segment ends in a cut line or bad bytes (only the active file can be torn by a crash).
        case sealedSegmentTorn = "sealed_segment_torn"
        /// The log's manifest (`log-manifest.json`) is damaged, or a file does not match it.
        case manifest = "manifest"
    }

    package var path: String
    /// The 1-based line number.
    package var line: Int64
    /// The seq the line should have had.
    package var seq: Int64
    /// The byte offset where the line starts.
    package var offset: Int64
    package var problem: LineProblem
    package var kind: Kind

    package init(path: String, line: Int64, seq: Int64, offset: Int64, problem: LineProblem, kind: Kind = .damagedLine)
    {
        self.path = path
        self.line = line
        self.seq = seq
        self.offset = offset
        self.problem = problem
        self.kind = kind
    }

    package var description: String {
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
        case .tailTooLong, .sealedSegmentTorn, .manifest:
            return "\(place) is damaged: \(problem.detail) [\(problem.reason.rawValue)]. \(advice)"
        case .segmentMissing:
            return "\(path) does not continue the log: \(problem.detail). Segments are read in seq order and must "
                + "follow each other without a gap. \(advice)"
        }
    }
}
