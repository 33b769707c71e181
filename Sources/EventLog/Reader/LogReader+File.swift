#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LogReader {
    /// Reads one file from the scanner's offset; a sealed file (`sealed`) may not end in a torn tail.
    static func readFile(
        _ source: Source, scanner: inout Scanner, limit: Int64?, sealed: Bool,
        _ body: (EventEnvelope, LinePlace) throws -> Bool
    ) throws -> Outcome {
        let fd = try openFile(source, nextSeq: scanner.position.nextSeq)
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
            try checkSealedEnd(scanner, pending: pending)
        }
        return try pending.withUnsafeBytes { try scanner.finish(trailing: $0, body) }
    }

    /// The source's descriptor: the one it came with, or its path opened now.
    ///
    /// - Throws: `LogDamage` (`segment_missing`) when a segment disappeared since the directory was listed
    ///   (`nextSeq` is the seq it should begin with); `StorageError` when it cannot be opened.
    private static func openFile(_ source: Source, nextSeq: Int64) throws -> Int32 {
        let fd: Int32
        if let opened = source.fd {
            fd = opened
        } else {
            fd = open(source.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else {
                if errno == ENOENT {
                    throw LogDamage(
                        path: source.path, line: 1, seq: nextSeq, offset: 0,
                        problem: LineProblem(.badSeq, "the segment disappeared while it was read"),
                        kind: .segmentMissing)
                }
                throw StorageError(operation: "open", path: source.path, errno: errno)
            }
        }
        return fd
    }

    /// Checks the end of a sealed segment read to its end: a crash tears only the active file, so a bad line,
    /// bytes after the last newline or no line at all are damage. `pending` holds the bytes after the last newline.
    private static func checkSealedEnd(_ scanner: Scanner, pending: [UInt8]) throws {
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

    /// The index of the first newline in `bytes` at or after `start`, found with `memchr`.
    static func newlineIndex(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
