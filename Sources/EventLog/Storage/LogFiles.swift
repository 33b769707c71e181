import WeatherDomain
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files that hold a data dir's log, in seq order: the sealed segments `events-<first seq, 20 digits>.jsonl`
/// (read-only, each continuing the chain of the one before), then the active `events.jsonl`, plus the
/// manifest of what compaction and retention did to them.
///
/// The active file rolls over at `--segment-bytes`: it is fsynced, renamed to its segment name (the same
/// inode, so a reader that has it open keeps reading it) and replaced by a new, empty `events.jsonl`.
package struct LogFiles: Sendable, Equatable {
    /// The active file's name.
    package static let activeName = "events.jsonl"

    package let directory: String
    /// The first seqs of the sealed segments, ascending.
    package var segments: [Int64]
    package var manifest: LogManifest

    package init(directory: String, segments: [Int64] = [], manifest: LogManifest = LogManifest()) {
        self.directory = directory
        self.segments = segments
        self.manifest = manifest
    }

    /// A sealed segment's file name: `events-` and its first seq in 20 digits, so names sort in seq order.
    package static func segmentName(_ firstSeq: Int64) -> String {
        let digits = String(firstSeq)
        return "events-" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".jsonl"
    }

    /// The first seq a segment's file name states, or nil when the name is not a segment's.
    package static func firstSeq(ofSegmentNamed name: String) -> Int64? {
        guard name.hasPrefix("events-"), name.hasSuffix(".jsonl") else { return nil }
        let digits = name.dropFirst(7).dropLast(6)
        guard digits.count == 20, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }), let seq = Int64(digits), seq >= 1
        else { return nil }
        return seq
    }

    /// The active file's path.
    package var activePath: String { directory + "/" + Self.activeName }

    /// A sealed segment's path.
    package func path(ofSegment firstSeq: Int64) -> String { directory + "/" + Self.segmentName(firstSeq) }

    /// Lists the log's files in `directory` (none when it does not exist) and reads its manifest.
    ///
    /// - Throws: `LogDamage` for a file named like a segment whose name is not one (`events-12.jsonl`) or a
    ///   damaged manifest; `StorageError` when the directory cannot be read.
    package static func list(directory: String) throws -> LogFiles {
        guard let folder = opendir(directory) else {
            if errno == ENOENT { return LogFiles(directory: directory) }
            throw StorageError(operation: "opendir", path: directory, errno: errno)
        }
        var segments: [Int64] = []
        defer { closedir(folder) }
        while let item = readdir(folder) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("events-"), name.hasSuffix(".jsonl") else { continue }
            guard let seq = firstSeq(ofSegmentNamed: name) else {
                throw LogDamage(
                    path: directory + "/" + name, line: 1, seq: 0, offset: 0,
                    problem: LineProblem(
                        .badSeq,
                        "the file is named like a log segment, but a segment's name is events-<first seq "
                            + "in 20 digits>.jsonl"), kind: .segmentMissing)
            }
            segments.append(seq)
        }
        return LogFiles(
            directory: directory, segments: segments.sorted(), manifest: try LogManifest.read(directory: directory))
    }

    /// The total size of the log's files (sealed and active), for `service/status` and `log stats`.
    package var bytes: Int64 {
        (segments.map(path(ofSegment:)) + [activePath]).reduce(0) { total, path in
            var status = stat()
            return total + (lstat(path, &status) == 0 ? Int64(status.st_size) : 0)
        }
    }

    /// Replaces the active file at `path` with a new, empty one (0600) and returns it open for appending.
    static func createEmptyActive(_ path: String) throws(StorageError) -> Int32 {
        let fresh = path + ".new"
        unlink(fresh)
        let fd = try PosixLogFile.openForAppending(fresh, exclusive: true)
        guard rename(fresh, path) == 0 else {
            close(fd)
            throw StorageError(operation: "rename", path: path, errno: errno)
        }
        return fd
    }

    /// Completes a roll-over a crash interrupted: when the active file is also the last segment (the crash
    /// came after the segment's name was linked and before the new active file replaced the old name), it is
    /// replaced by a new, empty active file. Returns whether it did.
    package static func finishRollOver(directory: String) throws(StorageError) -> Bool {
        let files: LogFiles
        do { files = try list(directory: directory) } catch let error as StorageError { throw error } catch {
            return false  // damage is reported by the read that follows
        }
        guard let last = files.segments.last else { return false }
        let fd = open(files.activePath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard LogReader.isSameFile(fd, files.path(ofSegment: last)) else { return false }
        close(try createEmptyActive(files.activePath))
        try DataDirectory.syncDirectory(directory)
        return true
    }

    /// A whole small file's bytes, or nil when it does not exist; never through a symbolic link.
    package static func readWholeFile(_ path: String) throws(StorageError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw StorageError(operation: "open", path: path, errno: errno)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            if count < 0 { throw StorageError(operation: "read", path: path, errno: errno) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Replaces `path` with `bytes` atomically: writes `<path>.tmp`, fsyncs it, renames it over `path` and
    /// fsyncs the directory, so a crash leaves the old file or the new one.
    package static func replaceFile(_ path: String, with bytes: [UInt8], mode: mode_t) throws(StorageError) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw StorageError(operation: "open", path: temporary, errno: errno) }
        var closed = false
        defer { if !closed { close(fd) } }
        try PosixLogFile.writeAll(fd, bytes, path: temporary)
        guard fsync(fd) == 0 else { throw StorageError(operation: "fsync", path: temporary, errno: errno) }
        close(fd)
        closed = true
        guard rename(temporary, path) == 0 else { throw StorageError(operation: "rename", path: path, errno: errno) }
        try DataDirectory.syncDirectory(path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ".")
    }
}

/// A committed end of the log: `length` bytes into the file whose first seq is `file`.
package struct LogEnd: Sendable, Equatable {
    package var file: Int64
    package var length: Int64

    package init(file: Int64, length: Int64) {
        self.file = file
        self.length = length
    }
}
