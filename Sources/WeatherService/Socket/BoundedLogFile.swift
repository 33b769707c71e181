import Synchronization
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A log file of bounded size for a detached daemon, which has no standard error anyone reads.
///
/// Lines are appended (mode 0600, no symbolic link followed); a line that would take the file past `maxBytes`
/// first moves it to `<path>.1`, replacing the previous one, and starts a new file, so the two hold at most
/// about `2 × maxBytes`. Thread-safe: each line is one `write` under a lock.
package final class BoundedLogFile: Sendable {
    /// The file's path; the previous file is `path + ".1"`.
    package let path: String
    /// The size past which the file is rotated.
    package let maxBytes: Int
    private let state: Mutex<(fd: Int32, size: Int)>

    /// Opens (or creates) the file for appending.
    ///
    /// - Throws: `SocketError` when it cannot be opened (or is a symbolic link).
    package init(path: String, maxBytes: Int = 1 << 20) throws(SocketError) {
        self.path = path
        self.maxBytes = max(1, maxBytes)
        let fd = try Self.openFile(path)
        var status = stat()
        let size = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
        state = Mutex((fd, size))
    }

    deinit {
        state.withLock { UnixSocket.closeDescriptor($0.fd) }
    }

    /// Appends `message` and a newline, rotating first when the file would pass `maxBytes`.
    ///
    /// Failures are dropped: there is nowhere left to report them.
    package func write(_ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(UInt8(ascii: "\n"))
        state.withLock { state in
            if state.size > 0, state.size + bytes.count > maxBytes {
                rename(path, path + ".1")
                if let fresh = try? Self.openFile(path, truncating: true) {
                    UnixSocket.closeDescriptor(state.fd)
                    state = (fresh, 0)
                }
            }
            Descriptor.writeAll(state.fd, bytes)
            state.size += bytes.count
        }
    }

    /// The file as a `Logger` sink: `Logger(level: .info, sink: file.sink)`.
    package var sink: @Sendable (String) -> Void { { [self] in write($0) } }

    private static func openFile(_ path: String, truncating: Bool = false) throws(SocketError) -> Int32 {
        let flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (truncating ? O_TRUNC : 0)
        let fd = open(path, flags, 0o600)
        guard fd >= 0 else { throw .system("open", path, errno: errno) }
        return fd
    }
}
