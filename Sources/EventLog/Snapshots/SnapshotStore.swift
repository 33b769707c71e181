import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `snapshots/` folder of a data dir: writes snapshot files atomically, lists, reads and prunes them.
///
/// A snapshot is `snapshot-<seq, 20 digits>.json`. It is written to a temporary file in the same
/// folder, fsynced, renamed into place, and the folder is fsynced, so a crash leaves either the whole
/// file or none (a leftover `.tmp` file is removed by the next `prune`). Deleting the folder loses
/// nothing: the log holds everything.
package struct SnapshotStore: Sendable {
    /// The folder's path.
    package let path: String

    package init(directory: DataDirectory) { path = directory.path + "/snapshots" }

    /// A snapshot file: the seq it covers and its path.
    package struct Entry: Sendable, Equatable {
        package var seq: Int64
        package var path: String
    }

    /// The snapshot files, newest (highest seq) first; none when the folder is missing.
    ///
    /// - Throws: `StorageError` when the folder exists but cannot be read.
    package func list() throws(StorageError) -> [Entry] {
        var entries: [Entry] = []
        for name in try names() {
            guard name.hasPrefix("snapshot-"), name.hasSuffix(".json") else { continue }
            let digits = name.dropFirst("snapshot-".count).dropLast(".json".count)
            guard digits.count == 20, let seq = Int64(digits) else { continue }
            entries.append(Entry(seq: seq, path: path + "/" + name))
        }
        return entries.sorted { $0.seq > $1.seq }
    }

    /// The names of the files in the folder; none when the folder is missing.
    private func names() throws(StorageError) -> [String] {
        guard let folder = opendir(path) else {
            if errno == ENOENT { return [] }
            throw StorageError(operation: "opendir", path: path, errno: errno)
        }
        defer { closedir(folder) }
        var names: [String] = []
        while let item = readdir(folder) {
            names.append(
                withUnsafeBytes(of: item.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                })
        }
        return names
    }

    /// The path of the snapshot covering `seq`.
    package func path(seq: Int64) -> String {
        let digits = String(seq)
        return path + "/snapshot-" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".json"
    }

    /// Writes `bytes` as the snapshot of `seq`, atomically and durably.
    ///
    /// - Throws: `StorageError`; the temporary file is removed on failure (should that fail too, the next
    ///   `prune` removes it).
    package func write(_ bytes: [UInt8], seq: Int64) throws(StorageError) {
        if mkdir(path, 0o700) == 0 {
            try DataDirectory.syncDirectory((path as String).parentPath)
        } else if errno != EEXIST {
            throw StorageError(operation: "mkdir", path: path, errno: errno)
        }
        let final = path(seq: seq)
        let temporary = final + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw StorageError(operation: "open", path: temporary, errno: errno) }
        var failure = Descriptor.writeAll(fd, bytes).map {
            StorageError(operation: "write", path: temporary, errno: $0)
        }
        if failure == nil, fsync(fd) != 0 { failure = StorageError(operation: "fsync", path: temporary, errno: errno) }
        close(fd)
        if failure == nil, rename(temporary, final) != 0 {
            failure = StorageError(operation: "rename", path: final, errno: errno)
        }
        if let failure {
            // Best effort: the error being thrown is the one that matters, and `prune` removes a leftover.
            unlink(temporary)
            throw failure
        }
        try DataDirectory.syncDirectory(path)
    }

    /// Reads a snapshot file's bytes.
    ///
    /// - Throws: `StorageError` when it cannot be read.
    package func read(_ path: String) throws(StorageError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw StorageError(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw StorageError(operation: "fstat", path: path, errno: errno) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var offset = 0
        var failure: Int32?
        bytes.withUnsafeMutableBytes { raw in
            while offset < raw.count {
                let count = pread(fd, raw.baseAddress! + offset, raw.count - offset, off_t(offset))
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { return }
                offset += count
            }
        }
        if let failure { throw StorageError(operation: "read", path: path, errno: failure) }
        return Array(bytes[..<offset])
    }

    /// Removes one snapshot file (start-up drops those it cannot use, so they never crowd out new ones).
    ///
    /// - Throws: `StorageError` when the file exists but cannot be removed.
    package func remove(_ entry: Entry) throws(StorageError) {
        if unlink(entry.path) != 0, errno != ENOENT {
            throw StorageError(operation: "unlink", path: entry.path, errno: errno)
        }
    }

    /// Removes every snapshot but the newest `keep`, and leftover temporary files.
    ///
    /// - Throws: `StorageError` when the folder cannot be listed or a file cannot be removed.
    package func prune(keep: Int) throws(StorageError) {
        for entry in try list().dropFirst(keep) { try remove(entry) }
        for name in try names() where name.hasPrefix("snapshot-") && name.hasSuffix(".tmp") {
            let leftover = path + "/" + name
            if unlink(leftover) != 0, errno != ENOENT {
                throw StorageError(operation: "unlink", path: leftover, errno: errno)
            }
        }
    }
}

extension String {
    /// The path without its last component (`.` when there is none).
    fileprivate var parentPath: String {
        guard let slash = lastIndex(of: "/") else { return "." }
        return slash == startIndex ? "/" : String(self[..<slash])
    }
}
