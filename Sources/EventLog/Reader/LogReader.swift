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
}
