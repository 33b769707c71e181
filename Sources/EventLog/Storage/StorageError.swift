#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed file operation: which one, on what, and the `errno` it returned.
package struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operation, e.g. `write`, `fdatasync`, `open`.
    package var operation: String
    /// The file or directory concerned.
    package var path: String
    /// The system error number.
    package var errno: Int32

    package init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// Whether the disk is full (`ENOSPC` or `EDQUOT`).
    package var isNoSpace: Bool { errno == ENOSPC || errno == EDQUOT }

    package var description: String {
        if operation == "open", errno == ELOOP {
            return "open \(path): it is a symbolic link, and weatherd opens its files without following links "
                + "(errno \(errno)); replace the link by the file it points to"
        }
        return "\(operation) \(path): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
