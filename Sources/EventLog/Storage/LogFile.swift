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
public protocol LogFile: Sendable {
    /// Writes all of `bytes` at the end of the file, or throws (possibly after writing a part of them).
    func append(_ bytes: UnsafeRawBufferPointer) throws(StorageError)
    /// Makes everything written so far durable (`fdatasync`).
    func sync() throws(StorageError)
    /// Cuts the file back to `length` bytes.
    func truncate(to length: Int64) throws(StorageError)
}

/// The real log file, opened for appending.
public final class PosixLogFile: LogFile {
    /// The path, for error messages.
    public let path: String
    private let fd: Int32

    /// Opens (creating with mode 0600) the log at `path`, never through a symbolic link.
    ///
    /// - Throws: `StorageError` when it cannot be opened (`ELOOP` for a symbolic link).
    public init(path: String) throws(StorageError) {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw StorageError(operation: "open", path: path, errno: errno) }
        self.fd = fd
    }

    deinit { close(fd) }

    public func append(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw StorageError(operation: "write", path: path, errno: errno)
            }
            offset += written
        }
    }

    public func sync() throws(StorageError) {
        #if canImport(Glibc)
            let result = fdatasync(fd)
        #else
            let result = fsync(fd)
        #endif
        guard result == 0 else { throw StorageError(operation: "fdatasync", path: path, errno: errno) }
    }

    public func truncate(to length: Int64) throws(StorageError) {
        guard ftruncate(fd, off_t(length)) == 0 else {
            throw StorageError(operation: "ftruncate", path: path, errno: errno)
        }
    }
}
