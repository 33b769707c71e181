import Synchronization
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one seam under the log writer: the operations it performs on the log file.
///
/// Two implementations exist: `PosixLogFile` (the real file) and, in `WeatherTesting`, a
/// fault-injecting in-memory file that loses unsynced bytes and fails writes or syncs on demand.
/// Only the writer's thread calls these methods.
package protocol LogFile: Sendable {
    /// Writes all of `bytes` at the end of the file, or throws (possibly after writing a part of them).
    func append(_ bytes: UnsafeRawBufferPointer) throws(StorageError)
    /// Makes everything written so far durable (`fdatasync`).
    func sync() throws(StorageError)
    /// Cuts the file back to `length` bytes.
    func truncate(to length: Int64) throws(StorageError)
    /// Seals the file as the segment whose first seq is `firstSeq` and continues in a new, empty file: makes
    /// it durable, renames it to `events-<firstSeq, 20 digits>.jsonl` and makes it read-only (0400), creates
    /// the new active file (0600) and makes both directory entries durable.
    func rollOver(firstSeq: Int64) throws(StorageError)
}

/// The real log file, opened for appending.
package final class PosixLogFile: LogFile {
    /// The path, for error messages.
    package let path: String
    /// The open file; replaced by `rollOver` (only the writer's thread calls any method).
    private let descriptor: Mutex<Int32>
    private var fd: Int32 { descriptor.withLock { $0 } }

    /// Opens (creating with mode 0600) the log at `path`, never through a symbolic link.
    ///
    /// - Throws: `StorageError` when it cannot be opened (`ELOOP` for a symbolic link).
    package init(path: String) throws(StorageError) {
        self.path = path
        descriptor = Mutex(try Self.openForAppending(path))
    }

    static func openForAppending(_ path: String, exclusive: Bool = false) throws(StorageError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | (exclusive ? O_EXCL : 0)
        let fd = open(path, flags, 0o600)
        guard fd >= 0 else { throw StorageError(operation: "open", path: path, errno: errno) }
        return fd
    }

    deinit { close(fd) }

    package func rollOver(firstSeq: Int64) throws(StorageError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let sealed = directory + "/" + LogFiles.segmentName(firstSeq)
        let old = fd
        guard fsync(old) == 0 else { throw StorageError(operation: "fsync", path: path, errno: errno) }
        guard link(path, sealed) == 0 else { throw StorageError(operation: "link", path: sealed, errno: errno) }
        // The segment exists under both names now; the new active file replaces the old name atomically, so a
        // reader finds either the old active file (the segment) or the new one, never no log. A crash in
        // between leaves both names on one file, which start-up resolves (`LogFiles.finishRollOver`).
        let next = try LogFiles.createEmptyActive(path)
        descriptor.withLock { $0 = next }
        _ = fchmod(old, 0o400)  // read-only is a guard against slips; the chain guards the content
        close(old)
        try DataDirectory.syncDirectory(directory)
    }

    package func append(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        try Self.writeAll(fd, bytes, path: path)
    }

    /// Writes all of `bytes` to `fd`, retrying partial and interrupted writes.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(StorageError) {
        let failure = bytes.withUnsafeBytes { bytes -> StorageError? in
            do throws(StorageError) {
                try writeAll(fd, bytes, path: path)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Writes all of `bytes` to `fd`, retrying partial and interrupted writes.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(StorageError) {
        if let code = Descriptor.writeAll(fd, bytes) { throw StorageError(operation: "write", path: path, errno: code) }
    }

    package func sync() throws(StorageError) {
        #if canImport(Glibc)
            let result = fdatasync(fd)
        #else
            let result = fsync(fd)
        #endif
        guard result == 0 else { throw StorageError(operation: "fdatasync", path: path, errno: errno) }
    }

    package func truncate(to length: Int64) throws(StorageError) {
        guard ftruncate(fd, off_t(length)) == 0 else {
            throw StorageError(operation: "ftruncate", path: path, errno: errno)
        }
    }
}
