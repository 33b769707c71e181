import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Cuts a torn tail off the log, keeping a copy of the dropped bytes beside it.
package enum TailRepair {
    /// Copies the tail to `<log>.broken-<time>`, truncates the log to the tail's offset and makes both durable.
    ///
    /// - Returns: the `log.recovered` payload describing the repair.
    /// - Throws: `StorageError` when any step fails (the log is then left as it was, or truncated only
    ///   after the copy is durable).
    package static func repair(logPath: String, tail: TornTail, now: Timestamp) throws(StorageError) -> LogRecovered {
        let stamp = now.description.replacingColons
        let source = open(logPath, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard source >= 0 else { throw StorageError(operation: "open", path: logPath, errno: errno) }
        defer { close(source) }
        // An earlier copy of the same name is never overwritten: it holds the bytes of an earlier repair.
        var copyPath = "\(logPath).broken-\(stamp)"
        var copy = open(copyPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        var attempt = 1
        while copy < 0, errno == EEXIST, attempt < 100 {
            copyPath = "\(logPath).broken-\(stamp)-\(attempt)"
            copy = open(copyPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            attempt += 1
        }
        guard copy >= 0 else { throw StorageError(operation: "open", path: copyPath, errno: errno) }
        defer { close(copy) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = tail.offset
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress!, $0.count, off_t(offset)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StorageError(operation: "read", path: logPath, errno: errno)
            }
            if count == 0 { break }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(copy, $0.baseAddress! + written, count - written) }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw StorageError(operation: "write", path: copyPath, errno: errno)
                }
                written += result
            }
            offset += Int64(count)
        }
        guard fsync(copy) == 0 else { throw StorageError(operation: "fsync", path: copyPath, errno: errno) }
        guard ftruncate(source, off_t(tail.offset)) == 0 else {
            throw StorageError(operation: "ftruncate", path: logPath, errno: errno)
        }
        guard fsync(source) == 0 else { throw StorageError(operation: "fsync", path: logPath, errno: errno) }
        let directory = String(logPath[..<(logPath.lastIndex(of: "/") ?? logPath.startIndex)])
        try DataDirectory.syncDirectory(directory.isEmpty ? "." : directory)
        return LogRecovered(
            file: String(logPath.split(separator: "/").last ?? Substring(logPath)), offset: tail.offset,
            droppedBytes: offset - tail.offset,
            brokenCopy: String(copyPath.split(separator: "/").last ?? Substring(copyPath)),
            reason: tail.reason.rawValue)
    }

    /// Appends the newline a last valid line lacks (at `length`, the log's length) and makes it durable.
    ///
    /// - Throws: `StorageError` when the log cannot be opened, written or synced.
    package static func restoreNewline(logPath: String, length: Int64) throws(StorageError) {
        let fd = open(logPath, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw StorageError(operation: "open", path: logPath, errno: errno) }
        defer { close(fd) }
        let newline: [UInt8] = [UInt8(ascii: "\n")]
        while pwrite(fd, newline, 1, off_t(length)) != 1 {
            if errno == EINTR { continue }
            throw StorageError(operation: "write", path: logPath, errno: errno)
        }
        guard fsync(fd) == 0 else { throw StorageError(operation: "fsync", path: logPath, errno: errno) }
    }
}

extension String {
    /// The string with `:` replaced by `-`, for file names.
    fileprivate var replacingColons: String { String(map { $0 == ":" ? "-" : $0 }) }
}
